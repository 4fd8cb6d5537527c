// Voice and takes (docs/scripts.md, "Voice and takes"), offline with local/espeak-ng and no
// provider keys: scripts.voice (plan, precedence, dry_run, unchanged words, force, credits spent
// for what ran), the takes (stored audio measured by ffprobe, word timings, the chosen one),
// choose_take / delete_take (contract section 3), pace, narration, listen, and the export and
// timing that read the chosen takes.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import os from "node:os";
import { loadConfig } from "../src/config.js";
import { createFileService } from "../src/storage/from-config.js";
import { deleteOrphanedFiles } from "../src/scripts/file-orphans.js";
import { estimatedWords } from "../src/scripts/voice/takes.js";
import { FFPROBE_PATH } from "../src/media/binaries.js";
import { useService, type Client } from "./support/service.js";
import { balanceOf, funded, ok, refused } from "./support/action-calls.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const query = (client: Client, name: string, input: Record<string, string | number | boolean>) =>
  client.get(`/api/v1/actions/scripts.${name}?${new URLSearchParams(Object.entries(input).map(([key, value]) => [key, String(value)]))}`);

async function scriptWith(client: Client, paragraphs: string[], settings: Record<string, unknown> = { default_voice_ref: "local/en-us" }) {
  const { script_id: scriptId, speakers } = ok(await call(client, "create", { speaker: "Host" }));
  const ids: string[] = [];
  for (const text of paragraphs) ids.push(ok(await call(client, "insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
  if (Object.keys(settings).length) ok(await call(client, "settings", { script_id: scriptId, ...settings }));
  return { scriptId, ids, baseId: speakers[0].speaker_id as string };
}

/** ffprobe's length of audio bytes, in seconds. */
function probedSeconds(bytes: Uint8Array): number {
  const file = path.join(os.tmpdir(), `voice-test-${process.pid}-${Math.random().toString(36).slice(2)}.wav`);
  writeFileSync(file, bytes);
  return Number(execFileSync(FFPROBE_PATH, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).toString().trim());
}

async function audioOf(client: Client, input: Record<string, string | number | boolean>) {
  const response = await fetch(`${service.url}/api/v1/actions/scripts.listen?${new URLSearchParams(Object.entries(input).map(([key, value]) => [key, String(value)]))}`, { headers: { authorization: `Bearer ${client.key}` } });
  return { status: response.status, type: response.headers.get("content-type"), bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe("scripts.voice", () => {
  it("quotes a dry run, then voices every paragraph with its voice by precedence, spending per paragraph per take", async () => {
    const { client, workspaceId } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["Welcome to the show.", "Today we talk about tides.", "Thanks for listening."]);
    const guest = ok(await call(client, "add_speaker", { script_id: scriptId, name: "Guest" })).speaker.speaker_id;
    ok(await call(client, "assign_speaker", { script_id: scriptId, paragraph_ids: [ids[1]], speaker_id: guest }));
    ok(await call(client, "set_speaker_voice", { script_id: scriptId, speaker_id: guest, voice_ref: "local/en-gb" }));
    // The paragraph's own voice comes first of all.
    await prisma().scriptParagraph.update({ where: { paragraph_id: ids[2] }, data: { voice_ref: "local/fr" } });

    const quote = ok(await call(client, "voice", { script_id: scriptId, takes: 2, dry_run: true }));
    expect(quote).toMatchObject({ object: "script_voicing", dry_run: true, quote: { paragraphs: 3, syntheses: 6, credits: 12 }, credits: { cost: 0, charged: 0 } });
    expect(quote.voiced.map((entry: Row) => [entry.voice_ref, entry.voice_from, entry.model, entry.take_ids])).toEqual([
      ["local/en-us", "script", "local/espeak-ng", []],
      ["local/en-gb", "speaker", "local/espeak-ng", []],
      ["local/fr", "paragraph", "local/espeak-ng", []],
    ]);
    expect(await prisma().scriptTake.count({ where: { script_id: scriptId } })).toBe(0);
    expect(await balanceOf(service, workspaceId)).toBe(100);

    // The call's voice_ref ranks below the speaker's and the paragraph's but above the script's default.
    const voiced = ok(await call(client, "voice", { script_id: scriptId, takes: 2, voice_ref: "local/de" }));
    expect(voiced.credits).toMatchObject({ cost: 12, charged: 12, balance_after: 88 });
    expect(voiced.voiced.map((entry: Row) => [entry.paragraph_id, entry.voice_ref, entry.voice_from, entry.take_ids.length])).toEqual([
      [ids[0], "local/de", "call", 2],
      [ids[1], "local/en-gb", "speaker", 2],
      [ids[2], "local/fr", "paragraph", 2],
    ]);
    const takes = ok(await query(client, "takes", { script_id: scriptId }));
    expect(takes.counts).toEqual({ voiced: 3, stale: 0, unvoiced: 0 });
    for (const [index, paragraph] of takes.paragraphs.entries()) {
      expect(paragraph.takes).toHaveLength(2);
      // The first take of the call is the chosen one; newest first in the list.
      expect(paragraph.chosen_take_id).toBe(voiced.voiced[index].take_ids[0]);
      // espeak-ng reports where each word falls while it speaks: the take's words are its own.
      expect(paragraph.takes[1]).toMatchObject({ take_id: paragraph.chosen_take_id, chosen: true, stale: false, words_source: "provider", credits: 2, content_type: "audio/wav" });
      const take = paragraph.takes[1];
      expect(take.duration_ms).toBeGreaterThan(500);
      expect(take.words.map((word: Row) => word.word).join(" ")).toBe(take.spoken_text);
      expect(take.words.at(-1).end).toBeLessThanOrEqual(take.duration_ms / 1000);
      // The stored file is what ffprobe measures.
      const file = await fetch(take.url);
      expect(file.status).toBe(200);
      expect(Math.abs(probedSeconds(new Uint8Array(await file.arrayBuffer())) * 1000 - take.duration_ms)).toBeLessThanOrEqual(1);
    }

    // Words unchanged: left alone, nothing spent; force voices them again.
    const again = ok(await call(client, "voice", { script_id: scriptId }));
    expect(again).toMatchObject({ voiced: [], credits: { cost: 0, charged: 0 } });
    expect(again.skipped.map((entry: Row) => entry.reason)).toEqual(["unchanged", "unchanged", "unchanged"]);
    ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[1], text: "Today we talk about waves." }));
    expect(ok(await query(client, "takes", { script_id: scriptId, stale_only: true })).paragraphs.map((paragraph: Row) => paragraph.paragraph_id)).toEqual([ids[1]]);
    const changed = ok(await call(client, "voice", { script_id: scriptId }));
    expect(changed.voiced.map((entry: Row) => entry.paragraph_id)).toEqual([ids[1]]);
    expect(changed.credits).toMatchObject({ cost: 2, charged: 2 });
    const forced = ok(await call(client, "voice", { script_id: scriptId, paragraph_ids: [ids[0]], force: true }));
    expect(forced.voiced.map((entry: Row) => entry.paragraph_id)).toEqual([ids[0]]);
    expect(await balanceOf(service, workspaceId)).toBe(84);
  });

  it("skips and reports a paragraph with no voice anywhere, and quotes a test key without writing", async () => {
    const fixture = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(fixture.client, ["One.", "Two."], {});
    // A new script has the deployment's default voice; this one has none anywhere.
    await prisma().script.update({ where: { script_id: scriptId }, data: { default_voice_ref: null } });
    await prisma().scriptParagraph.update({ where: { paragraph_id: ids[1] }, data: { voice_ref: "local/en-gb" } });
    const answer = ok(await call(fixture.client, "voice", { script_id: scriptId }));
    expect(answer.voiced.map((entry: Row) => entry.paragraph_id)).toEqual([ids[1]]);
    expect(answer.skipped).toMatchObject([{ paragraph_id: ids[0], reason: "no_voice", voice_ref: null }]);
    expect(answer.credits).toMatchObject({ charged: 2 });

    const test = await fixture.newKey({ mode: "test" });
    const quoted = ok(await call(test.client, "voice", { script_id: scriptId, voice_ref: "local/en-us", force: true, takes: 3 }));
    expect(quoted).toMatchObject({ object: "action_quote", units: 2, credits: { cost: 12, charged: 0 } });
    expect(await prisma().scriptTake.count({ where: { script_id: scriptId } })).toBe(1);
    // A voice that names nothing usable here is refused before anything is held.
    refused(await call(fixture.client, "voice", { script_id: scriptId, voice_ref: "local/klingon" }), 422, "validation_failed");
    refused(await call(fixture.client, "voice", { script_id: scriptId, takes: 4 }), 422, "validation_failed");
    expect(await balanceOf(service, fixture.workspaceId)).toBe(8);
  });

  it("times a take's words from espeak-ng's own word events: in order, inside the take, with the pauses it speaks", async () => {
    const { client } = await funded(service, 20);
    const text = "The sea rises twice a day. After a long pause, the moon pulls the water toward it.";
    const { scriptId, ids } = await scriptWith(client, [text]);
    ok(await call(client, "voice", { script_id: scriptId }));
    const [take] = ok(await query(client, "takes", { script_id: scriptId, paragraph_ids: ids[0]! })).paragraphs[0].takes;
    expect(take).toMatchObject({ words_source: "provider", model: "local/espeak-ng" });
    const words = take.words as { word: string; start: number; end: number }[];
    expect(words.map((word) => word.word)).toEqual(text.split(" "));
    for (const [index, word] of words.entries()) {
      expect(word.end).toBeGreaterThan(word.start);
      if (index > 0) expect(word.start).toBeGreaterThanOrEqual(words[index - 1]!.end);
    }
    expect(words[0]!.start).toBeGreaterThanOrEqual(0);
    expect(words.at(-1)!.end).toBeLessThanOrEqual(take.duration_ms / 1000);
    // Not a spread by word length: the sentence's full stop is a silence between "day." and "After".
    const day = words.findIndex((word) => word.word === "day.");
    expect(words[day + 1]!.start - words[day]!.end).toBeGreaterThan(0.15);
    const estimate = estimatedWords(take.spoken_text, take.duration_ms);
    expect(words.some((word, index) => Math.abs(word.start - estimate[index]!.start) > 0.1)).toBe(true);
  });

  it("hands the voice the words after the spoken style rules", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["Our API is fast."]);
    ok(await client.get(`/api/v1/actions/scripts.add_style_rule?script_id=${scriptId}&kind=spoken&term=API&replacement=A%20P%20I`));
    ok(await call(client, "voice", { script_id: scriptId }));
    const [take] = ok(await query(client, "takes", { script_id: scriptId, paragraph_ids: ids[0]! })).paragraphs[0].takes;
    expect(take.spoken_text).toBe("Our A P I is fast.");
  });
});

describe("the moves of takes", () => {
  it("chooses a take, deletes the chosen one (the newest remaining takes over), and the last one leaves the paragraph unvoiced, with no refund", async () => {
    const { client, workspaceId } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["A short line to voice."]);
    const [first, second, third] = ok(await call(client, "voice", { script_id: scriptId, takes: 3 })).voiced[0].take_ids;
    const chosen = ok(await call(client, "choose_take", { script_id: scriptId, paragraph_id: ids[0], take_id: second }));
    expect(chosen).toMatchObject({ chosen_take_id: second, previous_take_id: first, changed: true, take: { chosen: true } });
    expect(ok(await query(client, "timing", { script_id: scriptId })).paragraphs[0]).toMatchObject({ source: "recording", duration_ms: chosen.take.duration_ms });
    refused(await call(client, "choose_take", { script_id: scriptId, paragraph_id: ids[0], take_id: "take_nope" }), 404, "not_found");

    // keep_chosen protects the chosen take even when it is named.
    const kept = ok(await call(client, "delete_take", { script_id: scriptId, paragraph_id: ids[0], take_ids: [second, first], keep_chosen: true }));
    expect(kept).toMatchObject({ deleted_take_ids: [first], kept: [second], chosen_take_id: second, chosen_changed: false, remaining: 2 });
    const balance = await balanceOf(service, workspaceId);
    const moved = ok(await call(client, "delete_take", { script_id: scriptId, paragraph_id: ids[0], take_id: second }));
    expect(moved).toMatchObject({ deleted_take_ids: [second], chosen_take_id: third, chosen_changed: true, remaining: 1, credits_refunded: 0 });
    const last = ok(await call(client, "delete_take", { script_id: scriptId, paragraph_id: ids[0], take_id: third }));
    expect(last).toMatchObject({ chosen_take_id: null, remaining: 0 });
    expect(ok(await query(client, "takes", { script_id: scriptId })).paragraphs[0]).toMatchObject({ status: "unvoiced", chosen_take_id: null, takes: [] });
    expect(ok(await query(client, "timing", { script_id: scriptId })).paragraphs[0].source).toBe("estimate");
    expect(await balanceOf(service, workspaceId)).toBe(balance);
    refused(await call(client, "delete_take", { script_id: scriptId, paragraph_id: ids[0], take_id: third }), 404, "not_found");
    refused(await call(client, "delete_take", { script_id: scriptId, paragraph_id: ids[0] }), 422, "validation_failed");
  });

  it("keeps at most six takes a paragraph: the oldest that is not chosen falls off", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["Again and again."]);
    const made: string[] = [];
    for (let round = 0; round < 3; round++) made.push(...ok(await call(client, "voice", { script_id: scriptId, takes: 3, force: true })).voiced[0].take_ids);
    const listed = ok(await query(client, "takes", { script_id: scriptId })).paragraphs[0];
    expect(listed.takes.map((take: Row) => take.take_id)).toEqual(made.slice(3).reverse());
    expect(listed.chosen_take_id).toBe(made[6]);
    expect(await prisma().scriptTake.count({ where: { paragraph_id: ids[0] } })).toBe(6);
  });

  it("shows the chosen take in scripts.open, and a duplicate keeps every take and the choice; a file goes only with the last take that plays it", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["Copied with its voice.", "Never voiced."]);
    const [first, second] = ok(await call(client, "voice", { script_id: scriptId, paragraph_ids: [ids[0]], takes: 2 })).voiced[0].take_ids;
    ok(await call(client, "choose_take", { script_id: scriptId, paragraph_id: ids[0], take_id: second }));
    const opened = ok(await query(client, "open", { script_id: scriptId }));
    expect(opened.paragraphs[0].recording).toMatchObject({ take_id: second, voice_ref: "local/en-us", stale: false });
    expect(opened.paragraphs[0].recording.duration_ms).toBeGreaterThan(0);
    expect(opened.paragraphs[1].recording).toBeNull();

    const copyId = ok(await call(client, "duplicate", { script_id: scriptId })).script_id as string;
    const copied = ok(await query(client, "takes", { script_id: copyId })).paragraphs;
    expect(copied[0].takes).toHaveLength(2);
    expect(copied[0].takes.map((take: Row) => take.take_id)).not.toContain(first);
    const copyChosen = copied[0].chosen_take_id as string;
    expect(copied[0].takes.find((take: Row) => take.chosen).take_id).toBe(copyChosen);
    expect(copied[1]).toMatchObject({ status: "unvoiced", takes: [] });
    const copyParagraph = copied[0].paragraph_id as string;
    const original = (await audioOf(client, { script_id: scriptId, paragraph_id: ids[0]! })).bytes;
    expect((await audioOf(client, { script_id: copyId, paragraph_id: copyParagraph })).bytes).toEqual(original);

    // Deleting every take of the copy leaves the original's audio where it was.
    for (const take of copied[0].takes as Row[]) ok(await call(client, "delete_take", { script_id: copyId, paragraph_id: copyParagraph, take_id: take.take_id }));
    const played = await audioOf(client, { script_id: scriptId, paragraph_id: ids[0]! });
    expect(played.status).toBe(200);
    expect(played.bytes).toEqual(original);
  });
});

describe("files of deleted takes", () => {
  it("go once their script or paragraph is deleted, unless a duplicate still plays them", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["Kept while the copy plays it.", "Goes with its paragraph."]);
    ok(await call(client, "voice", { script_id: scriptId }));
    const takes = await prisma().scriptTake.findMany({ where: { script_id: scriptId }, select: { paragraph_id: true, storage_key: true } });
    const [kept, dropped] = ids.map((paragraphId) => takes.find((take) => take.paragraph_id === paragraphId)!.storage_key);
    // The file service of this test's service: the same data directory, the same database.
    const { storage } = await createFileService(prisma(), { ...loadConfig({}), dataDir: path.join(os.tmpdir(), "cutroom-test-data") });
    const stored = async (key: string) => (await storage.stat(key)) !== null;
    // A file is kept as long as a hand-over's links last (30 days); here, what was listed until now goes.
    const sweep = () => deleteOrphanedFiles(prisma(), storage, new Date(Date.now() + 1000));
    expect([await stored(kept!), await stored(dropped!)]).toEqual([true, true]);

    // The paragraph goes, its take with it (a cascade): listed, but kept while a link could play it.
    ok(await call(client, "delete_paragraphs", { script_id: scriptId, paragraph_ids: [ids[1]] }));
    await deleteOrphanedFiles(prisma(), storage);
    expect(await stored(dropped!)).toBe(true);
    expect(await prisma().storageOrphan.count({ where: { storage_key: dropped! } })).toBe(1);
    await sweep();
    expect(await stored(dropped!)).toBe(false);

    // A duplicate's take plays the same file: deleting the original keeps it.
    const copyId = ok(await call(client, "duplicate", { script_id: scriptId })).script_id as string;
    ok(await call(client, "delete", { script_id: scriptId }));
    await sweep();
    expect(await stored(kept!)).toBe(true);
    expect((await audioOf(client, { script_id: copyId, paragraph_id: (await prisma().scriptParagraph.findFirstOrThrow({ where: { script_id: copyId } })).paragraph_id })).status).toBe(200);

    // The last script holding it goes: so does the file, and nothing is left listed for it.
    ok(await call(client, "delete", { script_id: copyId }));
    await sweep();
    expect(await stored(kept!)).toBe(false);
    expect(await prisma().storageOrphan.count({ where: { storage_key: { in: [kept!, dropped!] } } })).toBe(0);
  });

  it("lists a clip's file when its script goes, not when the clip is deleted by itself (its file stays)", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["Filmed twice."]);
    const takeId = ok(await call(client, "voice", { script_id: scriptId })).voiced[0].take_ids[0] as string;
    const clip = (name: string) => ({ clip_id: `clip_${name}`, script_id: scriptId, paragraph_id: ids[0]!, take_id: takeId, face_url: "https://faces.example/a.png", model: "local/still", status: "completed", storage_key: `clips/test/${scriptId}/${name}.mp4` });
    await prisma().scriptClip.createMany({ data: [clip("alone"), clip("with_script")] });
    const listed = (name: string) => prisma().storageOrphan.count({ where: { storage_key: clip(name).storage_key } });

    ok(await call(client, "delete_clip", { script_id: scriptId, paragraph_id: ids[0], clip_id: "clip_alone" }));
    expect(await listed("alone")).toBe(0);
    ok(await call(client, "delete", { script_id: scriptId }));
    expect(await listed("with_script")).toBe(1);
  });
});

describe("pace, narration, listen and export", () => {
  it("stores a rate, tells null from 1, plays the narration in order without padding, and times the vtt from the takes", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["The first line is here.", "A second one follows.", "Not voiced yet."]);
    ok(await call(client, "voice", { script_id: scriptId, paragraph_ids: [ids[0], ids[1]] }));
    const paced = ok(await call(client, "pace", { script_id: scriptId, paragraph_ids: [ids[0]], rate: 1 }));
    expect(paced).toMatchObject({ rate: 1, paragraphs: [{ paragraph_id: ids[0], playback_rate: 1 }], changed: [{ paragraph_id: ids[0] }] });
    refused(await call(client, "pace", { script_id: scriptId, rate: 3.5 }), 422, "validation_failed");
    refused(await call(client, "pace", { script_id: scriptId, rate: 2, clear: true }), 422, "validation_failed");

    // speed applies to paragraphs whose rate is null, not to the one set at 1.
    const narration = ok(await query(client, "narration", { script_id: scriptId, speed: 2 }));
    const [one, two] = narration.parts;
    expect([one.rate, two.rate, one.playback_rate, two.playback_rate]).toEqual([1, 2, 1, null]);
    expect(one.duration_ms).toBe(one.recorded_ms);
    expect(two.duration_ms).toBe(Math.round(two.recorded_ms / 2));
    expect(two.start_ms).toBe(one.duration_ms);
    expect(narration).toMatchObject({ complete: false, runtime_ms: one.duration_ms + two.duration_ms, unrecorded: [{ paragraph_id: ids[2], words: 3 }] });

    ok(await call(client, "pace", { script_id: scriptId, paragraph_ids: [ids[1]], rate: 1.5 }));
    const cleared = ok(await call(client, "pace", { script_id: scriptId, clear: true }));
    expect(cleared.paragraphs.map((paragraph: Row) => paragraph.playback_rate)).toEqual([null, null, null]);
    expect(cleared.changed.map((entry: Row) => entry.paragraph_id)).toEqual([ids[0], ids[1]]);

    const plain = ok(await query(client, "narration", { script_id: scriptId }));
    const exported = ok(await query(client, "export", { script_id: scriptId, format: "vtt" }));
    expect(exported.timing).toBe("mixed");
    const timing = ok(await query(client, "timing", { script_id: scriptId }));
    expect(timing.paragraphs.slice(0, 2).map((paragraph: Row) => [paragraph.source, paragraph.duration_ms])).toEqual(plain.parts.map((part: Row) => ["recording", part.recorded_ms]));
    // The second paragraph's last cue ends where its take does.
    expect(exported.content).toContain(` --> ${timing.paragraphs[1].end_timecode}\n`);
  });

  it("answers one take's audio as stored, and up to four paragraphs joined", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["One line.", "Two lines now.", "Three.", "Four.", "Five."]);
    const voiced = ok(await call(client, "voice", { script_id: scriptId, paragraph_ids: ids.slice(0, 4) }));
    const single = await audioOf(client, { script_id: scriptId, paragraph_id: ids[0]! });
    expect([single.status, single.type]).toEqual([200, "audio/wav"]);
    expect(Math.round(probedSeconds(single.bytes) * 1000)).toBe(voiced.voiced[0].duration_ms);

    const joined = await audioOf(client, { script_id: scriptId, paragraph_ids: `${ids[1]},${ids[0]}` });
    expect(joined.status).toBe(200);
    const expected = (voiced.voiced[0].duration_ms + voiced.voiced[1].duration_ms) / 1000;
    expect(Math.abs(probedSeconds(joined.bytes) - expected)).toBeLessThan(0.05);
    expect(refused(await query(client, "listen", { script_id: scriptId, paragraph_ids: ids.join(",") }), 422, "validation_failed").details.issues[0].path).toBe("paragraph_ids");
    expect(refused(await query(client, "listen", { script_id: scriptId, paragraph_id: ids[4]! }), 400, "invalid_request").details).toEqual({ unvoiced: [ids[4]] });
    refused(await query(client, "listen", { script_id: scriptId }), 422, "validation_failed");

    const json = ok(await client.get(`/api/v1/actions/scripts.listen?script_id=${scriptId}&take_id=${voiced.voiced[2].take_ids[0]}`, { headers: { accept: "application/json" } }));
    expect(json).toMatchObject({ object: "file", content_type: "audio/wav", duration_seconds: voiced.voiced[2].duration_ms / 1000 });
  });
});
