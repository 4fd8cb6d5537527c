// characters.generate_image and characters.smart_variants end to end through the real OpenAI
// adapter against the stand-in, real workers: the character's description goes into every
// prompt and its reference images (fetched through the URL guard) with every image call, as the
// stand-in's recorded calls show; images are checked with sharp and stored; analyze_only changes
// nothing but the one unit the catalog bills.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { download, ok, refused, useGenerationService, type Row } from "./support/generation-tests.js";
import type { Client } from "./support/service.js";

const t = useGenerationService("characters");

async function character(client: Client, body: Record<string, unknown>): Promise<string> {
  const created = await client.post("/api/v1/characters", { character_name: "Mira", character_description: "keeper in a yellow raincoat", ...body });
  expect(created.status, created.text).toBe(201);
  return created.body.character_id as string;
}

const edits = () => t.standIn().calls("openai.images.edits");

describe("characters.generate_image", () => {
  it("sends the character's references and description with the prompt, and stores the image it gets", async () => {
    const { client, workspaceId } = await t.funded(20);
    const characterId = await character(client, { reference_image_url: t.images.a, media: { reference_images: [{ url: t.images.b }] } });
    const before = edits().length;
    const created = ok(await client.post("/api/v1/actions/characters.generate_image", { character_id: characterId, prompt: "Waving from the balcony", settings: { size: "512x512" } }));
    expect(created).toMatchObject({ object: "generation", status: "pending", agent_type: "image", credits_consumed: 4, credits: { cost: 4, charged: 4, held: true } });
    expect(created.prompt).toContain("Mira");
    expect(created.prompt).toContain("keeper in a yellow raincoat");
    expect(created.prompt).toContain("Waving from the balcony");

    const done = await t.finished(created.generation_id);
    expect(done).toMatchObject({ status: "completed", credits_consumed: 4, thumbnail_url: done.output_urls[0] });
    expect(done.generation_metadata).toMatchObject({ character_id: characterId, references: [t.images.a, t.images.b] });
    const call = edits().slice(before);
    expect(call).toHaveLength(1);
    expect(call[0]!.summary).toMatchObject({ images: 2, image_types: ["image/png", "image/png"], size: "512x512" });
    expect(call[0]!.summary.prompt).toContain("Mira");
    expect(call[0]!.summary.prompt).toContain("keeper in a yellow raincoat");
    const file = await download(done.output_urls[0]!);
    expect(await sharp(file.bytes).metadata()).toMatchObject({ format: "png", width: 512, height: 512 });
    expect((await t.eventsOf(workspaceId, "generation.")).map((event) => event.type)).toEqual(["generation.completed"]);
    expect(await t.balanceOf(workspaceId)).toBe(16);
  });

  it("puts the call's own reference first; a character with only a description is drawn from the prompt", async () => {
    const { client } = await t.funded(20);
    const withRef = await character(client, { reference_image_url: t.images.a });
    const before = edits().length;
    const created = ok(await client.post("/api/v1/actions/characters.generate_image", { character_id: withRef, reference_image_url: t.images.b, variation_strength: 0.9 }));
    await t.finished(created.generation_id);
    expect(edits().slice(before)[0]!.summary).toMatchObject({ images: 2 });
    expect(created.generation_metadata).toMatchObject({ references: [t.images.b, t.images.a] });
    expect(created.prompt).toContain("Strong variation");

    const plain = await character(client, {});
    const generations = t.standIn().calls("openai.images.generations").length;
    const drawn = ok(await client.post("/api/v1/actions/characters.generate_image", { character_id: plain, prompt: "Reading a map" }));
    expect(await t.finished(drawn.generation_id)).toMatchObject({ status: "completed" });
    const call = t.standIn().calls("openai.images.generations").slice(generations);
    expect(call).toHaveLength(1);
    expect(call[0]!.summary.prompt).toContain("keeper in a yellow raincoat");
  });

  it("a failed image is generation.failed with nothing spent, the 4 credits refunded", async () => {
    const { client, workspaceId } = await t.funded(20);
    const characterId = await character(client, { reference_image_url: t.images.a });
    t.standIn().failNext("openai.images.edits", { status: 500 });
    const created = ok(await client.post("/api/v1/actions/characters.generate_image", { character_id: characterId }));
    expect(await t.finished(created.generation_id)).toMatchObject({ status: "failed", credits_consumed: 0, output_urls: [] });
    const events = await t.eventsOf(workspaceId, "generation.");
    expect(events.map((event) => event.type)).toEqual(["generation.failed"]);
    expect(events[0]!.data).toMatchObject({ credits_consumed: 0, credits_refunded: 4, error_code: "upstream_error" });
    expect(await t.balanceOf(workspaceId)).toBe(20);
  });

  it("refuses a character with nothing to keep consistent, another workspace's character, a bad setting", async () => {
    const { client, workspaceId } = await t.funded(20);
    const intruder = await t.funded(20);
    const bare = await client.post("/api/v1/characters", { character_name: "Nobody" });
    expect(refused(await client.post("/api/v1/actions/characters.generate_image", { character_id: bare.body.character_id }), 422, "validation_failed").param).toBe("character_id");
    const characterId = await character(client, {});
    refused(await intruder.client.post("/api/v1/actions/characters.generate_image", { character_id: characterId }), 403, "workspace_mismatch");
    expect(refused(await client.post("/api/v1/actions/characters.generate_image", { character_id: characterId, settings: { size: "7x7" } }), 422, "validation_failed").param).toBe("settings.size");
    expect(await t.balanceOf(workspaceId)).toBe(20);
    expect(await t.prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });
});

describe("characters.smart_variants", () => {
  it("draws each variant with the source image and the character's references, a different direction each, 4 credits each", async () => {
    const { client, workspaceId } = await t.funded(20);
    const characterId = await character(client, { reference_image_url: t.images.a });
    const before = edits().length;
    const answer = ok(await client.post("/api/v1/actions/characters.smart_variants", { character_id: characterId, image_url: t.images.b, num_variants: 3, variation_strength: 0.2 }));
    expect(answer).toMatchObject({ object: "character_variants", analyze_only: false, references: [t.images.b, t.images.a], variation_strength: 0.2, credits: { cost: 12, charged: 12, held: true } });
    expect(answer.prompts).toHaveLength(3);
    expect(new Set(answer.prompts).size).toBe(3);
    for (const prompt of answer.prompts) expect(prompt).toMatch(/Mira[\s\S]*keeper in a yellow raincoat[\s\S]*Subtle variation/);

    const done = await t.finished(answer.generation.generation_id);
    expect(done).toMatchObject({ status: "completed", credits_consumed: 12 });
    expect(done.output_urls).toHaveLength(3);
    const calls = edits().slice(before);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.summary).toMatchObject({ images: 2 });
      expect(call.summary.prompt).toContain("keeper in a yellow raincoat");
    }
    for (const url of done.output_urls) expect((await sharp((await download(url)).bytes).metadata()).format).toBe("png");
    expect(await t.balanceOf(workspaceId)).toBe(8);
  });

  it("analyze_only answers the plan and changes nothing: no record, no operation, no file, no model call, one unit billed", async () => {
    const { client, workspaceId } = await t.funded(20);
    const characterId = await character(client, { reference_image_url: t.images.a });
    const calls = t.standIn().calls().length;
    const answer = ok(await client.post("/api/v1/actions/characters.smart_variants", { character_id: characterId, num_variants: 5, analyze_only: true }));
    expect(answer).toMatchObject({ object: "character_variants", analyze_only: true, references: [t.images.a], generation: null, credits: { cost: 4, charged: 4, held: false } });
    expect(answer.prompts).toHaveLength(5);
    expect(await t.prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
    expect(await t.prisma().operation.count({ where: { workspace_id: workspaceId } })).toBe(0);
    expect(t.standIn().calls().length).toBe(calls);
    expect(await t.balanceOf(workspaceId)).toBe(16);
    expect((await t.ledger(workspaceId)).map((row) => [row.action_type, row.amount])).toEqual([["grant", 20], ["characters.smart_variants", -4]]);
  });

  it("a failure after the first variant keeps it and generation.failed reports the 4 credits spent", async () => {
    const { client, workspaceId } = await t.funded(20);
    const characterId = await character(client, { reference_image_url: t.images.a });
    t.standIn().failNext("openai.images.edits", { status: 500, after: 1 });
    const answer = ok(await client.post("/api/v1/actions/characters.smart_variants", { character_id: characterId, num_variants: 3 }));
    const done = await t.finished(answer.generation.generation_id);
    expect(done).toMatchObject({ status: "failed", credits_consumed: 4 });
    expect(done.output_urls).toHaveLength(1);
    const events = (await t.eventsOf(workspaceId, "generation.")).map((event) => [event.type, event.data as Row]);
    expect(events).toEqual([["generation.failed", expect.objectContaining({ credits_consumed: 4, credits_refunded: 8 })]]);
    expect(await t.balanceOf(workspaceId)).toBe(16);
  });

  it("is live on GraphQL with a typed result", async () => {
    const { client } = await t.funded(20);
    const characterId = await character(client, {});
    const answer = await client.graphql(
      `mutation ($input: CharactersSmartVariantsInput!) { characters_smart_variants(input: $input) { object analyze_only prompts generation { generation_id } credits { cost charged } } }`,
      { input: { character_id: characterId, num_variants: 2, analyze_only: true } },
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.characters_smart_variants).toMatchObject({ object: "character_variants", analyze_only: true, generation: null, credits: { cost: 4, charged: 4 } });
  });
});
