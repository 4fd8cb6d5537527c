// The image tools (docs/generation.md, "Tools"): tools.remove_background (fal's cutout queue),
// tools.image_modification (the image provider's edit) and tools.variant_analyze (the vision model,
// structured output), through the real adapters against the stand-in. Stored media is read back
// through its signed link and checked with sharp; every call is a billed generation.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { siteUrls, VIDEO_IDS } from "./support/provider-standin/site-routes.js";
import { useService, useStandIn, type ApiResponse, type Client } from "./support/service.js";
import { balanceOf, funded, ok } from "./support/action-calls.js";

type Row = Record<string, any>;

const overrides = {};
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;
/** A 480x360 JPEG the stand-in serves on loopback (a video thumbnail), which the URL guard allows here. */
const imageUrl = () => `${standIn().url}/vi/${VIDEO_IDS.timedText}/hqdefault.jpg`;

function created(response: ApiResponse): Row {
  expect(response.status, response.text).toBe(201);
  return response.body as Row;
}

function refused(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status });
  return response.body.error as Row;
}

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/tools.${name}`, input);
const bytesOf = async (link: string) => Buffer.from(await (await fetch(link)).arrayBuffer());

describe("tools.remove_background", () => {
  it("cuts the image out through fal, stores a PNG with alpha, and records a billed generation", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const folder = created(await client.post("/api/v1/folders", { folder_name: "Cut-outs", folder_scope: "playground" }));
    const cut = ok(await call(client, "remove_background", { image_url: imageUrl(), folder_id: folder.folder_id, action_type: "product_shot" }));
    expect(cut).toMatchObject({ object: "background_removal", content_type: "image/png", has_alpha: true, opaque: false, model: "fal/fal-ai/birefnet/v2", folder_id: folder.folder_id, action_type: "product_shot", credits: { cost: 2, charged: 2, balance_after: 18 } });
    const stored = await sharp(await bytesOf(cut.url)).metadata();
    expect(stored).toMatchObject({ format: "png", hasAlpha: true, width: cut.width, height: cut.height });
    // fal got the image inline and was polled to completion.
    expect(standIn().calls("fal.submit").at(-1)!.model).toBe("fal-ai/birefnet/v2");
    const generation = await prisma().generation.findUniqueOrThrow({ where: { generation_id: cut.generation_id } });
    expect(generation).toMatchObject({ workspace_id: workspaceId, status: "completed", credits_consumed: 2, agent_type: "image", folder_id: folder.folder_id, output_urls: [cut.url], prompt: "Remove the background" });
    expect(generation.generation_metadata).toMatchObject({ action: "tools.remove_background", action_type: "product_shot", source_url: imageUrl() });
    const listed = ok(await client.get(`/api/v1/generations/${cut.generation_id}`));
    expect(listed).toMatchObject({ status: "completed", credits_consumed: 2 });
    expect(await prisma().outboxEvent.count({ where: { workspace_id: workspaceId, type: "generation.completed" } })).toBe(1);
  });

  it("a failed fal job gives the credits back and leaves a failed generation saying nothing was spent", async () => {
    const { client, workspaceId } = await funded(service, 20);
    standIn().failNext("fal.submit", { status: 500 });
    refused(await call(client, "remove_background", { image_url: imageUrl() }), 502, "upstream_error");
    expect(await balanceOf(service, workspaceId)).toBe(20);
    const failed = await prisma().generation.findFirstOrThrow({ where: { workspace_id: workspaceId } });
    expect(failed).toMatchObject({ status: "failed", credits_consumed: 0, output_urls: [] });
    expect(failed.error_message).toMatch(/^upstream_error: /);
    const event = await prisma().outboxEvent.findFirstOrThrow({ where: { workspace_id: workspaceId, type: "generation.failed" } });
    expect(event.data).toMatchObject({ object: { generation_id: failed.generation_id }, credits_consumed: 0, credits_refunded: 2 });
  });

  it("refuses what is not an image, addresses the guard refuses, and others' folders, before anything is spent", async () => {
    const { client, workspaceId } = await funded(service, 20);
    refused(await call(client, "remove_background", { image_url: siteUrls(standIn().url).forum_url.replace(/\/$/, ".json") }), 422, "validation_failed");
    refused(await call(client, "remove_background", { image_url: "http://169.254.169.254/latest/meta-data.png" }), 422, "validation_failed");
    const other = await funded(service, 20);
    const theirs = created(await other.client.post("/api/v1/folders", { folder_name: "Theirs", folder_scope: "playground" }));
    refused(await call(client, "remove_background", { image_url: imageUrl(), folder_id: theirs.folder_id }), 403, "workspace_mismatch");
    const videoFolder = created(await client.post("/api/v1/folders", { folder_name: "Videos", folder_scope: "video" }));
    refused(await call(client, "remove_background", { image_url: imageUrl(), folder_id: videoFolder.folder_id }), 422, "validation_failed");
    expect(await balanceOf(service, workspaceId)).toBe(20);
    expect(await prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });
});

describe("tools.image_modification", () => {
  it("edits an inline image with the image model, stores and measures the result, using the agent's size", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3366cc" } }).png().toBuffer();
    const agent = created(await client.post("/api/v1/agents", { agent_name: "Editor", agent_type: "image", agent_settings: { size: "512x512" } }));
    const edit = ok(await call(client, "image_modification", { image_base64: png.toString("base64"), media_type: "image/png", prompt: "Add a moon", agent_id: agent.agent_id, input_fidelity: "high" }));
    expect(edit).toMatchObject({ object: "image_modification", prompt: "Add a moon", size: "512x512", width: 512, height: 512, agent_id: agent.agent_id, input_fidelity: "high", model: "openai/gpt-image-1", credits: { charged: 4, balance_after: 16 } });
    const stored = await sharp(await bytesOf(edit.url)).metadata();
    expect(stored).toMatchObject({ width: 512, height: 512 });
    expect(standIn().calls("openai.images.edits").at(-1)!.summary).toMatchObject({ size: "512x512" });
    const generation = await prisma().generation.findUniqueOrThrow({ where: { generation_id: edit.generation_id } });
    expect(generation).toMatchObject({ workspace_id: workspaceId, agent_id: agent.agent_id, status: "completed", credits_consumed: 4, prompt: "Add a moon" });
  });

  it("fetches an image URL through the guard; refuses both sources, a lying media_type and a non-image agent", async () => {
    const fixture = await funded(service, 20);
    const { client, workspaceId } = fixture;
    const answer = await client.graphql(`mutation($input: ToolsImageModificationInput!) { tools_image_modification(input: $input) { ... on ToolsImageModificationResult { object width height size credits { charged } } } }`, {
      input: { image_url: imageUrl(), prompt: "Make it night", size: "256x256" },
    });
    expect(answer.body.data?.tools_image_modification, answer.text).toEqual({ object: "image_modification", width: 256, height: 256, size: "256x256", credits: { charged: 4 } });
    const png = (await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } }).png().toBuffer()).toString("base64");
    refused(await call(client, "image_modification", { image_base64: png, image_url: imageUrl(), prompt: "x" }), 422, "validation_failed");
    refused(await call(client, "image_modification", { image_base64: png, media_type: "image/jpeg", prompt: "x" }), 422, "validation_failed");
    const writer = created(await client.post("/api/v1/agents", { agent_name: "Writer", agent_type: "video" }));
    refused(await call(client, "image_modification", { image_base64: png, prompt: "x", agent_id: writer.agent_id }), 422, "validation_failed");
    expect(await balanceOf(service, workspaceId)).toBe(16);
    const test = await fixture.newKey({ mode: "test" });
    const before = standIn().calls().length;
    expect(ok(await call(test.client, "image_modification", { image_url: imageUrl(), prompt: "x" }))).toMatchObject({ object: "action_quote", credits: { cost: 4, charged: 0 }, capabilities: ["image"] });
    expect(standIn().calls().length).toBe(before);
  });
});

describe("tools.variant_analyze", () => {
  it("reports the variant's content and how it follows its prompt, as structured output from the vision model", async () => {
    const { client, workspaceId } = await funded(service, 20);
    standIn().answerNext("openai.chat", {
      summary: "A dark blue rectangle.", subjects: ["rectangle"], style: "flat colour", colors: ["navy"], text_in_image: "", issues: [],
      prompt_match: { score: 0.2, matched: ["blue"], missing: ["a cat"] },
    });
    const analysis = ok(await call(client, "variant_analyze", { image_url: imageUrl(), original_prompt: "A blue cat" }));
    expect(analysis).toMatchObject({
      object: "variant_analysis", width: 480, height: 360, media_type: "image/jpeg", summary: "A dark blue rectangle.", colors: ["navy"],
      prompt_match: { score: 0.2, matched: ["blue"], missing: ["a cat"] }, model: "openai/gpt-4.1-mini", credits: { charged: 1, balance_after: 19 },
    });
    const asked = standIn().calls("openai.chat").at(-1)!;
    expect(asked.summary).toMatchObject({ images: 1 });
    expect(asked.messages!.user).toContain("Prompt: A blue cat");
    const generation = await prisma().generation.findUniqueOrThrow({ where: { generation_id: analysis.generation_id } });
    expect(generation).toMatchObject({ workspace_id: workspaceId, status: "completed", credits_consumed: 1, prompt: "A blue cat" });
    expect((generation.generation_metadata as Row).report).toMatchObject({ summary: "A dark blue rectangle." });

    const plain = ok(await call(client, "variant_analyze", { image_url: imageUrl() }));
    expect(plain.prompt_match).toBeNull();
  });
});
