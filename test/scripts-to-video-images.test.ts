// scripts.to_video with an image model (docs/scripts.md, "Generated pictures"), through the real
// image adapter against the provider stand-in on loopback: with request.generate_images, one image
// drawn from the words of each paragraph lacking a picture, stored, recorded as a generation and
// used as that scene's moving still, 4 credits each on top of the hand-over's 2; drawn once (a later
// hand-over keeps it while the words are unchanged); a test key's quote counts the images and draws
// none; a failed image gives everything back.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { useService, useStandIn, type Client } from "./support/service.js";
import { balanceOf, funded, ok, refused } from "./support/action-calls.js";

type Row = Record<string, any>;

const overrides = {};
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;
const imageCalls = () => standIn().calls("openai.images.generations");

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);
const testClient = async (fixture: Awaited<ReturnType<typeof funded>>) => (await fixture.newKey({ mode: "test" })).client;

/** A script of unvoiced paragraphs (silent scenes timed from their words: no speech needed here). */
async function script(client: Client, texts: string[]) {
  const { script_id: scriptId } = ok(await call(client, "scripts.create", { title: "Lighthouses", language: "en" }));
  const ids: string[] = [];
  for (const text of texts) ids.push(ok(await call(client, "scripts.insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
  return { scriptId, ids };
}

const TEXTS = ["A lighthouse stands on the rocks at dusk.", "Its keeper climbs the stairs every evening.", "Ships pass safely through the night."];

describe("scripts.to_video with an image model", () => {
  it("draws one image per paragraph lacking a picture, uses each as its scene's moving still, charges 4 credits an image, and draws it once", async () => {
    standIn().reset();
    const fixture = await funded(service, 100);
    const { client, workspaceId } = fixture;
    const { scriptId, ids } = await script(client, TEXTS);
    ok(await call(client, "scripts.set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[1], src: "background:bg_shelf_dot_grid" }));

    const handed = ok(await call(client, "scripts.to_video", { script_id: scriptId, request: { generate_images: true } }));
    // Two images (the second paragraph has its own picture): 2 + 2 × 4 credits.
    expect(handed.credits).toMatchObject({ cost: 10, charged: 10 });
    expect(await balanceOf(service, workspaceId)).toBe(90);
    expect(handed.generated_images).toHaveLength(2);
    const [first, second, third] = handed.scenes as Row[];
    expect(second!.visual).toMatchObject({ from: "paragraph", src: "background:bg_shelf_dot_grid" });
    for (const [scene, generationId] of [[first!, handed.generated_images[0]], [third!, handed.generated_images[1]]] as const) {
      expect(scene.visual).toMatchObject({ from: "generated", media: "image", src: `generation:${generationId}`, ken_burns: true, why: `generated image ${generationId}, from the paragraph's words` });
    }
    // Drawn from the paragraphs' words, in the video's landscape shape.
    const calls = imageCalls();
    expect(calls).toHaveLength(2);
    expect(calls.map((entry) => entry.summary.size)).toEqual(["1536x1024", "1536x1024"]);
    expect(calls.map((entry) => entry.summary.prompt).sort()).toEqual([expect.stringContaining(TEXTS[0]!), expect.stringContaining(TEXTS[2]!)].sort());
    expect(calls.some((entry) => String(entry.summary.prompt).includes(TEXTS[1]!))).toBe(false);

    // Each image is a completed generation of its own, with its file stored and readable.
    const rows = await prisma().generation.findMany({ where: { workspace_id: workspaceId } });
    expect(rows.map((row) => row.generation_id).sort()).toEqual([...handed.generated_images].sort());
    for (const row of rows) {
      expect(row).toMatchObject({ status: "completed", agent_type: "image", credits_consumed: 4 });
      expect(row.generation_metadata).toMatchObject({ action: "scripts.to_video", script_id: scriptId });
      const picture = await sharp(Buffer.from(await (await fetch(row.output_urls[0]!)).arrayBuffer())).metadata();
      expect([picture.width, picture.height]).toEqual([1536, 1024]);
    }
    expect(await prisma().outboxEvent.count({ where: { workspace_id: workspaceId, type: "generation.completed" } })).toBe(2);
    // The composition draws them as stills with Ken Burns motion.
    const stills = (handed.video.composition.layers as Row[]).filter((layer) => layer.type === "image");
    expect(stills.map((layer) => layer.src)).toEqual(handed.scenes.map((scene: Row) => scene.visual.src));
    for (const still of stills) expect(still.motion).toMatchObject({ type: expect.any(String) });
    // The render takes them: each reference names a generation of the workspace with its file.
    const simulated = ok(await call(await testClient(fixture), "renders.create", { video_id: handed.video_id }));
    expect(simulated).toMatchObject({ livemode: false });

    // Handed over again with the words unchanged: the same images, nothing drawn, 2 credits.
    const again = ok(await call(client, "scripts.to_video", { script_id: scriptId, request: { generate_images: true } }));
    expect(again.credits).toMatchObject({ cost: 2, charged: 2 });
    expect(again.generated_images).toEqual([]);
    expect(again.scenes.map((scene: Row) => scene.visual.src)).toEqual(handed.scenes.map((scene: Row) => scene.visual.src));
    expect(again.scenes[0].visual.why).toMatch(/drawn at an earlier hand-over/);
    expect(again.changed_scenes).toEqual([]);
    expect(imageCalls()).toHaveLength(2);

    // One paragraph's words change: only its image is drawn again.
    ok(await call(client, "scripts.set_paragraph_text", { script_id: scriptId, paragraph_id: ids[2], text: "Ships pass safely through the stormy night." }));
    const changed = ok(await call(client, "scripts.to_video", { script_id: scriptId, request: { generate_images: true } }));
    expect(changed.credits).toMatchObject({ cost: 6, charged: 6 });
    expect(changed.generated_images).toHaveLength(1);
    expect(changed.scenes[0].visual.src).toBe(handed.scenes[0].visual.src);
    expect(changed.scenes[2].visual.src).toBe(`generation:${changed.generated_images[0]}`);
    expect(imageCalls()).toHaveLength(3);
    expect(await balanceOf(service, workspaceId)).toBe(100 - 10 - 2 - 6);
    expect(changed.video_id).toBe(handed.video_id);

    // Without generate_images: shelf backgrounds, saying why; nothing drawn or charged beyond the 2.
    const plain = ok(await call(client, "scripts.to_video", { script_id: scriptId }));
    expect(plain.credits).toMatchObject({ cost: 2, charged: 2 });
    expect(plain.scenes[0].visual).toMatchObject({ from: "background" });
    expect(plain.scenes[0].visual.why).toMatch(/image generation not asked for \(request\.generate_images\)$/);
    expect(imageCalls()).toHaveLength(3);
  });

  it("quotes a test key the images it would draw, and draws, stores and writes nothing", async () => {
    standIn().reset();
    const fixture = await funded(service, 100);
    const { scriptId } = await script(fixture.client, TEXTS);
    const test = await fixture.newKey({ mode: "test" });
    const quoted = ok(await call(test.client, "scripts.to_video", { script_id: scriptId, request: { generate_images: true } }));
    expect(quoted).toMatchObject({ object: "action_quote", credits: { cost: 2 + 3 * 4, charged: 0 } });
    expect(imageCalls()).toHaveLength(0);
    expect(await prisma().generation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await prisma().video.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(100);
  });

  it("refuses a workspace short of the images' price before drawing any", async () => {
    standIn().reset();
    const { client, workspaceId } = await funded(service, 9);
    const { scriptId } = await script(client, TEXTS);
    refused(await call(client, "scripts.to_video", { script_id: scriptId, request: { generate_images: true } }), 402, "insufficient_credits");
    expect(imageCalls()).toHaveLength(0);
    expect(await balanceOf(service, workspaceId)).toBe(9);
  });

  it("a failed image fails the hand-over: the hold is given back, no generation, no video", async () => {
    standIn().reset();
    const { client, workspaceId } = await funded(service, 100);
    const { scriptId } = await script(client, TEXTS);
    standIn().failNext("openai.images.generations", { status: 500, after: 1 });
    refused(await call(client, "scripts.to_video", { script_id: scriptId, request: { generate_images: true } }), 502, "upstream_error");
    expect(await balanceOf(service, workspaceId)).toBe(100);
    expect(await prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
    expect(await prisma().video.count({ where: { workspace_id: workspaceId } })).toBe(0);
    expect((await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } })).video_id).toBeNull();
  });
});
