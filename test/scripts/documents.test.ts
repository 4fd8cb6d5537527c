// The script as a whole (docs/scripts.md, "Documents"): scripts.list, duplicate, delete, models,
// voices, settings and set_meta, end to end on REST (and GraphQL where it differs). Models and
// voices come from the provider stand-in's deployment (OpenAI, ElevenLabs, fal set up; local tools
// always). The shared security suite covers scopes, other workspaces, test keys and unknown fields.
import { describe, expect, it } from "vitest";
import { newId } from "../../src/ids.js";
import { createFixture, useService, useStandIn, type Client } from "../support/service.js";
import { ok, refused } from "../support/action-calls.js";

const overrides = {};
useStandIn(overrides);
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;  

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const get = (client: Client, name: string, query: Record<string, unknown> = {}) =>
  client.get(`/api/v1/actions/scripts.${name}?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, typeof value === "object" ? JSON.stringify(value) : String(value as string | number | boolean)]))}`);

async function scriptWith(client: Client, meta: Record<string, unknown>, texts: string[] = []): Promise<string> {
  const { script_id: scriptId } = ok(await call(client, "create", meta));
  for (const text of texts) ok(await call(client, "insert_paragraph", { script_id: scriptId, text }));
  return scriptId;
}

describe("scripts.list", () => {
  it("lists the workspace's scripts newest edit first, with length, estimated runtime and voiced share", async () => {
    const { client } = await createFixture(service);
    const first = await scriptWith(client, { title: "First", language: "en" }, ["One two three four five.", "Six seven eight nine ten."]);
    const second = await scriptWith(client, { title: "Second", language: "ja" }, ["こんにちは世界"]);
    const third = await scriptWith(client, { title: "Third" });
    // Editing the oldest makes it the newest edit.
    ok(await call(client, "insert_paragraph", { script_id: first, text: "Eleven twelve thirteen fourteen fifteen." }));
    const other = await createFixture(service);
    await scriptWith(other.client, { title: "Elsewhere" });

    const list = ok(await get(client, "list"));
    expect(list).toMatchObject({ object: "list", has_more: false, next_cursor: null, limit: 25 });
    expect(list.data.map((row: Row) => row.script_id)).toEqual([first, third, second]);
    // 15 words at 150 a minute; 7 characters of Japanese at 350 a minute.
    expect(list.data[0]).toMatchObject({ object: "script", title: "First", word_count: 15, paragraph_count: 3, estimated_ms: 6000, voiced_share: 0 });
    expect(list.data[2]).toMatchObject({ title: "Second", estimated_ms: 1200 });
    expect(list.data[1]).toMatchObject({ word_count: 0, estimated_ms: 0 });
    expect(list.data[0]).not.toHaveProperty("paragraphs");
  });

  it("searches titles and topics, ignoring case", async () => {
    const { client } = await createFixture(service);
    const byTitle = await scriptWith(client, { title: "Coffee roasting at home" });
    const byTopic = await scriptWith(client, { title: "Beans", topic: "The chemistry of COFFEE" });
    await scriptWith(client, { title: "Tea" });
    const found = ok(await get(client, "list", { search: "coffee" }));
    expect(found.data.map((row: Row) => row.script_id).sort()).toEqual([byTitle, byTopic].sort());
    expect(ok(await get(client, "list", { search: "100%" })).data).toEqual([]);
  });

  it("pages by cursor or skips from the top, not both", async () => {
    const { client } = await createFixture(service);
    const ids: string[] = [];
    for (const title of ["a", "b", "c", "d", "e"]) ids.unshift(await scriptWith(client, { title }));
    const firstPage = ok(await get(client, "list", { limit: 2 }));
    expect(firstPage.data.map((row: Row) => row.script_id)).toEqual(ids.slice(0, 2));
    expect(firstPage.has_more).toBe(true);
    const seen = [...firstPage.data.map((row: Row) => row.script_id)];
    let cursor = firstPage.next_cursor;
    while (cursor) {
      const next = ok(await get(client, "list", { limit: 2, cursor }));
      seen.push(...next.data.map((row: Row) => row.script_id));
      cursor = next.next_cursor;
    }
    expect(seen).toEqual(ids);
    expect(ok(await get(client, "list", { skip: 3 })).data.map((row: Row) => row.script_id)).toEqual(ids.slice(3));
    expect(ok(await get(client, "list", { skip: 1, limit: 2 })).data.map((row: Row) => row.script_id)).toEqual(ids.slice(1, 3));
    refused(await get(client, "list", { skip: 1, cursor: firstPage.next_cursor }), 400, "invalid_request");
    refused(await get(client, "list", { limit: 101 }), 422, "validation_failed");
  });
});

describe("scripts.duplicate", () => {
  it("copies words, structure and cast with new ids; not the history, the notes or the review link", async () => {
    const { client, workspaceId } = await createFixture(service);
    const scriptId = await scriptWith(client, { title: "Original", topic: "Owls", language: "en", structure: "listicle", target_duration_ms: 60_000, speaker: "Host" });
    const chapterId = newId("script_chapter");
    await prisma().scriptChapter.create({ data: { chapter_id: chapterId, script_id: scriptId, position: 0, title: "Night", summary: "Owls at night" } });
    const guest = ok(await call(client, "add_speaker", { script_id: scriptId, name: "Guest", persona: "Ornithologist" })).speaker;
    const hook = ok(await call(client, "insert_paragraph", { script_id: scriptId, text: "Owls see in the dark.", role: "hook", chapter_id: chapterId })).paragraph;
    const body = ok(await call(client, "insert_paragraph", { script_id: scriptId, text: "Their eyes are tubes." })).paragraph;
    ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: [body.paragraph_id], speaker_id: guest.speaker_id }));
    ok(await call(client, "annotate_paragraph", { script_id: scriptId, paragraph_id: hook.paragraph_id, note: "Keep it short." }));
    ok(await call(client, "set_paragraph_visual", { script_id: scriptId, paragraph_id: hook.paragraph_id, direction: "Owl close-up" }));
    ok(await call(client, "lock_paragraphs", { script_id: scriptId, paragraph_ids: [hook.paragraph_id], locked: true }));
    await prisma().scriptSource.create({ data: { source_id: newId("script_source"), script_id: scriptId, url: "https://example.com/owls", title: "Owls" } });
    await prisma().scriptNote.create({ data: { note_id: newId("script_note"), script_id: scriptId, body: "Nice hook" } });
    await prisma().script.update({ where: { script_id: scriptId }, data: { share_enabled: true, share_token: `tok_${scriptId}` } });

    const copy = ok(await call(client, "duplicate", { script_id: scriptId }));
    expect(copy).toMatchObject({ object: "script", title: "Original (copy)", topic: "Owls", structure: "listicle", target_duration_ms: 60_000, word_count: 9, paragraph_count: 2, revision: 0, duplicated_from: scriptId });
    expect(copy.script_id).not.toBe(scriptId);
    expect(copy.speakers.map((speaker: Row) => [speaker.name, speaker.is_base, speaker.persona])).toEqual([["Host", true, null], ["Guest", false, "Ornithologist"]]);
    expect(copy.chapters).toEqual([expect.objectContaining({ title: "Night", summary: "Owls at night", position: 0 })]);

    const document = ok(await get(client, "open", { script_id: copy.script_id }));
    const copiedGuest = copy.speakers[1].speaker_id;
    expect(copiedGuest).not.toBe(guest.speaker_id);
    expect(document.paragraphs.map((row: Row) => [row.text, row.role, row.speaker_id, row.chapter_id, row.locked, row.note, row.visual?.direction ?? null])).toEqual([
      ["Owls see in the dark.", "hook", null, copy.chapters[0].chapter_id, true, "Keep it short.", "Owl close-up"],
      ["Their eyes are tubes.", "body", copiedGuest, null, false, null, null],
    ]);
    expect(document.paragraphs.map((row: Row) => row.paragraph_id)).not.toContain(hook.paragraph_id);
    expect(document.sources).toEqual([expect.objectContaining({ url: "https://example.com/owls", title: "Owls" })]);
    // A fresh history, no review: the copy's own.
    expect(await prisma().scriptSnapshot.count({ where: { script_id: copy.script_id } })).toBe(0);
    expect(await prisma().scriptEdit.count({ where: { script_id: copy.script_id } })).toBe(0);
    expect(await prisma().scriptNote.count({ where: { script_id: copy.script_id } })).toBe(0);
    expect(await prisma().script.findUniqueOrThrow({ where: { script_id: copy.script_id } })).toMatchObject({ share_enabled: false, share_token: null, workspace_id: workspaceId });
    // The original is as it was.
    expect(ok(await get(client, "open", { script_id: scriptId })).paragraphs.map((row: Row) => row.paragraph_id)).toEqual([hook.paragraph_id, body.paragraph_id]);
    expect(ok(await call(client, "duplicate", { script_id: scriptId, title: "Owls, again" })).title).toBe("Owls, again");
  });

  it("refuses another workspace's script", async () => {
    const owner = await createFixture(service);
    const scriptId = await scriptWith(owner.client, { title: "Mine" });
    const intruder = await createFixture(service);
    refused(await call(intruder.client, "duplicate", { script_id: scriptId }), 403, "workspace_mismatch");
    refused(await call(owner.client, "duplicate", { script_id: "scr_missing" }), 404, "not_found");
  });
});

describe("scripts.delete", () => {
  it("deletes the script with its paragraphs, restore points, log, notes and sources, for good", async () => {
    const { client } = await createFixture(service);
    const scriptId = await scriptWith(client, { title: "Doomed" }, ["One.", "Two."]);
    await prisma().scriptNote.create({ data: { note_id: newId("script_note"), script_id: scriptId, body: "A note" } });
    const deleted = ok(await call(client, "delete", { script_id: scriptId }));
    expect(deleted).toMatchObject({ object: "script", script_id: scriptId, deleted: true, removed: { paragraphs: 2, speakers: 1, restore_points: 2, edits: 2, review_notes: 1, sources: 0, chapters: 0 } });
    refused(await get(client, "open", { script_id: scriptId }), 404, "not_found");
    for (const model of ["scriptParagraph", "scriptSnapshot", "scriptEdit", "scriptNote", "scriptSpeaker"] as const) {
      expect(await (prisma()[model] as unknown as { count(args: unknown): Promise<number> }).count({ where: { script_id: scriptId } }), model).toBe(0);
    }
    refused(await call(client, "delete", { script_id: scriptId }), 404, "not_found");
  });

  it("with a test key, deletes nothing", async () => {
    const fixture = await createFixture(service);
    const scriptId = await scriptWith(fixture.client, { title: "Safe" }, ["Still here."]);
    const test = await fixture.newKey({ mode: "test" });
    expect(ok(await call(test.client, "delete", { script_id: scriptId }))).toMatchObject({ deleted: true, livemode: false });
    expect(ok(await get(fixture.client, "open", { script_id: scriptId })).paragraphs).toHaveLength(1);
  });
});

describe("scripts.models", () => {
  it("lists the priced text models with the defaults of model_ref and quick_model_ref", async () => {
    const { client } = await createFixture(service);
    const models = ok(await get(client, "models"));
    expect(models.defaults).toEqual({ model_ref: "openai/gpt-4.1-mini", quick_model_ref: "openai/gpt-4o-mini" });
    expect(models.models.map((model: Row) => model.model_ref)).toEqual(["openai/gpt-4.1-mini", "openai/gpt-4.1", "openai/gpt-4o-mini"]);
    expect(models.models[0]).toMatchObject({ provider: "openai", model: "gpt-4.1-mini", configured: true, price: { credits: 0.2, per: "1k_tokens" }, default_for: ["model_ref"] });
    expect(models.models[2]).toMatchObject({ configured: false, default_for: ["quick_model_ref"] });
    expect(models.models[1].default_for).toEqual([]);
    // GraphQL answers the same typed result.
    const graphql = await client.graphql("{ scripts_models { defaults { model_ref quick_model_ref } models { model_ref price { credits per } } } }");
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.scripts_models.defaults.quick_model_ref).toBe("openai/gpt-4o-mini");
  });
});

describe("scripts.voices", () => {
  async function seedVoice(workspaceId: string | null, fields: { name: string; provider?: string; language?: string; active?: boolean; description?: string }) {
    const voiceRef = newId("voice");
    await prisma().voice.create({
      data: {
        voice_ref: voiceRef,
        workspace_id: workspaceId,
        display_name: fields.name,
        description: fields.description ?? null,
        provider: fields.provider ?? "elevenlabs",
        provider_voice_id: `pv_${fields.name}`,
        scope: workspaceId ? "workspace" : "global",
        is_active: fields.active ?? true,
        labels: fields.language ? { language: fields.language, gender: "female" } : undefined,
      },
    });
    return voiceRef;
  }

  it("lists the library the workspace can see, then the usable providers' built-in voices", async () => {
    const { client, workspaceId } = await createFixture(service);
    const other = await createFixture(service);
    const tag = newId("voice").slice(-6);
    const ours = await seedVoice(workspaceId, { name: `Ours ${tag}`, language: "fr-FR", description: "Parisian narrator" });
    const theirs = await seedVoice(other.workspaceId, { name: `Theirs ${tag}` });
    const retired = await seedVoice(workspaceId, { name: `Retired ${tag}`, active: false });

    const everything: Row[] = [];
    let cursor: string | null = null;
    do {
      const page: Row = ok(await get(client, "voices", { limit: 20, ...(cursor && { cursor }) }));
      everything.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    const refs = everything.map((voice) => voice.voice_ref);
    expect(new Set(refs).size).toBe(refs.length);
    expect(refs).toContain(ours);
    expect(refs).not.toContain(theirs);
    expect(refs).not.toContain(retired);
    expect(refs).toEqual(expect.arrayContaining(["openai/alloy", "local/en-us", "local/fr"]));
    expect(everything.find((voice) => voice.voice_ref === ours)).toMatchObject({ name: `Ours ${tag}`, provider: "elevenlabs", provider_voice_id: `pv_Ours ${tag}`, language: "fr-FR", gender: "female", scope: "workspace" });
    expect(everything.find((voice) => voice.voice_ref === "local/en-us")).toMatchObject({ provider: "local", provider_voice_id: "en-us", scope: "provider", language: "en-US" });
    // The library comes first, then the built-in voices.
    expect(refs.indexOf(ours)).toBeLessThan(refs.indexOf("openai/alloy"));
  });

  it("filters by language (multilingual voices included), provider and search", async () => {
    const { client, workspaceId } = await createFixture(service);
    const tag = newId("voice").slice(-6);
    const french = await seedVoice(workspaceId, { name: `Amélie ${tag}`, language: "fr-FR" });
    const english = await seedVoice(workspaceId, { name: `Jane ${tag}`, language: "en-GB" });
    const refsOf = async (query: Record<string, unknown>) => ok(await get(client, "voices", { limit: 100, ...query })).data.map((voice: Row) => voice.voice_ref);

    const inFrench = await refsOf({ language: "fr" });
    expect(inFrench).toEqual(expect.arrayContaining([french, "local/fr", "openai/alloy"]));
    expect(inFrench).not.toContain(english);
    expect(inFrench).not.toContain("local/en-us");
    expect(await refsOf({ provider: "local" })).toEqual(["local/pt", "local/nl", "local/it", "local/fr", "local/es", "local/en-us", "local/en-gb", "local/de"]);
    expect((await refsOf({ search: tag.toLowerCase() })).sort()).toEqual([english, french].sort());
    expect(await refsOf({ search: "onyx" })).toEqual(["openai/onyx"]);
  });
});

describe("scripts.settings", () => {
  it("stores models and the default voice after checking they exist here, and logs the change", async () => {
    const { client, workspaceId } = await createFixture(service);
    const scriptId = await scriptWith(client, { title: "Settings" });
    const voiceRef = newId("voice");
    await prisma().voice.create({ data: { voice_ref: voiceRef, workspace_id: workspaceId, display_name: `Studio ${voiceRef.slice(-5)}`, provider: "elevenlabs", scope: "workspace" } });

    const set = ok(await call(client, "settings", { script_id: scriptId, model_ref: "openai/gpt-4.1", default_voice_ref: voiceRef, structure: "story", request: { n: 1 } }));
    expect(set).toMatchObject({
      object: "script_settings",
      settings: { model_ref: "openai/gpt-4.1", quick_model_ref: null, default_voice_ref: voiceRef, default_voice_name: `Studio ${voiceRef.slice(-5)}`, structure: "story" },
      effective: { model_ref: "openai/gpt-4.1", quick_model_ref: "openai/gpt-4o-mini" },
      changed: ["model_ref", "default_voice_ref", "default_voice_name", "structure"],
      revision: 1,
      request: { n: 1 },
    });
    const edit = await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: set.edit_id } });
    expect(edit).toMatchObject({ kind: "meta", action: "scripts.settings", before: { model_ref: null, structure: null }, after: { model_ref: "openai/gpt-4.1", structure: "story" } });

    // A voice by its name (built in here), stored with its ref.
    const byName = ok(await call(client, "settings", { script_id: scriptId, default_voice_name: "Nova", quick_model_ref: "openai/gpt-4.1-mini" }));
    expect(byName.settings).toMatchObject({ default_voice_ref: "openai/nova", default_voice_name: "Nova", quick_model_ref: "openai/gpt-4.1-mini" });

    // The same settings again change nothing: no entry, no restore point, the same revision.
    const points = await prisma().scriptSnapshot.count({ where: { script_id: scriptId } });
    const again = ok(await call(client, "settings", { script_id: scriptId, structure: "story" }));
    expect(again).toMatchObject({ changed: [], edit_id: null, revision: byName.revision });
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId } })).toBe(points);
  });

  it("refuses models and voices that do not exist here with 422", async () => {
    const owner = await createFixture(service);
    const scriptId = await scriptWith(owner.client, { title: "Settings" });
    const created = await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } });
    const model = refused(await call(owner.client, "settings", { script_id: scriptId, model_ref: "acme/gpt-9" }), 422, "validation_failed");
    expect(model.details.issues[0]).toMatchObject({ path: "model_ref", type: "any.only", allowed: expect.arrayContaining(["openai/gpt-4.1-mini"]) });
    // An image model is not a text model.
    expect(refused(await call(owner.client, "settings", { script_id: scriptId, quick_model_ref: "openai/gpt-image-1" }), 422, "validation_failed").param).toBe("quick_model_ref");
    expect(refused(await call(owner.client, "settings", { script_id: scriptId, default_voice_ref: "openai/not-a-voice" }), 422, "validation_failed").param).toBe("default_voice_ref");
    const other = await createFixture(service);
    const foreign = newId("voice");
    await prisma().voice.create({ data: { voice_ref: foreign, workspace_id: other.workspaceId, display_name: "Private", provider: "elevenlabs", scope: "workspace" } });
    expect(refused(await call(owner.client, "settings", { script_id: scriptId, default_voice_ref: foreign }), 422, "validation_failed").param).toBe("default_voice_ref");
    expect(refused(await call(owner.client, "settings", { script_id: scriptId, default_voice_ref: "openai/alloy", default_voice_name: "Nova" }), 422, "validation_failed").param).toBe("default_voice_name");
    expect(refused(await call(owner.client, "settings", { script_id: scriptId, default_voice_name: "Nobody at all" }), 422, "validation_failed").param).toBe("default_voice_name");
    // Nothing was stored: the default voice is still the one the script was created with.
    expect(await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } })).toMatchObject({ model_ref: null, quick_model_ref: null, default_voice_ref: created.default_voice_ref, revision: 0 });
  });
});

describe("scripts.set_meta", () => {
  it("changes only the fields sent; an empty title clears it; the change is logged", async () => {
    const { client } = await createFixture(service);
    const scriptId = await scriptWith(client, { title: "Old title", topic: "Bees", tone: "calm", language: "en" });
    const changed = ok(await call(client, "set_meta", { script_id: scriptId, title: "New title", target_duration_ms: 120_000, language: "en" }));
    expect(changed).toMatchObject({ object: "script_meta", changed: ["title", "target_duration_ms"], script: { title: "New title", topic: "Bees", tone: "calm", language: "en", target_duration_ms: 120_000 }, revision: 1 });
    const edit = await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: changed.edit_id } });
    expect(edit).toMatchObject({ kind: "meta", before: { title: "Old title", target_duration_ms: null }, after: { title: "New title", target_duration_ms: 120_000 } });

    const cleared = ok(await call(client, "set_meta", { script_id: scriptId, title: "", audience: "Gardeners" }));
    expect(cleared.script).toMatchObject({ title: null, audience: "Gardeners", topic: "Bees" });
    const same = ok(await call(client, "set_meta", { script_id: scriptId, topic: "Bees" }));
    expect(same).toMatchObject({ changed: [], edit_id: null, revision: cleared.revision });
    expect(refused(await call(client, "set_meta", { script_id: scriptId, target_duration_ms: 10 }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "target_duration_ms", type: "number.min" });
  });
});
