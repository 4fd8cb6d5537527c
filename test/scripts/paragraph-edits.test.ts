// Paragraph edits (docs/scripts.md, "Paragraphs"): replace_everywhere (literal, case, whole words,
// locked paragraphs skipped and counted), delete_paragraphs, move_paragraph (to_index in the
// document without the paragraph), set_paragraph_role, lock_paragraphs, annotate_paragraph,
// set_paragraph_visual: what changes, what stays, what is logged, what is refused.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type Client } from "../support/service.js";
import { ok, refused } from "../support/action-calls.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;  

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const open = async (client: Client, scriptId: string) => ok(await client.get(`/api/v1/actions/scripts.open?script_id=${scriptId}`));

async function scriptWith(client: Client, paragraphs: string[]) {
  const { script_id: scriptId } = ok(await call(client, "create", {}));
  const ids: string[] = [];
  for (const text of paragraphs) ids.push(ok(await call(client, "insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
  return { scriptId, ids };
}

describe("scripts.replace_everywhere", () => {
  it("swaps the literal string in every unlocked paragraph, changing nothing else, and counts the locked ones it left", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["The colour of Colour TV.", "No match here.", "Colourful colour (a colour.*)", "Locked colour."]);
    ok(await call(client, "set_paragraph_role", { script_id: scriptId, paragraph_ids: [ids[0]], role: "hook" }));
    ok(await call(client, "annotate_paragraph", { script_id: scriptId, paragraph_id: ids[0], note: "Punchy" }));
    ok(await call(client, "lock_paragraphs", { script_id: scriptId, paragraph_ids: [ids[3]], locked: true }));

    const swapped = ok(await call(client, "replace_everywhere", { script_id: scriptId, find: "colour", replace: "color $&", whole_word: true, request: "x" }));
    expect(swapped).toMatchObject({ object: "script_replace", replacements: 4, paragraphs_changed: 2, locked_skipped: 1, locked_paragraph_ids: [ids[3]], request: "x" });
    expect(swapped.changed.map((row: Row) => [row.paragraph_id, row.replacements])).toEqual([[ids[0], 2], [ids[2], 2]]);
    const document = await open(client, scriptId);
    // Case-insensitive by default; whole words only ("Colourful" stays); `$&` is literal.
    expect(document.paragraphs.map((row: Row) => row.text)).toEqual(["The color $& of color $& TV.", "No match here.", "Colourful color $& (a color $&.*)", "Locked colour."]);
    expect(document.paragraphs[0]).toMatchObject({ role: "hook", note: "Punchy", word_count: 7 });
    expect(document.script.word_count).toBe(7 + 3 + 6 + 2);
    const edits = await prisma().scriptEdit.findMany({ where: { script_id: scriptId, action: "scripts.replace_everywhere" } });
    expect(edits.map((edit) => edit.paragraph_id).sort()).toEqual([ids[0], ids[2]].sort());
    expect(edits.find((edit) => edit.paragraph_id === ids[0])).toMatchObject({ kind: "paragraph.text", before: { text: "The colour of Colour TV." } });
  });

  it("matches case when asked, treats the pattern as text, and writes nothing when nothing matches", async () => {
    const { client } = await createFixture(service);
    const { scriptId } = await scriptWith(client, ["Price: $5.00 or 5x00 at Acme, acme."]);
    ok(await call(client, "replace_everywhere", { script_id: scriptId, find: "$5.00", replace: "five dollars" }));
    ok(await call(client, "replace_everywhere", { script_id: scriptId, find: "Acme", replace: "Globex", match_case: true }));
    expect((await open(client, scriptId)).paragraphs[0].text).toBe("Price: five dollars or 5x00 at Globex, acme.");

    const before = await open(client, scriptId);
    const points = await prisma().scriptSnapshot.count({ where: { script_id: scriptId } });
    const none = ok(await call(client, "replace_everywhere", { script_id: scriptId, find: "zebra", replace: "horse" }));
    expect(none).toMatchObject({ replacements: 0, paragraphs_changed: 0, changed: [], revision: before.script.revision });
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId } })).toBe(points);
    expect(refused(await call(client, "replace_everywhere", { script_id: scriptId, find: "", replace: "x" }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "find", type: "string.min" });
  });
});

describe("test keys", () => {
  it("run a paragraph write and roll it back: no words changed, no restore point, no log entry", async () => {
    const fixture = await createFixture(service);
    const { scriptId, ids } = await scriptWith(fixture.client, ["Keep these words.", "And these."]);
    const test = await fixture.newKey({ mode: "test" });
    const counts = async () => [await prisma().scriptSnapshot.count({ where: { script_id: scriptId } }), await prisma().scriptEdit.count({ where: { script_id: scriptId } })];
    const before = await counts();
    const simulated = ok(await call(test.client, "replace_everywhere", { script_id: scriptId, find: "these", replace: "those" }));
    expect(simulated).toMatchObject({ livemode: false, replacements: 2, paragraphs_changed: 2 });
    ok(await call(test.client, "delete_paragraphs", { script_id: scriptId, paragraph_ids: [ids[0]] }));
    ok(await call(test.client, "move_paragraph", { script_id: scriptId, paragraph_id: ids[1], to_index: 0 }));
    const document = await open(fixture.client, scriptId);
    expect(document.paragraphs.map((row: Row) => row.text)).toEqual(["Keep these words.", "And these."]);
    expect(document.script.revision).toBe(2);
    expect(await counts()).toEqual(before);
  });
});

describe("scripts.delete_paragraphs and scripts.move_paragraph", () => {
  it("deletes paragraphs (locked ones too) and keeps positions dense; an unknown id deletes nothing", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["One.", "Two two.", "Three three three.", "Four."]);
    ok(await call(client, "lock_paragraphs", { script_id: scriptId, paragraph_ids: [ids[2]], locked: true }));
    const missing = refused(await call(client, "delete_paragraphs", { script_id: scriptId, paragraph_ids: [ids[0], "par_nothing"] }), 404, "not_found");
    expect(missing).toMatchObject({ param: "paragraph_ids", details: { missing: ["par_nothing"] } });
    expect((await open(client, scriptId)).paragraphs).toHaveLength(4);

    const deleted = ok(await call(client, "delete_paragraphs", { script_id: scriptId, paragraph_ids: [ids[2], ids[0], ids[2]] }));
    expect(deleted).toMatchObject({ object: "script_paragraphs_deleted", paragraph_count: 2 });
    expect(deleted.deleted.map((row: Row) => [row.paragraph_id, row.position])).toEqual([[ids[0], 0], [ids[2], 2]]);
    const document = await open(client, scriptId);
    expect(document.paragraphs.map((row: Row) => [row.position, row.paragraph_id])).toEqual([[0, ids[1]], [1, ids[3]]]);
    expect(document.script).toMatchObject({ word_count: 3, paragraph_count: 2 });
    const entry = await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: deleted.deleted[1].edit_id } });
    expect(entry).toMatchObject({ kind: "paragraph.delete", before: { text: "Three three three.", locked: true, position: 2 }, after: null });
  });

  it("moves a paragraph to an index of the document without it", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["A", "B", "C", "D"]);
    const order = async () => (await open(client, scriptId)).paragraphs.map((row: Row) => row.text).join("");
    const moved = ok(await call(client, "move_paragraph", { script_id: scriptId, paragraph_id: ids[0], to_index: 3 }));
    expect(moved).toMatchObject({ paragraph: { paragraph_id: ids[0], position: 3 }, from_position: 0 });
    expect(await order()).toBe("BCDA");
    ok(await call(client, "move_paragraph", { script_id: scriptId, paragraph_id: ids[2], to_index: 0 }));
    expect(await order()).toBe("CBDA");
    ok(await call(client, "move_paragraph", { script_id: scriptId, paragraph_id: ids[3], to_index: 1 }));
    expect(await order()).toBe("CDBA");
    const entry = await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: moved.edit_id } });
    expect(entry).toMatchObject({ kind: "paragraph.move", before: { position: 0, after_paragraph_id: null }, after: { position: 3, after_paragraph_id: ids[3] } });
    // Where it already is: nothing to log.
    expect(ok(await call(client, "move_paragraph", { script_id: scriptId, paragraph_id: ids[3], to_index: 1 })).edit_id).toBeNull();
    expect(refused(await call(client, "move_paragraph", { script_id: scriptId, paragraph_id: ids[3], to_index: 4 }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "to_index", type: "number.max" });
    expect(await order()).toBe("CDBA");
  });
});

describe("role, lock, note and visual", () => {
  it("sets the role of several paragraphs, logging only those that changed", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["Hook.", "Body.", "Outro."]);
    ok(await call(client, "set_paragraph_role", { script_id: scriptId, paragraph_ids: [ids[2]], role: "cta" }));
    const set = ok(await call(client, "set_paragraph_role", { script_id: scriptId, paragraph_ids: [ids[2], ids[0]], role: "cta" }));
    expect(set.paragraphs.map((row: Row) => [row.paragraph_id, row.role])).toEqual([[ids[0], "cta"], [ids[2], "cta"]]);
    expect(set.changed.map((row: Row) => row.paragraph_id)).toEqual([ids[0]]);
    expect(refused(await call(client, "set_paragraph_role", { script_id: scriptId, paragraph_ids: [ids[1]], role: "climax" }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "role", type: "any.only" });
  });

  it("locks paragraphs against document-wide passes; direct edits by id still go through", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["Legal line.", "Free line."]);
    const locked = ok(await call(client, "lock_paragraphs", { script_id: scriptId, paragraph_ids: ids.slice(0, 1), locked: true }));
    expect(locked.paragraphs).toEqual([expect.objectContaining({ paragraph_id: ids[0], locked: true })]);
    expect(ok(await call(client, "replace_everywhere", { script_id: scriptId, find: "line", replace: "sentence" })).locked_skipped).toBe(1);
    ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[0], text: "Legal line, revised by counsel." }));
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => [row.text, row.locked])).toEqual([["Legal line, revised by counsel.", true], ["Free sentence.", false]]);
    ok(await call(client, "lock_paragraphs", { script_id: scriptId, paragraph_ids: ids, locked: false }));
    expect((await open(client, scriptId)).paragraphs.every((row: Row) => row.locked === false)).toBe(true);
  });

  it("sets and clears a margin note", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["Numbers here."]);
    const noted = ok(await call(client, "annotate_paragraph", { script_id: scriptId, paragraph_id: ids[0], note: "Check the figures." }));
    expect(noted.paragraph.note).toBe("Check the figures.");
    const cleared = ok(await call(client, "annotate_paragraph", { script_id: scriptId, paragraph_id: ids[0], note: "" }));
    expect(cleared.paragraph.note).toBeNull();
    expect(await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: cleared.edit_id } })).toMatchObject({ kind: "paragraph.note", before: { note: "Check the figures." }, after: { note: null } });
    expect(ok(await call(client, "annotate_paragraph", { script_id: scriptId, paragraph_id: ids[0], note: "  " })).edit_id).toBeNull();
    refused(await call(client, "annotate_paragraph", { script_id: scriptId, paragraph_id: ids[0] }), 422, "validation_failed");
  });

  it("sets the visual part by part; empty values clear a part, and nothing left is no visual", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["The market opens.", "It closes."]);
    const first = ok(await call(client, "set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[0], direction: "Wide shot of the floor", kind: "broll", broll_keywords: ["stock exchange", " trading floor "] }));
    expect(first.paragraph.visual).toEqual({ direction: "Wide shot of the floor", kind: "broll", broll_keywords: ["stock exchange", "trading floor"], image_prompt: null, src: null });
    const second = ok(await call(client, "set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[0], image_prompt: "A bell ringing", direction: "" }));
    expect(second.paragraph.visual).toEqual({ direction: null, kind: "broll", broll_keywords: ["stock exchange", "trading floor"], image_prompt: "A bell ringing", src: null });
    expect((await open(client, scriptId)).paragraphs[0]).toMatchObject({ text: "The market opens.", visual: second.paragraph.visual });
    expect(ok(await call(client, "set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[0], kind: "broll" })).edit_id).toBeNull();
    const none = ok(await call(client, "set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[0], image_prompt: "", broll_keywords: [] }));
    expect(none.paragraph.visual).toEqual({ direction: null, kind: "broll", broll_keywords: [], image_prompt: null, src: null });
    ok(await call(client, "set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[1], direction: "Shutters down" }));
    expect(ok(await call(client, "set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[1], direction: "" })).paragraph.visual).toBeNull();
    expect(refused(await call(client, "set_paragraph_visual", { script_id: scriptId, paragraph_id: ids[0], broll_keywords: Array.from({ length: 21 }, (_, index) => `k${index}`) }), 422, "validation_failed").param).toBe("broll_keywords");
  });
});
