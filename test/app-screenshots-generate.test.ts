// app_screenshots.generate (docs/generation.md, "Image agents and app screenshots"): one store
// screenshot of a project's screen, drawn through the real image adapter against the stand-in from
// the project's global prompt, its image agent's Liquid template and the screen's prompt, with the
// project's and the screen's references fetched through the URL guard; brought to the exact store
// pixels (checked here with sharp), stored and served by a signed link, billed 4 credits with a
// completed `generations` row and generation.completed. A test key gets a quote; a failed drawing
// gives the hold back and is recorded as a failed generation.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { balanceOf, funded, ok, refused, useLoopbackImages } from "./support/action-calls.js";
import { useService, useStandIn, type Client } from "./support/service.js";

const overrides = {};
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;
const images = useLoopbackImages({ width: 48, height: 96 });

/** A project with an image agent and two screens; its ids. */
async function project(client: Client, references: { global?: string[]; screen?: string[] } = {}) {
  const agent = ok(await client.post("/api/v1/actions/image_agents.create", { agent_name: "Store artist", agent_prompt_template: "Phone mockup of {{ project_name }}: {{ screen_title | downcase }}" }));
  const created = ok(await client.post("/api/v1/actions/app_screenshots.create", { project_name: "Habit tracker" }));
  const updated = ok(await client.post("/api/v1/actions/app_screenshots.update", {
    project_id: created.project_id,
    agent_id: agent.agent_id,
    global_prompt: "Clean pastel UI, rounded cards",
    global_references: references.global ?? [],
    screens: [{ title: "Today", prompt: "The daily checklist with three habits", references: references.screen ?? [] }, { title: "Stats" }],
  }));
  return { projectId: created.project_id as string, screenId: updated.screens[0].screen_id as string, agentId: agent.agent_id as string };
}

async function bytesOf(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return { type: response.headers.get("content-type"), data: Buffer.from(await response.arrayBuffer()) };
}

describe("app_screenshots.generate", () => {
  it("draws the screen at the exact store size, stores it, bills 4 and records the generation", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { projectId, screenId, agentId } = await project(client);
    const body = ok(await client.post("/api/v1/actions/app_screenshots.generate", { project_id: projectId, screen_id: screenId, quality: "low" }));
    expect(body).toMatchObject({
      object: "app_screenshot",
      project_id: projectId,
      screen_id: screenId,
      content_type: "image/png",
      width: 1290,
      height: 2796,
      size: "iphone_6_7",
      references_used: 0,
      model: "openai/gpt-image-1",
      prompt: 'Clean pastel UI, rounded cards\n\nPhone mockup of Habit tracker: today\n\nApp store screenshot of the screen "Today". The daily checklist with three habits',
      credits: { cost: 4, charged: 4, balance_after: 6 },
    });
    const file = await bytesOf(body.url);
    expect(file.type).toBe("image/png");
    expect(file.data.length).toBe(body.size_bytes);
    expect(await sharp(file.data).metadata()).toMatchObject({ format: "png", width: 1290, height: 2796 });
    // Drawn portrait at the nearest model size, with the quality asked.
    expect(standIn().calls("openai.images.generations").at(-1)!.summary).toMatchObject({ size: "1024x1536", quality: "low", prompt: body.prompt.slice(0, 120) });

    const row = await prisma().generation.findUniqueOrThrow({ where: { generation_id: body.generation_id } });
    expect(row).toMatchObject({ workspace_id: workspaceId, agent_id: agentId, agent_type: "image", status: "completed", credits_consumed: 4, output_urls: [body.url] });
    expect(row.generation_metadata).toMatchObject({ action: "app_screenshots.generate", project_id: projectId, screen_id: screenId, width: 1290, height: 2796 });
    expect(await balanceOf(service, workspaceId)).toBe(6);
    const completed = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "generation.completed" } });
    expect(completed.map((event) => (event.data as Record<string, any>).object)).toEqual([expect.objectContaining({ generation_id: body.generation_id, status: "completed", output_urls: [body.url] })]);
  });

  it("takes a size of its own (landscape) and sends the project's and the screen's references to the edit route", async () => {
    const { client } = await funded(service, 10);
    const { projectId, screenId } = await project(client, { global: [`${images.base}/style.png`], screen: [`${images.base}/wire.png`] });
    const body = ok(await client.post("/api/v1/actions/app_screenshots.generate", { project_id: projectId, screen_id: screenId, size: "2000x1200" }));
    expect(body).toMatchObject({ width: 2000, height: 1200, size: "2000x1200", references_used: 2 });
    expect(await sharp((await bytesOf(body.url)).data).metadata()).toMatchObject({ width: 2000, height: 1200 });
    expect(standIn().calls("openai.images.edits").at(-1)!.summary).toMatchObject({ images: 2, size: "1536x1024" });
  });

  it("refuses what it cannot make before holding anything; a reference that is no image or a failed drawing gives the hold back", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { projectId, screenId } = await project(client);
    const size = refused(await client.post("/api/v1/actions/app_screenshots.generate", { project_id: projectId, screen_id: screenId, size: "100x5000" }), 422, "validation_failed");
    expect(size.details.issues[0]).toMatchObject({ path: "size", allowed: expect.arrayContaining(["iphone_6_7", "android_phone"]) });
    expect(refused(await client.post("/api/v1/actions/app_screenshots.generate", { project_id: projectId, screen_id: screenId, quality: "ultra" }), 422, "validation_failed").param).toBe("quality");
    expect(refused(await client.post("/api/v1/actions/app_screenshots.generate", { project_id: projectId, screen_id: "scn_missing" }), 422, "validation_failed").param).toBe("screen_id");
    const other = await funded(service, 10);
    refused(await other.client.post("/api/v1/actions/app_screenshots.generate", { project_id: projectId, screen_id: screenId }), 403, "workspace_mismatch");

    // A reference that is no image is the caller's mistake: nothing is recorded.
    const bad = await project(client, { screen: [`${images.base}/notes.txt`] });
    refused(await client.post("/api/v1/actions/app_screenshots.generate", { project_id: bad.projectId, screen_id: bad.screenId }), 422, "validation_failed");
    expect(await prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
    // A drawing that fails is a failed generation, like every billed model call: a failed row that
    // cost nothing, generation.failed, and the hold given back.
    standIn().failNext("openai.images.generations", { status: 500 });
    refused(await client.post("/api/v1/actions/app_screenshots.generate", { project_id: projectId, screen_id: screenId }), 502, "upstream_error");
    expect(await balanceOf(service, workspaceId)).toBe(10);
    const rows = await prisma().generation.findMany({ where: { workspace_id: workspaceId } });
    expect(rows).toEqual([expect.objectContaining({ status: "failed", credits_consumed: 0, agent_type: "image", error_message: expect.stringMatching(/^upstream_error: /) })]);
    const failed = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "generation.failed" } });
    expect(failed.map((event) => event.data)).toEqual([expect.objectContaining({ error_code: "upstream_error", credits_consumed: 0, credits_refunded: 4 })]);
  });

  it("a test key gets a quote after the checks; nothing is drawn, stored or spent", async () => {
    const fixture = await funded(service, 10);
    const { projectId, screenId } = await project(fixture.client);
    const test = await fixture.newKey({ mode: "test" });
    const calls = standIn().calls("openai.images.generations").length;
    const quote = ok(await test.client.post("/api/v1/actions/app_screenshots.generate", { project_id: projectId, screen_id: screenId, size: "android_phone" }));
    expect(quote).toMatchObject({ object: "action_quote", action: "app_screenshots.generate", credits: { cost: 4, charged: 0 }, capabilities: ["image"] });
    refused(await test.client.post("/api/v1/actions/app_screenshots.generate", { project_id: projectId, screen_id: screenId, size: "big" }), 422, "validation_failed");
    expect(standIn().calls("openai.images.generations").length).toBe(calls);
    expect(await prisma().generation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(10);
  });
});
