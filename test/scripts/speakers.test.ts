// The cast (docs/scripts.md, "Speakers"): scripts.speakers, add_speaker, update_speaker,
// remove_speaker, assign_speaker, set_speaker_voice and set_speaker_face. The base speaker takes
// every unassigned line and is never removed; names are unique ignoring case; a speaker is named
// by id or name; voices must be usable here; faces are stored URLs.
import { describe, expect, it } from "vitest";
import { newId } from "../../src/ids.js";
import { createFixture, useService, type Client } from "../support/service.js";
import { ok, refused } from "../support/action-calls.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;  

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const cast = async (client: Client, scriptId: string, withLines = false) => ok(await client.get(`/api/v1/actions/scripts.speakers?script_id=${scriptId}&with_lines=${withLines}`));

async function scriptWith(client: Client, paragraphs: string[], speaker = "Host") {
  const { script_id: scriptId, speakers } = ok(await call(client, "create", { speaker }));
  const ids: string[] = [];
  for (const text of paragraphs) ids.push(ok(await call(client, "insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
  return { scriptId, ids, baseId: speakers[0].speaker_id as string };
}

describe("the cast", () => {
  it("adds speakers without touching anything else, gives them lines, and lists who speaks what", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids, baseId } = await scriptWith(client, ["Welcome.", "Thanks for having me.", "Let's start."]);
    expect((await cast(client, scriptId)).speakers).toHaveLength(1);
    const added = ok(await call(client, "add_speaker", { script_id: scriptId, name: "Guest", persona: "A chemist" }));
    expect(added).toMatchObject({ object: "script_speaker", speaker: { name: "Guest", persona: "A chemist", is_base: false, position: 1, voice_ref: null, face_url: null } });
    // Nothing else moved: every line is still the base speaker's.
    expect((await cast(client, scriptId)).speakers.map((speaker: Row) => [speaker.name, speaker.line_count])).toEqual([["Host", 3], ["Guest", 0]]);

    const given = ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: [ids[1]], speaker_id: added.speaker.speaker_id }));
    expect(given).toMatchObject({ speaker: { name: "Guest" }, paragraphs: [{ paragraph_id: ids[1], speaker_id: added.speaker.speaker_id }], changed: [{ paragraph_id: ids[1] }] });
    const listed = await cast(client, scriptId, true);
    expect(listed).toMatchObject({ object: "script_cast", base_speaker_id: baseId });
    expect(listed.speakers.map((speaker: Row) => [speaker.name, speaker.line_count, speaker.word_count, speaker.lines.map((line: Row) => line.text)])).toEqual([
      ["Host", 2, 3, ["Welcome.", "Let's start."]],
      ["Guest", 1, 4, ["Thanks for having me."]],
    ]);
    expect((await cast(client, scriptId)).speakers[0].lines).toBeNull();

    // An empty speaker_id, or the base speaker's own id, gives lines back to the base speaker.
    ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: [ids[1]], speaker_id: "" }));
    expect((await cast(client, scriptId)).speakers[1].line_count).toBe(0);
    ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: [ids[0]], speaker_id: added.speaker.speaker_id }));
    const back = ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: [ids[0]], speaker_id: baseId }));
    expect(back.paragraphs[0].speaker_id).toBeNull();
    expect(refused(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: [ids[0]], speaker_id: "spk_nobody" }), 404, "not_found").param).toBe("speaker_id");
  });

  it("keeps names unique in a script, ignoring case", async () => {
    const { client } = await createFixture(service);
    const { scriptId } = await scriptWith(client, []);
    ok(await call(client, "add_speaker", { script_id: scriptId, name: "Guest" }));
    expect(refused(await call(client, "add_speaker", { script_id: scriptId, name: "guest" }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "name", type: "any.invalid" });
    expect(refused(await call(client, "update_speaker", { script_id: scriptId, name: "Host", new_name: "GUEST" }), 422, "validation_failed").param).toBe("new_name");
    refused(await call(client, "add_speaker", { script_id: scriptId, name: "   " }), 422, "validation_failed");
    // Another script may have its own Guest.
    const other = await scriptWith(client, []);
    ok(await call(client, "add_speaker", { script_id: other.scriptId, name: "Guest" }));
  });

  it("updates a speaker's name or persona, by id or by name, leaving its lines, voice and id", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, ["Line."]);
    const guest = ok(await call(client, "add_speaker", { script_id: scriptId, name: "Guest" })).speaker;
    ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: ids, speaker_id: guest.speaker_id }));
    ok(await call(client, "set_speaker_voice", { script_id: scriptId, speaker_id: guest.speaker_id, voice_ref: "local/fr" }));

    const renamed = ok(await call(client, "update_speaker", { script_id: scriptId, name: "guest", new_name: "Dr. Guest", persona: "Physicist" }));
    expect(renamed.speaker).toMatchObject({ speaker_id: guest.speaker_id, name: "Dr. Guest", persona: "Physicist", voice_ref: "local/fr" });
    expect(await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: renamed.edit_id } })).toMatchObject({ kind: "speaker.update", before: { speaker_id: guest.speaker_id, name: "Guest", persona: null }, after: { name: "Dr. Guest", persona: "Physicist" } });
    const cleared = ok(await call(client, "update_speaker", { script_id: scriptId, speaker_id: guest.speaker_id, persona: "" }));
    expect(cleared.speaker.persona).toBeNull();
    expect((await cast(client, scriptId)).speakers[1]).toMatchObject({ name: "Dr. Guest", line_count: 1 });
    expect(ok(await call(client, "update_speaker", { script_id: scriptId, speaker_id: guest.speaker_id, new_name: "Dr. Guest" })).edit_id).toBeNull();
    expect(refused(await call(client, "update_speaker", { script_id: scriptId, name: "Nobody" }), 404, "not_found").param).toBe("name");
    expect(refused(await call(client, "update_speaker", { script_id: scriptId, speaker_id: guest.speaker_id, name: "Host", persona: "x" }), 422, "validation_failed").param).toBe("name");
    expect(refused(await call(client, "update_speaker", { script_id: scriptId, persona: "x" }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "speaker_id", type: "any.required" });
  });

  it("removes a speaker, its lines going back to the base speaker; the base speaker stays", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids, baseId } = await scriptWith(client, ["One.", "Two.", "Three."]);
    const a = ok(await call(client, "add_speaker", { script_id: scriptId, name: "A" })).speaker;
    const b = ok(await call(client, "add_speaker", { script_id: scriptId, name: "B" })).speaker;
    ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: [ids[0], ids[2]], speaker_id: a.speaker_id }));
    ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: [ids[1]], speaker_id: b.speaker_id }));

    const removed = ok(await call(client, "remove_speaker", { script_id: scriptId, speaker_id: a.speaker_id }));
    expect(removed).toMatchObject({ object: "script_speaker_removed", removed: { name: "A" }, base_speaker_id: baseId, reassigned_paragraph_ids: [ids[0], ids[2]] });
    const listed = await cast(client, scriptId);
    // Positions close up.
    expect(listed.speakers.map((speaker: Row) => [speaker.name, speaker.position, speaker.line_count])).toEqual([["Host", 0, 2], ["B", 1, 1]]);

    const base = refused(await call(client, "remove_speaker", { script_id: scriptId, speaker_id: baseId }), 400, "invalid_request");
    expect(base.param).toBe("speaker_id");
    refused(await call(client, "remove_speaker", { script_id: scriptId, name: "Host" }), 400, "invalid_request");
    refused(await call(client, "remove_speaker", { script_id: scriptId, speaker_id: a.speaker_id }), 404, "not_found");
    expect((await cast(client, scriptId)).speakers).toHaveLength(2);
  });
});

describe("voice and face", () => {
  it("sets a speaker's voice from the usable voices, and null puts it back on the default", async () => {
    const { client, workspaceId } = await createFixture(service);
    const { scriptId } = await scriptWith(client, ["Hello."]);
    await prisma().script.update({ where: { script_id: scriptId }, data: { default_voice_ref: "local/en-gb" } });
    // Without speaker_id or name: the base speaker.
    const set = ok(await call(client, "set_speaker_voice", { script_id: scriptId, voice_ref: "local/de" }));
    expect(set).toMatchObject({ speaker: { name: "Host", voice_ref: "local/de", voice_name: "eSpeak German" }, effective_voice_ref: "local/de" });
    expect(await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: set.edit_id } })).toMatchObject({ kind: "speaker.voice", before: { voice_ref: null }, after: { voice_ref: "local/de" } });

    const library = newId("voice");
    await prisma().voice.create({ data: { voice_ref: library, workspace_id: workspaceId, display_name: "House voice", provider: "elevenlabs", scope: "workspace" } });
    expect(ok(await call(client, "set_speaker_voice", { script_id: scriptId, name: "host", voice_ref: library })).speaker).toMatchObject({ voice_ref: library, voice_name: "House voice" });

    const reset = ok(await call(client, "set_speaker_voice", { script_id: scriptId, name: "Host", voice_ref: null }));
    expect(reset).toMatchObject({ speaker: { voice_ref: null, voice_name: null }, effective_voice_ref: "local/en-gb" });
    expect(refused(await call(client, "set_speaker_voice", { script_id: scriptId, voice_ref: "local/klingon" }), 422, "validation_failed").param).toBe("voice_ref");
    expect(refused(await call(client, "set_speaker_voice", { script_id: scriptId }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "voice_ref", type: "any.required" });
  });

  it("stores a face URL without fetching it, on the base speaker by default, and clears it", async () => {
    const { client } = await createFixture(service);
    const { scriptId } = await scriptWith(client, []);
    const guest = ok(await call(client, "add_speaker", { script_id: scriptId, name: "Guest" })).speaker;
    // A host that does not exist: stored all the same, since nothing reads it here.
    const base = ok(await call(client, "set_speaker_face", { script_id: scriptId, image_url: "https://faces.invalid/host.png", aspect: "portrait" }));
    expect(base.speaker).toMatchObject({ name: "Host", face_url: "https://faces.invalid/host.png", face_aspect: "portrait" });
    ok(await call(client, "set_speaker_face", { script_id: scriptId, speaker_id: guest.speaker_id, image_url: "http://faces.invalid/guest.jpg" }));
    const cleared = ok(await call(client, "set_speaker_face", { script_id: scriptId, clear: true }));
    expect(cleared.speaker).toMatchObject({ face_url: null, face_aspect: null });
    expect((await cast(client, scriptId)).speakers.map((speaker: Row) => speaker.face_url)).toEqual([null, "http://faces.invalid/guest.jpg"]);
    expect(await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: cleared.edit_id } })).toMatchObject({ kind: "speaker.face", before: { face_url: "https://faces.invalid/host.png" }, after: { face_url: null } });

    expect(refused(await call(client, "set_speaker_face", { script_id: scriptId, image_url: "ftp://faces.invalid/x.png" }), 422, "validation_failed").param).toBe("image_url");
    expect(refused(await call(client, "set_speaker_face", { script_id: scriptId, image_url: "javascript:alert(1)" }), 422, "validation_failed").param).toBe("image_url");
    expect(refused(await call(client, "set_speaker_face", { script_id: scriptId }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "image_url", type: "any.required" });
    expect(refused(await call(client, "set_speaker_face", { script_id: scriptId, image_url: "https://faces.invalid/a.png", clear: true }), 422, "validation_failed").param).toBe("clear");
  });
});
