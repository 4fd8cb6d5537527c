// The script document (docs/scripts.md): scripts.create / open / insert_paragraph /
// set_paragraph_text on the relational model; every write call locks the script, takes a restore
// point first and logs its edits; 20 concurrent edits lose nothing; the scripts resource reads it.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type Client } from "../support/service.js";
import { ok } from "../support/action-calls.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;  

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const open = (client: Client, scriptId: string, query = "") => client.get(`/api/v1/actions/scripts.open?script_id=${scriptId}${query}`);

describe("scripts.create and scripts.open", () => {
  it("creates an empty script with its base speaker, and opens it", async () => {
    const { client } = await createFixture(service);
    const created = ok(await call(client, "create", { title: "Why cats purr", language: "en", target_duration_ms: 60_000, speaker: "Ada" }));
    expect(created).toMatchObject({ object: "script", title: "Why cats purr", language: "en", word_count: 0, paragraph_count: 0, revision: 0 });
    expect(created.script_id).toMatch(/^scr_/);
    expect(created.speakers).toEqual([expect.objectContaining({ name: "Ada", is_base: true, position: 0, voice_ref: null })]);
    expect(created).not.toHaveProperty("share_token");

    const document = ok(await open(client, created.script_id));
    expect(document).toMatchObject({ object: "script_document", script: { script_id: created.script_id }, paragraphs: [], chapters: [], sources: [], research: [] });
    expect(document.speakers).toHaveLength(1);
    expect(document.runtime).toEqual({ estimated_ms: 0, target_ms: 60_000, difference_ms: -60_000, rate: { unit: "words", per_minute: 150 } });
  });

  it("names the base speaker Narrator by default", async () => {
    const { client } = await createFixture(service);
    expect(ok(await call(client, "create", {})).speakers[0]).toMatchObject({ name: "Narrator", is_base: true });
  });
});

describe("paragraphs", () => {
  it("inserts at the end or after a paragraph, keeping positions dense, and estimates the runtime from the words", async () => {
    const { client } = await createFixture(service);
    const { script_id: scriptId } = ok(await call(client, "create", { language: "en" }));
    const first = ok(await call(client, "insert_paragraph", { script_id: scriptId, text: "One two three.", role: "hook", request: { trace: "a" } }));
    expect(first).toMatchObject({ object: "script_paragraph", paragraph: { position: 0, role: "hook", word_count: 3, speaker_id: null, locked: false }, request: { trace: "a" } });
    const last = ok(await call(client, "insert_paragraph", { script_id: scriptId, text: "Seven eight." }));
    const middle = ok(await call(client, "insert_paragraph", { script_id: scriptId, text: "Four five six.", after_paragraph_id: first.paragraph.paragraph_id }));
    expect(middle.paragraph.position).toBe(1);

    const document = ok(await open(client, scriptId, "&digest=true"));
    expect(document.paragraphs.map((paragraph: Row) => [paragraph.position, paragraph.text])).toEqual([[0, "One two three."], [1, "Four five six."], [2, "Seven eight."]]);
    expect(document.paragraphs[2].paragraph_id).toBe(last.paragraph.paragraph_id);
    expect(document.script).toMatchObject({ word_count: 8, paragraph_count: 3, revision: 3 });
    // 8 words at 150 a minute.
    expect(document.runtime.estimated_ms).toBe(3200);
    expect(document.paragraphs[0].digest).toBe("One two three.");
    const withoutText = ok(await open(client, scriptId, "&include_text=false"));
    expect(withoutText.paragraphs[0]).toMatchObject({ text: null, word_count: 3 });
  });

  it("sets a paragraph's words, keeping its id and role; the old words are in the edit log and a restore point precedes the write", async () => {
    const { client } = await createFixture(service);
    const { script_id: scriptId } = ok(await call(client, "create", {}));
    const { paragraph } = ok(await call(client, "insert_paragraph", { script_id: scriptId, text: "Draft words.", role: "intro" }));
    const edited = ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: paragraph.paragraph_id, text: "Final words, now longer." }));
    expect(edited.paragraph).toMatchObject({ paragraph_id: paragraph.paragraph_id, role: "intro", text: "Final words, now longer.", word_count: 4 });
    const edit = await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: edited.edit_id } });
    expect(edit).toMatchObject({ paragraph_id: paragraph.paragraph_id, kind: "paragraph.text", action: "scripts.set_paragraph_text", before: { text: "Draft words." }, after: { text: "Final words, now longer." } });
    // Each write call took a restore point of the document as it was before it.
    const points = await prisma().scriptSnapshot.findMany({ where: { script_id: scriptId }, orderBy: { created_at: "asc" } });
    expect(points.map((point) => [point.reason, point.action])).toEqual([["auto", "scripts.insert_paragraph"], ["auto", "scripts.set_paragraph_text"]]);
    expect((points[1]!.document as Row).paragraphs.map((row: Row) => row.text)).toEqual(["Draft words."]);
    // The same words again change nothing and log nothing: no restore point, the revision stays.
    const same = ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: paragraph.paragraph_id, text: "Final words, now longer." }));
    expect(same).toMatchObject({ edit_id: null, revision: edited.revision });
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId } })).toBe(2);
  });

  it("refuses a paragraph of another script with 404, and another workspace's script with 403", async () => {
    const owner = await createFixture(service);
    const { script_id: scriptId } = ok(await call(owner.client, "create", {}));
    const { script_id: otherScript } = ok(await call(owner.client, "create", {}));
    const { paragraph } = ok(await call(owner.client, "insert_paragraph", { script_id: otherScript, text: "Elsewhere." }));
    const missing = await call(owner.client, "set_paragraph_text", { script_id: scriptId, paragraph_id: paragraph.paragraph_id, text: "x" });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "not_found", param: "paragraph_id" });
    const intruder = await createFixture(service);
    expect((await call(intruder.client, "insert_paragraph", { script_id: scriptId, text: "x" })).body.error.code).toBe("workspace_mismatch");
  });
});

describe("concurrency", () => {
  it("20 parallel inserts lose nothing: 20 paragraphs at positions 0..19, every word counted", async () => {
    const { client } = await createFixture(service);
    const { script_id: scriptId } = ok(await call(client, "create", {}));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => call(client, "insert_paragraph", { script_id: scriptId, text: `Paragraph ${index} has five words.` })));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const rows = await prisma().scriptParagraph.findMany({ where: { script_id: scriptId }, orderBy: { position: "asc" } });
    expect(rows.map((row) => row.position)).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(new Set(rows.map((row) => row.text)).size).toBe(20);
    const script = await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } });
    expect(script).toMatchObject({ paragraph_count: 20, word_count: 20 * 5, revision: 20 });
  });

  it("20 parallel edits of one paragraph are applied one after another: the log holds every step", async () => {
    const { client } = await createFixture(service);
    const { script_id: scriptId } = ok(await call(client, "create", {}));
    const { paragraph } = ok(await call(client, "insert_paragraph", { script_id: scriptId, text: "start" }));
    await Promise.all(Array.from({ length: 20 }, (_, index) => call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: paragraph.paragraph_id, text: `version ${index}` })));
    const edits = await prisma().scriptEdit.findMany({ where: { script_id: scriptId, kind: "paragraph.text" }, orderBy: { created_at: "asc" } });
    expect(edits).toHaveLength(20);
    // Serialized: each edit's before is the previous edit's after.
    for (let index = 1; index < edits.length; index++) expect((edits[index]!.before as Row).text).toBe((edits[index - 1]!.after as Row).text);
    expect((edits[0]!.before as Row).text).toBe("start");
  });
});

describe("the scripts resource", () => {
  it("lists real scripts and shows their paragraphs and chapters as heavy fields", async () => {
    const { client } = await createFixture(service);
    const { script_id: scriptId } = ok(await call(client, "create", { title: "Listed" }));
    await call(client, "insert_paragraph", { script_id: scriptId, text: "Only words." });
    const list = ok(await client.get("/api/v1/scripts"));
    expect(list.data).toEqual([expect.objectContaining({ script_id: scriptId, title: "Listed", word_count: 2, paragraph_count: 1 })]);
    expect(list.data[0]).not.toHaveProperty("paragraphs");
    const expanded = ok(await client.get("/api/v1/scripts?expand=paragraphs,chapters"));
    expect(expanded.data[0].paragraphs).toEqual([expect.objectContaining({ text: "Only words.", position: 0 })]);
    expect(expanded.data[0].chapters).toEqual([]);
    const one = ok(await client.get(`/api/v1/scripts/${scriptId}`));
    expect(one.paragraphs).toHaveLength(1);
    expect(one.snapshots).toHaveLength(1);
    const graphql = await client.graphql(`{ script(script_id: "${scriptId}") { title paragraphs } }`);
    expect(graphql.body.data.script.paragraphs[0]).toMatchObject({ text: "Only words." });
  });
});
