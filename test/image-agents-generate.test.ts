// image_agents.generate and image_agents.status (docs/generation.md, "Image agents and app
// screenshots"): a job started with images.generate's machinery (the pending `generations` row,
// the image generation operation, count × 4 held), run by real workers through the real image
// adapter against the stand-in; aspect_ratio drawn at the model size it names, extra reference
// images fetched through the URL guard and sent to the edit route; status of several jobs at once
// with fresh links; a failure keeping what was made and reporting credits already spent.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { balanceOf, funded, ok, refused, useLoopbackImages } from "./support/action-calls.js";
import { isolatedEnvironment, useService, useStandIn, type Client } from "./support/service.js";
import { waitFor } from "./support/wait.js";

type Row = Record<string, any>;

const environment = isolatedEnvironment("image-agents", { runWorkers: true, dispatchIntervalMs: 60_000 });
const overrides = environment.overrides;
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;
const images = useLoopbackImages();

async function imageAgent(client: Client): Promise<string> {
  return ok(await client.post("/api/v1/actions/image_agents.create", { agent_name: "Poster painter", agent_prompt_template: "A poster of {{ subject }}", agent_settings: { size: "256x256" } })).agent_id as string;
}

async function finished(client: Client, ids: string[]): Promise<Row[]> {
  return waitFor(
    "the jobs",
    async () => {
      const status = ok(await client.post("/api/v1/actions/image_agents.status", { generation_ids: ids }));
      return status.data.every((job: Row) => job.status === "completed" || job.status === "failed") ? (status.data as Row[]) : undefined;
    },
    30_000,
    100,
  );
}

describe("image_agents.generate and image_agents.status", () => {
  it("starts two jobs, reports both at once while and after they run, with their images at the aspect ratio's size", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const agentId = await imageAgent(client);
    const tall = ok(await client.post("/api/v1/actions/image_agents.generate", { agent_id: agentId, variables: { subject: "a lighthouse" }, count: 2, aspect_ratio: "2:3", quality: "low", source: "api" }));
    expect(tall).toMatchObject({ object: "generation", status: "pending", agent_id: agentId, prompt: "A poster of a lighthouse", credits_consumed: 8, credits: { cost: 8, charged: 8, held: true } });
    const square = ok(await client.post("/api/v1/actions/image_agents.generate", { agent_id: agentId, variables: { subject: "a fox" } }));
    expect(square.credits).toMatchObject({ cost: 4, charged: 4, balance_after: 8 });

    const early = ok(await client.post("/api/v1/actions/image_agents.status", { generation_ids: [tall.generation_id, square.generation_id] }));
    expect(early.object).toBe("image_generation_statuses");
    expect(early.data.map((job: Row) => job.generation_id)).toEqual([tall.generation_id, square.generation_id]);

    const [tallDone, squareDone] = await finished(client, [tall.generation_id, square.generation_id]);
    expect(tallDone).toMatchObject({ object: "image_generation_status", status: "completed", progress: 100, count: 2, images_done: 2, credits_consumed: 8, error_message: null });
    expect(squareDone).toMatchObject({ status: "completed", count: 1, images_done: 1, credits_consumed: 4 });
    for (const url of tallDone!.output_urls as string[]) {
      const image = await fetch(url);
      expect(image.headers.get("content-type")).toBe("image/png");
      expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ width: 1024, height: 1536 });
    }
    // The aspect ratio and quality reached the model; the agent's own size applied when none was asked.
    const drawn = standIn().calls("openai.images.generations").map((call) => call.summary);
    expect(drawn).toEqual(expect.arrayContaining([expect.objectContaining({ prompt: "A poster of a lighthouse", size: "1024x1536", quality: "low" }), expect.objectContaining({ prompt: "A poster of a fox", size: "256x256" })]));
    const row = await prisma().generation.findUniqueOrThrow({ where: { generation_id: tall.generation_id } });
    expect(row).toMatchObject({ status: "completed", generation_metadata: expect.objectContaining({ action: "image_agents.generate", source: "api", aspect_ratio: "2:3" }) });
    expect(await balanceOf(service, workspaceId)).toBe(8);
  });

  it("sends the reference and the additional references, each read through the URL guard, to the edit route", async () => {
    const { client } = await funded(service, 10);
    const agentId = await imageAgent(client);
    const job = ok(await client.post("/api/v1/actions/image_agents.generate", { agent_id: agentId, variables: { subject: "a boat" }, reference_image_url: `${images.base}/a.png`, additional_reference_image_urls: [`${images.base}/b.png`, `${images.base}/c.png`] }));
    const [done] = await finished(client, [job.generation_id]);
    expect(done).toMatchObject({ status: "completed", images_done: 1 });
    expect(standIn().calls("openai.images.edits").at(-1)!.summary).toMatchObject({ prompt: "A poster of a boat", images: 3 });
  });

  it("a job that fails after its first image keeps it, reports 4 credits spent and refunds the rest", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const agentId = await imageAgent(client);
    standIn().failNext("openai.images.generations", { status: 500, after: 1 });
    const job = ok(await client.post("/api/v1/actions/image_agents.generate", { agent_id: agentId, variables: { subject: "a comet" }, count: 3 }));
    const [done] = await finished(client, [job.generation_id]);
    expect(done).toMatchObject({ status: "failed", images_done: 1, credits_consumed: 4 });
    expect(done!.output_urls).toHaveLength(1);
    expect(done!.error_message).toMatch(/^upstream_error: /);
    const failed = await prisma().outboxEvent.findFirstOrThrow({ where: { workspace_id: workspaceId, type: "generation.failed" } });
    expect(failed.data).toMatchObject({ credits_consumed: 4, credits_refunded: 8 });
    expect(await balanceOf(service, workspaceId)).toBe(16);
  });

  it("refuses before anything is held: a video agent (404), an aspect ratio it cannot draw, a missing variable; status checks every id", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const video = await client.post("/api/v1/agents", { agent_name: "Director", agent_type: "video" });
    refused(await client.post("/api/v1/actions/image_agents.generate", { agent_id: video.body.agent_id }), 404, "not_found");
    const agentId = await imageAgent(client);
    const ratio = refused(await client.post("/api/v1/actions/image_agents.generate", { agent_id: agentId, variables: { subject: "x" }, aspect_ratio: "5:1" }), 422, "validation_failed");
    expect(ratio.details.issues[0]).toMatchObject({ path: "aspect_ratio", allowed: expect.arrayContaining(["1:1", "9:16"]) });
    expect(refused(await client.post("/api/v1/actions/image_agents.generate", { agent_id: agentId }), 422, "validation_failed").param).toBe("variables.subject");
    expect(await balanceOf(service, workspaceId)).toBe(10);
    expect(await prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);

    const job = ok(await client.post("/api/v1/actions/image_agents.generate", { agent_id: agentId, variables: { subject: "a tree" } }));
    const other = await funded(service, 0);
    refused(await other.client.post("/api/v1/actions/image_agents.status", { generation_ids: [job.generation_id] }), 403, "workspace_mismatch");
    refused(await client.post("/api/v1/actions/image_agents.status", { generation_ids: [job.generation_id, "generation_missing"] }), 404, "not_found");
  });

  it("a test key answers the job it would start, and keeps nothing", async () => {
    const fixture = await funded(service, 10);
    const agentId = await imageAgent(fixture.client);
    const test = await fixture.newKey({ mode: "test" });
    const calls = standIn().calls("openai.images.generations").length;
    const body = ok(await test.client.post("/api/v1/actions/image_agents.generate", { agent_id: agentId, variables: { subject: "a kite" }, count: 2 }));
    expect(body).toMatchObject({ object: "generation", status: "pending", credits: { cost: 8, charged: 0 } });
    expect(await prisma().generation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await prisma().operation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(10);
    expect(standIn().calls("openai.images.generations").length).toBe(calls);
  });
});
