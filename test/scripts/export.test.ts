// scripts.export, each format read back the way its users read it: srt with a SubRip parser, vtt
// with W3C's WebVTT parser (no errors allowed), csv with csv-parse, json with JSON.parse; txt,
// markdown, teleprompter and shotlist by their structure. Subtitles are timed like scripts.timing
// (estimated until takes exist) and split into cues of at most two 42-character lines.
import { describe, expect, it } from "vitest";
import SrtParser from "srt-parser-2";
import webvtt, { type WebVTTNode } from "webvtt-parser";
import { parse as parseCsv } from "csv-parse/sync";
import { createFixture, useService, type Client } from "../support/service.js";
import { newId } from "../../src/ids.js";
import { CSV_COLUMNS, TELEPROMPTER_WIDTH } from "../../src/scripts/export/formats.js";
import { cueTexts } from "../../src/scripts/export/subtitles.js";
import { ok } from "../support/action-calls.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;  

const post = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const get = (client: Client, name: string, input: Record<string, string>) => client.get(`/api/v1/actions/scripts.${name}?${new URLSearchParams(input)}`);

const LONG =
  "Purring is a low rumble made as the cat breathes in and out. The muscles of the larynx twitch twenty to thirty times a second, opening and closing the glottis so that the air rushing past it vibrates. Nobody taught them.";
const TEXTS = [
  "Cats purr. Nobody fully knows why.",
  LONG,
  'Ada says: <script>alert(1)</script> & "quotes" --> arrows.',
  "=SUM(A1) is not a formula here: subscribe.",
];

/** A script of four paragraphs in two chapters, the third spoken by a second speaker, the second directed. */
async function richScript(client: Client) {
  const { script_id: scriptId } = ok(await post(client, "create", { title: "Why cats purr: a <short> guide", language: "en" }));
  const ids: string[] = [];
  for (const [index, text] of TEXTS.entries()) {
    ids.push(ok(await post(client, "insert_paragraph", { script_id: scriptId, text, role: ["hook", "body", "example", "cta"][index] })).paragraph.paragraph_id);
  }
  const opening = newId("script_chapter");
  const closing = newId("script_chapter");
  const ada = newId("script_speaker");
  await prisma().scriptChapter.createMany({ data: [{ chapter_id: opening, script_id: scriptId, position: 0, title: "The sound" }, { chapter_id: closing, script_id: scriptId, position: 1, title: "The ask" }] });
  await prisma().scriptSpeaker.create({ data: { speaker_id: ada, script_id: scriptId, position: 1, name: "Ada" } });
  await prisma().scriptParagraph.updateMany({ where: { paragraph_id: { in: ids.slice(0, 2) } }, data: { chapter_id: opening } });
  await prisma().scriptParagraph.updateMany({ where: { paragraph_id: { in: ids.slice(2) } }, data: { chapter_id: closing } });
  await prisma().scriptParagraph.update({ where: { paragraph_id: ids[2]! }, data: { speaker_id: ada } });
  await prisma().scriptParagraph.update({
    where: { paragraph_id: ids[1]! },
    data: { visual: { direction: "Slow push in on a sleeping cat", kind: "broll", broll_keywords: ["cat", "larynx"], image_prompt: null }, note: "Keep it calm" },
  });
  return { scriptId, ids };
}

async function exported(client: Client, scriptId: string, format: string): Promise<Row> {
  const answer = ok(await get(client, "export", { script_id: scriptId, format }));
  expect(answer).toMatchObject({ object: "script_export", script_id: scriptId, format, paragraphs: 4, timing: "estimate" });
  expect(answer.size_bytes).toBe(Buffer.byteLength(answer.content, "utf8"));
  return answer;
}

/** The paragraphs' spans from scripts.timing: what the subtitles must follow. */
async function spans(client: Client, scriptId: string): Promise<{ start: number; end: number }[]> {
  return ok(await get(client, "timing", { script_id: scriptId })).paragraphs.map((paragraph: Row) => ({ start: paragraph.start_ms, end: paragraph.end_ms }));
}

// webvtt-parser 2.2.0's default table names references without their ";" ("&lt"), so "&lt;"
// decodes to "<;"; the WebVTT spec's references, given whole, are decoded as the spec says.
const VTT_REFERENCES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&lrm;": "\u200e", "&rlm;": "\u200f", "&nbsp;": "\u00a0" };
const vttParser = () => new webvtt.WebVTTParser(VTT_REFERENCES);

const flat = (text: string) => text.replace(/\s+/g, " ").trim();

/** The cues of each paragraph, by the spans they fall in. */
function byParagraph<T extends { start: number; end: number }>(cues: T[], paragraphSpans: { start: number; end: number }[]): T[][] {
  return paragraphSpans.map((span) => cues.filter((cue) => cue.start >= span.start && cue.end <= span.end));
}

describe("scripts.export: subtitles", () => {
  it("srt: numbered cues back to back over the running order, at most two lines of 42, every word in order", async () => {
    const { client } = await createFixture(service);
    const { scriptId } = await richScript(client);
    const answer = await exported(client, scriptId, "srt");
    expect(answer).toMatchObject({ content_type: "application/x-subrip; charset=utf-8", filename: "why-cats-purr-a-short-guide.srt" });
    const cues = new SrtParser().fromSrt(answer.content).map((cue) => ({ id: cue.id, start: Math.round(cue.startSeconds * 1000), end: Math.round(cue.endSeconds * 1000), text: cue.text }));
    const expected = TEXTS.flatMap((text) => cueTexts(text));
    expect(cues.map((cue) => cue.id)).toEqual(expected.map((_, index) => String(index + 1)));
    // Back to back from 0 to the end of the running order.
    const paragraphSpans = await spans(client, scriptId);
    expect(cues[0]!.start).toBe(0);
    expect(cues.at(-1)!.end).toBe(paragraphSpans.at(-1)!.end);
    for (let index = 1; index < cues.length; index++) expect(cues[index]!.start).toBe(cues[index - 1]!.end);
    for (const cue of cues) {
      expect(cue.end).toBeGreaterThan(cue.start);
      const lines = cue.text.split("\n");
      expect(lines.length).toBeLessThanOrEqual(2);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(42);
    }
    // Each paragraph's cues fill its span and hold its words, in order.
    for (const [index, group] of byParagraph(cues, paragraphSpans).entries()) {
      expect(group[0]!.start).toBe(paragraphSpans[index]!.start);
      expect(group.at(-1)!.end).toBe(paragraphSpans[index]!.end);
      expect(flat(group.map((cue) => cue.text).join(" "))).toBe(flat(TEXTS[index]!));
    }
    // The long paragraph is cut: more than one cue, sentences kept whole where they fit.
    expect(byParagraph(cues, paragraphSpans)[1]!.length).toBeGreaterThan(1);
  });

  it("vtt: parses without a single error; words escaped, speakers named when more than one speaks", async () => {
    const { client } = await createFixture(service);
    const { scriptId } = await richScript(client);
    const answer = await exported(client, scriptId, "vtt");
    expect(answer.content_type).toBe("text/vtt; charset=utf-8");
    expect(answer.content.startsWith("WEBVTT\n\n")).toBe(true);
    const parsed = vttParser().parse(answer.content, "metadata");
    expect(parsed.errors).toEqual([]);
    const text = (nodes: WebVTTNode[]): string => nodes.map((node) => (node.type === "text" ? node.value : node.type === "object" ? text(node.children ?? []) : "")).join("");
    const voice = (nodes: WebVTTNode[]) => nodes.find((node) => node.type === "object" && node.name === "v")?.value;
    const cues = parsed.cues.map((cue) => ({ start: Math.round(cue.startTime * 1000), end: Math.round(cue.endTime * 1000), text: text(cue.tree.children), voice: voice(cue.tree.children) }));
    const paragraphSpans = await spans(client, scriptId);
    const groups = byParagraph(cues, paragraphSpans);
    // The words come back exactly, tags and arrows included: they were escaped, not dropped.
    for (const [index, group] of groups.entries()) expect(flat(group.map((cue) => cue.text).join(" "))).toBe(flat(TEXTS[index]!));
    expect(answer.content).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(answer.content).toContain("&amp; \"quotes\" --&gt; arrows.");
    expect(answer.content).not.toContain("<script>");
    expect(groups.map((group) => [...new Set(group.map((cue) => cue.voice))])).toEqual([["Narrator"], ["Narrator"], ["Ada"], ["Narrator"]]);
    expect(cues.at(-1)!.end).toBe(paragraphSpans.at(-1)!.end);
  });

  it("vtt of a single speaker carries no voice tags; an empty script is a valid empty file", async () => {
    const { client } = await createFixture(service);
    const { script_id: scriptId } = ok(await post(client, "create", {}));
    const empty = ok(await get(client, "export", { script_id: scriptId, format: "vtt" }));
    expect(empty).toMatchObject({ content: "WEBVTT\n", paragraphs: 0, filename: `${scriptId}.vtt` });
    expect(vttParser().parse(empty.content).errors).toEqual([]);
    ok(await post(client, "insert_paragraph", { script_id: scriptId, text: "Only the narrator speaks." }));
    const single = ok(await get(client, "export", { script_id: scriptId, format: "vtt" }));
    expect(single.content).toBe("WEBVTT\n\n00:00:00.000 --> 00:00:01.600\nOnly the narrator speaks.\n");
  });
});

describe("scripts.export: documents", () => {
  it("csv: a header and one row per paragraph; a formula-looking cell is defused", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await richScript(client);
    const answer = await exported(client, scriptId, "csv");
    expect(answer.content_type).toBe("text/csv; charset=utf-8");
    expect(answer.content.split("\r\n")[0]).toBe(CSV_COLUMNS.join(","));
    const rows = parseCsv<Record<string, string>>(answer.content, { columns: true });
    expect(rows).toHaveLength(4);
    expect(rows.map((row) => row.paragraph_id)).toEqual(ids);
    expect(rows.map((row) => row.text)).toEqual([TEXTS[0], TEXTS[1], TEXTS[2], `'${TEXTS[3]}`]);
    expect(rows.map((row) => row.speaker)).toEqual(["Narrator", "Narrator", "Ada", "Narrator"]);
    expect(rows.map((row) => row.chapter)).toEqual(["The sound", "The sound", "The ask", "The ask"]);
    expect(rows[1]).toMatchObject({ role: "body", visual_direction: "Slow push in on a sleeping cat", visual_kind: "broll", broll_keywords: "cat; larynx", note: "Keep it calm", locked: "false", timing: "estimate" });
    const paragraphSpans = await spans(client, scriptId);
    expect(rows.map((row) => [Number(row.start_ms), Number(row.end_ms)])).toEqual(paragraphSpans.map((span) => [span.start, span.end]));
    expect(rows[1]!.start).toBe("00:00:02.400");
  });

  it("json: the document with each paragraph's place in the running order", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await richScript(client);
    const answer = await exported(client, scriptId, "json");
    const document = JSON.parse(answer.content);
    expect(document).toMatchObject({ script_id: scriptId, title: "Why cats purr: a <short> guide", language: "en" });
    expect(document.chapters.map((chapter: Row) => chapter.title)).toEqual(["The sound", "The ask"]);
    expect(document.speakers.map((speaker: Row) => speaker.name)).toEqual(["Narrator", "Ada"]);
    expect(document.paragraphs.map((paragraph: Row) => [paragraph.paragraph_id, paragraph.text, paragraph.speaker_name])).toEqual(ids.map((paragraphId, index) => [paragraphId, TEXTS[index], index === 2 ? "Ada" : "Narrator"]));
    expect(document.paragraphs[1]).toMatchObject({ start_ms: 2400, timecode: "00:00:02.400", chapter_title: "The sound", timing: "estimate", visual: { broll_keywords: ["cat", "larynx"] } });
    expect(document.runtime_ms).toBe(answer.runtime_ms);
  });

  it("txt and markdown: title, chapters, one block per paragraph, speakers named when several speak", async () => {
    const { client } = await createFixture(service);
    const { scriptId } = await richScript(client);
    const txt = (await exported(client, scriptId, "txt")).content as string;
    expect(txt.trimEnd().split("\n\n")).toEqual([
      "Why cats purr: a <short> guide",
      "The sound",
      `Narrator: ${TEXTS[0]}`,
      `Narrator: ${TEXTS[1]}`,
      "The ask",
      `Ada: ${TEXTS[2]}`,
      `Narrator: ${TEXTS[3]}`,
    ]);
    const markdown = await exported(client, scriptId, "markdown");
    expect(markdown).toMatchObject({ content_type: "text/markdown; charset=utf-8", filename: "why-cats-purr-a-short-guide.md" });
    const blocks = (markdown.content as string).trimEnd().split("\n\n");
    expect(blocks[0]).toBe("# Why cats purr: a \\<short\\> guide");
    expect(blocks.filter((block) => block.startsWith("## "))).toEqual(["## The sound", "## The ask"]);
    expect(blocks[5]).toBe('**Ada:** Ada says: \\<script\\>alert(1)\\</script\\> \\& "quotes" --\\> arrows.');
    // Markup characters are escaped: a formula-like or list-like start stays text.
    expect(blocks[6]).toBe("**Narrator:** \\=SUM(A1) is not a formula here: subscribe.");
  });

  it("teleprompter: a cue line per paragraph, lines of at most 32 characters, every word in order", async () => {
    const { client } = await createFixture(service);
    const { scriptId } = await richScript(client);
    const content = (await exported(client, scriptId, "teleprompter")).content as string;
    const blocks = content.trimEnd().split("\n\n");
    expect(blocks[0]).toBe("WHY CATS PURR: A <SHORT> GUIDE");
    expect(blocks[1]).toBe("== THE SOUND ==");
    const paragraphs = blocks.filter((block) => /^\[\d\d:\d\d:\d\d\] /.test(block));
    expect(paragraphs.map((block) => block.split("\n")[0])).toEqual(["[00:00:00] NARRATOR", "[00:00:02] NARRATOR", "[00:00:18] ADA", "[00:00:21] NARRATOR"]);
    for (const [index, block] of paragraphs.entries()) {
      const lines = block.split("\n").slice(1);
      for (const line of lines) expect(line.length <= TELEPROMPTER_WIDTH || !line.includes(" ")).toBe(true);
      expect(lines.join(" ")).toBe(flat(TEXTS[index]!));
    }
  });

  it("shotlist: one shot per paragraph with its in and out points, what is on screen and the line", async () => {
    const { client } = await createFixture(service);
    const { scriptId } = await richScript(client);
    const content = (await exported(client, scriptId, "shotlist")).content as string;
    const [head, ...shots] = content.trimEnd().split("\n\n");
    expect(head).toBe("SHOT LIST: Why cats purr: a <short> guide\nRuntime 00:00:24.400 | 4 shots");
    expect(shots).toHaveLength(4);
    const paragraphSpans = await spans(client, scriptId);
    for (const [index, shot] of shots.entries()) {
      const [number, inPoint, outPoint] = shot.split("\n")[0]!.split(" | ");
      expect(number).toBe(`SHOT ${index + 1}`);
      expect([inPoint, outPoint]).toEqual([paragraphSpans[index]!.start, paragraphSpans[index]!.end].map((ms) => new Date(ms).toISOString().slice(11, 23)));
      expect(shot.split("\n").at(-1)).toBe(`Line: ${flat(TEXTS[index]!)}`);
    }
    expect(shots[1]!.split("\n").slice(1, 5)).toEqual([
      "Speaker: Narrator | Role: body | Chapter: The sound",
      "On screen: (broll) Slow push in on a sleeping cat",
      "B-roll: cat, larynx",
      "Image prompt: -",
    ]);
    expect(shots[0]).toContain("On screen: (not directed yet)");
  });

  it("refuses a format it does not know with the list of those it does", async () => {
    const { client } = await createFixture(service);
    const { script_id: scriptId } = ok(await post(client, "create", {}));
    const refused = await get(client, "export", { script_id: scriptId, format: "docx" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.issues[0]).toMatchObject({ path: "format", type: "any.only" });
    expect(refused.body.error.details.issues[0].message).toContain("teleprompter");
  });
});
