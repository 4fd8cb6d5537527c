// A script's history (docs/scripts.md, "History" and "Undo"): restore points (scripts.snapshots,
// snapshot, restore_snapshot), the raw edit log (scripts.changes), the readable history
// (scripts.history) and undoing one entry (scripts.undo_change): what comes back, what is refused
// and why, locked paragraphs skipped, undo of an undo as a redo.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type Client } from "../support/service.js";
import { ok, refused } from "../support/action-calls.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;  

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const get = (client: Client, name: string, query: Record<string, unknown> = {}) =>
  client.get(`/api/v1/actions/scripts.${name}?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, typeof value === "object" ? JSON.stringify(value) : String(value as string | number | boolean)]))}`);

async function documentOf(client: Client, scriptId: string) {
  return ok(await get(client, "open", { script_id: scriptId }));
}

const texts = (document: Row) => document.paragraphs.map((row: Row) => row.text);

/** A script with paragraphs; their ids in order. */
async function scriptWith(client: Client, paragraphs: string[], meta: Record<string, unknown> = {}) {
  const { script_id: scriptId } = ok(await call(client, "create", meta));
  const ids: string[] = [];
  for (const text of paragraphs) ids.push(ok(await call(client, "insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
  return { scriptId, ids };
}

describe("restore points", () => {
  it("lists automatic and named points newest first, and restores a full copy after a safety point", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["Alpha.", "Beta."], { title: "Draft one", speaker: "Host" });
    const named = ok(await call(client, "snapshot", { script_id: scriptId, label: "Before the big edit", request: "r1" }));
    expect(named).toMatchObject({ object: "script_snapshot", snapshot: { reason: "manual", label: "Before the big edit", action: "scripts.snapshot", word_count: 2 }, request: "r1" });
    // A named point changes nothing in the document.
    expect((await documentOf(client, scriptId)).script.revision).toBe(2);

    ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[0], text: "Alpha, rewritten at length." }));
    ok(await call(client, "delete_paragraphs", { script_id: scriptId, paragraph_ids: [ids[1]] }));
    ok(await call(client, "set_meta", { script_id: scriptId, title: "Draft two" }));
    const guest = ok(await call(client, "add_speaker", { script_id: scriptId, name: "Guest" })).speaker;
    ok(await call(client, "update_speaker", { script_id: scriptId, name: "Host", new_name: "Guest 2" }));
    ok(await call(client, "insert_paragraph", { script_id: scriptId, text: "Gamma." }));

    const points = ok(await get(client, "snapshots", { script_id: scriptId }));
    expect(points.data.map((point: Row) => [point.reason, point.action])).toEqual([
      ["auto", "scripts.insert_paragraph"],
      ["auto", "scripts.update_speaker"],
      ["auto", "scripts.add_speaker"],
      ["auto", "scripts.set_meta"],
      ["auto", "scripts.delete_paragraphs"],
      ["auto", "scripts.set_paragraph_text"],
      ["manual", "scripts.snapshot"],
      ["auto", "scripts.insert_paragraph"],
      ["auto", "scripts.insert_paragraph"],
    ]);
    expect(points.data[0]).not.toHaveProperty("document");

    const restored = ok(await call(client, "restore_snapshot", { script_id: scriptId, snapshot_id: named.snapshot.snapshot_id }));
    expect(restored).toMatchObject({ object: "script_restore", restored: { snapshot_id: named.snapshot.snapshot_id }, safety_point: { reason: "safety", action: "scripts.restore_snapshot" }, script: { title: "Draft one", word_count: 2, paragraph_count: 2 } });
    const document = await documentOf(client, scriptId);
    expect(texts(document)).toEqual(["Alpha.", "Beta."]);
    // The same paragraphs, ids included; the cast as it was (the guest added later is gone).
    expect(document.paragraphs.map((row: Row) => row.paragraph_id)).toEqual(ids);
    expect(document.speakers.map((row: Row) => row.name)).toEqual(["Host"]);
    expect(document.speakers.map((row: Row) => row.speaker_id)).not.toContain(guest.speaker_id);

    // The safety point holds the document as it was just before: restoring it undoes the restore.
    ok(await call(client, "restore_snapshot", { script_id: scriptId, snapshot_id: restored.safety_point.snapshot_id }));
    const back = await documentOf(client, scriptId);
    expect(texts(back)).toEqual(["Alpha, rewritten at length.", "Gamma."]);
    expect(back.speakers.map((row: Row) => row.name)).toEqual(["Guest 2", "Guest"]);
    expect(back.script.title).toBe("Draft two");
    // Both restores are in the log; the safety points stay.
    const log = ok(await get(client, "changes", { script_id: scriptId, limit: 2 }));
    expect(log.data.map((entry: Row) => entry.kind)).toEqual(["document.restore", "document.restore"]);
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId, reason: "safety" } })).toBe(2);
  });

  it("refuses a restore point of another script, and pages the points", async () => {
    const { client } = await createFixture(service);
    const one = await scriptWith(client, ["One."]);
    const two = await scriptWith(client, ["Two.", "Three.", "Four."]);
    const foreign = ok(await get(client, "snapshots", { script_id: two.scriptId })).data[0].snapshot_id;
    expect(refused(await call(client, "restore_snapshot", { script_id: one.scriptId, snapshot_id: foreign }), 404, "not_found").param).toBe("snapshot_id");
    expect(texts(await documentOf(client, one.scriptId))).toEqual(["One."]);
    // Nothing of the refused call stayed: no safety point.
    expect(await prisma().scriptSnapshot.count({ where: { script_id: one.scriptId, reason: "safety" } })).toBe(0);

    const intruder = await createFixture(service);
    refused(await get(intruder.client, "snapshots", { script_id: two.scriptId }), 403, "workspace_mismatch");
  });
});

describe("scripts.changes and scripts.history", () => {
  it("give the same log newest first: changes raw with before and after, history as sentences with what can be undone", async () => {
    const { client, keyId } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["First draft of the hook.", "Body."]);
    const text = ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[0], text: "A sharper hook." }));
    const role = ok(await call(client, "set_paragraph_role", { script_id: scriptId, paragraph_ids: [ids[0]], role: "hook" }));
    ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[1], text: "Body, longer." }));

    const changes = ok(await get(client, "changes", { script_id: scriptId, request: { page: 1 } }));
    expect(changes).toMatchObject({ object: "list", script_id: scriptId, request: { page: 1 }, has_more: false });
    expect(changes.data.map((entry: Row) => entry.kind)).toEqual(["paragraph.text", "paragraph.role", "paragraph.text", "paragraph.insert", "paragraph.insert"]);
    expect(changes.data[2]).toMatchObject({ edit_id: text.edit_id, paragraph_id: ids[0], action: "scripts.set_paragraph_text", before: { text: "First draft of the hook." }, after: { text: "A sharper hook." }, undone_at: null, key_id: keyId });

    const ofFirst = ok(await get(client, "changes", { script_id: scriptId, paragraph_id: ids[0] }));
    expect(ofFirst.data.map((entry: Row) => entry.edit_id)).toEqual([role.changed[0].edit_id, text.edit_id, changes.data[4].edit_id]);
    const older = ok(await get(client, "changes", { script_id: scriptId, before: role.changed[0].edit_id, limit: 2 }));
    expect(older.data.map((entry: Row) => entry.edit_id)).toEqual([text.edit_id, changes.data[3].edit_id]);
    expect(older.has_more).toBe(true);
    expect(ok(await get(client, "changes", { script_id: scriptId, cursor: older.next_cursor })).data.map((entry: Row) => entry.edit_id)).toEqual([changes.data[4].edit_id]);
    refused(await get(client, "changes", { script_id: scriptId, before: text.edit_id, cursor: older.next_cursor }), 400, "invalid_request");
    expect(refused(await get(client, "changes", { script_id: scriptId, before: "edit_nowhere" }), 404, "not_found").param).toBe("before");

    const history = ok(await get(client, "history", { script_id: scriptId, paragraph_id: ids[0] }));
    expect(history.data).toEqual([
      expect.objectContaining({ edit_id: role.changed[0].edit_id, summary: "Role body → hook", paragraph_position: 0, can_undo: true, undo_blocked_by: null, undone: false }),
      // The text of the first paragraph can be undone: the role changed since, not the words.
      expect.objectContaining({ edit_id: text.edit_id, summary: 'Reworded "First draft of the hook." to "A sharper hook."', can_undo: true }),
      // Its insertion cannot: the words changed since.
      expect.objectContaining({ kind: "paragraph.insert", can_undo: false, undo_blocked_by: "changed_since" }),
    ]);
    expect(history.data[0]).not.toHaveProperty("before");

    // The same through GraphQL: typed fields, the undo a mutation.
    const read = await client.graphql(`{ scripts_history(input: { script_id: "${scriptId}", limit: 1 }) { has_more data { edit_id summary can_undo undo_blocked_by } } }`);
    expect(read.body.errors, read.text).toBeUndefined();
    expect(read.body.data.scripts_history).toEqual({ has_more: true, data: [{ edit_id: changes.data[0].edit_id, summary: 'Reworded "Body." to "Body, longer."', can_undo: true, undo_blocked_by: null }] });
    const undone = await client.graphql(`mutation { scripts_undo_change(input: { script_id: "${scriptId}", edit_id: "${changes.data[0].edit_id}" }) { undone paragraph { text } } }`);
    expect(undone.body.errors, undone.text).toBeUndefined();
    expect(undone.body.data.scripts_undo_change).toEqual({ undone: true, paragraph: { text: "Body." } });
  });
});

describe("scripts.undo_change", () => {
  it("undoes one entry as a new entry of the log; undoing that redoes it; an entry is undone once", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["Original words."]);
    const edit = ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[0], text: "Edited words here." }));

    const undo = ok(await call(client, "undo_change", { script_id: scriptId, edit_id: edit.edit_id, request: 7 }));
    expect(undo).toMatchObject({ object: "script_undo", edit_id: edit.edit_id, undone: true, skipped: null, paragraph: { paragraph_id: ids[0], text: "Original words.", word_count: 2 }, request: 7 });
    expect(undo.summary).toBe('Reworded "Original words." to "Edited words here."');
    const entry = await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: undo.undo_edit_id } });
    expect(entry).toMatchObject({ kind: "paragraph.text", action: "scripts.undo_change", undoes_edit_id: edit.edit_id, before: { text: "Edited words here." }, after: { text: "Original words." } });
    expect((await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: edit.edit_id } })).undone_at).not.toBeNull();
    expect((await documentOf(client, scriptId)).script.word_count).toBe(2);

    // Once only.
    const again = refused(await call(client, "undo_change", { script_id: scriptId, edit_id: edit.edit_id }), 409, "conflict");
    expect(again.details).toMatchObject({ reason: "already_undone" });
    // Undoing the undo redoes the edit, and the edit may be undone again.
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: undo.undo_edit_id }));
    expect(texts(await documentOf(client, scriptId))).toEqual(["Edited words here."]);
    expect((await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: edit.edit_id } })).undone_at).toBeNull();
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: edit.edit_id }));
    expect(texts(await documentOf(client, scriptId))).toEqual(["Original words."]);
  });

  it("refuses an entry whose paragraph changed since with 409, naming the newer entries", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["v1"]);
    const first = ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[0], text: "v2" }));
    const second = ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[0], text: "v3" }));
    const conflict = refused(await call(client, "undo_change", { script_id: scriptId, edit_id: first.edit_id }), 409, "conflict");
    expect(conflict.details).toMatchObject({ reason: "changed_since", newer_edit_ids: [second.edit_id] });
    expect(texts(await documentOf(client, scriptId))).toEqual(["v3"]);
    // Newest first, both go.
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: second.edit_id }));
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: first.edit_id }));
    expect(texts(await documentOf(client, scriptId))).toEqual(["v1"]);
    // A restore is undone by restoring its safety point.
    const point = ok(await get(client, "snapshots", { script_id: scriptId })).data.at(-1).snapshot_id;
    const restore = ok(await call(client, "restore_snapshot", { script_id: scriptId, snapshot_id: point }));
    expect(refused(await call(client, "undo_change", { script_id: scriptId, edit_id: restore.edit_id }), 400, "invalid_request").message).toContain(restore.safety_point.snapshot_id);
    expect(refused(await call(client, "undo_change", { script_id: scriptId, edit_id: "edit_unknown" }), 404, "not_found").param).toBe("edit_id");
  });

  it("skips a locked paragraph and says so, except to undo the lock itself", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["Approved words."]);
    const role = ok(await call(client, "set_paragraph_role", { script_id: scriptId, paragraph_ids: [ids[0]], role: "cta" }));
    const lock = ok(await call(client, "lock_paragraphs", { script_id: scriptId, paragraph_ids: [ids[0]], locked: true }));
    const revision = (await documentOf(client, scriptId)).script.revision;

    const skipped = ok(await call(client, "undo_change", { script_id: scriptId, edit_id: role.changed[0].edit_id }));
    expect(skipped).toMatchObject({ undone: false, undo_edit_id: null, skipped: { reason: "locked", paragraph_ids: [ids[0]] }, paragraph: { role: "cta", locked: true }, revision });
    expect((await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: role.changed[0].edit_id } })).undone_at).toBeNull();

    const unlocked = ok(await call(client, "undo_change", { script_id: scriptId, edit_id: lock.changed[0].edit_id }));
    expect(unlocked).toMatchObject({ undone: true, paragraph: { locked: false } });
    expect(ok(await call(client, "undo_change", { script_id: scriptId, edit_id: role.changed[0].edit_id })).paragraph.role).toBe("body");
  });

  it("undoes inserts, deletions and moves of paragraphs", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["A.", "B.", "C.", "D."]);
    const [a, b, c, d] = ids as [string, string, string, string];
    // Delete B with its note and role, then bring it back with its id and place.
    ok(await call(client, "annotate_paragraph", { script_id: scriptId, paragraph_id: b, note: "Keep" }));
    const removal = ok(await call(client, "delete_paragraphs", { script_id: scriptId, paragraph_ids: [b] }));
    const back = ok(await call(client, "undo_change", { script_id: scriptId, edit_id: removal.deleted[0].edit_id }));
    expect(back.paragraph).toMatchObject({ paragraph_id: b, position: 1, text: "B.", note: "Keep" });
    expect((await documentOf(client, scriptId)).paragraphs.map((row: Row) => row.paragraph_id)).toEqual([a, b, c, d]);
    refused(await call(client, "undo_change", { script_id: scriptId, edit_id: removal.deleted[0].edit_id }), 409, "conflict");

    // Move D to the top, undo: it goes back after C.
    const move = ok(await call(client, "move_paragraph", { script_id: scriptId, paragraph_id: d, to_index: 0 }));
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: move.edit_id }));
    expect((await documentOf(client, scriptId)).paragraphs.map((row: Row) => row.paragraph_id)).toEqual([a, b, c, d]);

    // Undo an insertion: the paragraph goes; its deletion is logged and can be undone in turn.
    const inserted = ok(await call(client, "insert_paragraph", { script_id: scriptId, text: "E.", after_paragraph_id: a }));
    const gone = ok(await call(client, "undo_change", { script_id: scriptId, edit_id: inserted.edit_id }));
    expect(gone.paragraph).toBeNull();
    expect(texts(await documentOf(client, scriptId))).toEqual(["A.", "B.", "C.", "D."]);
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: gone.undo_edit_id }));
    expect(texts(await documentOf(client, scriptId))).toEqual(["A.", "E.", "B.", "C.", "D."]);
    expect((await documentOf(client, scriptId)).script).toMatchObject({ paragraph_count: 5, word_count: 5 });
  });

  it("undoes changes of the script and its cast", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["Line one.", "Line two."], { title: "Before", speaker: "Host" });
    const meta = ok(await call(client, "set_meta", { script_id: scriptId, title: "After", tone: "dry" }));
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: meta.edit_id }));
    expect((await documentOf(client, scriptId)).script).toMatchObject({ title: "Before", tone: null });

    const guest = ok(await call(client, "add_speaker", { script_id: scriptId, name: "Guest" }));
    ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: ids, speaker_id: guest.speaker.speaker_id }));
    // Lines were given to it since: its addition cannot be undone alone.
    expect(refused(await call(client, "undo_change", { script_id: scriptId, edit_id: guest.edit_id }), 409, "conflict").details.reason).toBe("changed_since");
    ok(await call(client, "lock_paragraphs", { script_id: scriptId, paragraph_ids: [ids[1]], locked: true }));
    const removed = ok(await call(client, "remove_speaker", { script_id: scriptId, name: "guest" }));
    expect(removed.reassigned_paragraph_ids).toEqual(ids);
    // Undoing the removal brings the speaker back with its id; the locked line stays with the base speaker.
    const undo = ok(await call(client, "undo_change", { script_id: scriptId, edit_id: removed.edit_id }));
    expect(undo).toMatchObject({ undone: true, skipped: { reason: "locked", paragraph_ids: [ids[1]] } });
    const document = await documentOf(client, scriptId);
    expect(document.speakers.map((row: Row) => [row.speaker_id, row.name])).toEqual([[document.speakers[0].speaker_id, "Host"], [guest.speaker.speaker_id, "Guest"]]);
    expect(document.paragraphs.map((row: Row) => row.speaker_id)).toEqual([guest.speaker.speaker_id, null]);
  });
});
