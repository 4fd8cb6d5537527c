// The free reads and analyses of a script, end to end: scripts.read (filters), scripts.timing (the
// running order), scripts.speech_check (what the voice is handed, after the workspace's spoken
// rules), scripts.report and scripts.retention, with the numbers docs/scripts.md defines. The pure
// parts the service cannot reach yet (recorded takes) are checked on their functions.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type Client } from "../support/service.js";
import { timeline } from "../../src/scripts/timing.js";
import { checkSpeech, englishNumber } from "../../src/scripts/analysis/speech.js";
import { applySpoken, findTerm, styleBreaks, type StyleRuleRow } from "../../src/scripts/style-rules.js";
import { ok } from "../support/action-calls.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;  

const post = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const get = (client: Client, name: string, input: Record<string, unknown>) =>
  client.get(`/api/v1/actions/scripts.${name}?${new URLSearchParams(Object.entries(input).map(([key, value]) => [key, typeof value === "object" ? JSON.stringify(value) : String(value as string | number | boolean)]))}`);

/** A script with these paragraphs (text, role); their ids in order. */
async function scriptWith(client: Client, meta: Record<string, unknown>, paragraphs: [string, string?][]): Promise<{ scriptId: string; ids: string[] }> {
  const { script_id: scriptId } = ok(await post(client, "create", meta));
  const ids: string[] = [];
  for (const [text, role] of paragraphs) ids.push(ok(await post(client, "insert_paragraph", { script_id: scriptId, text, ...(role && { role }) })).paragraph.paragraph_id);
  return { scriptId, ids };
}

const words = (count: number, word = "word") => Array.from({ length: count }, () => word).join(" ");

describe("scripts.read", () => {
  it("reads the whole script with no filter, and narrows by ids, range (ids or positions), role and words", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, { title: "Reading" }, [
      ["Cats purr.", "hook"],
      ["They purr when content.", "body"],
      ["Kittens purr while nursing.", "example"],
      ["Lions cannot PURR at all.", "body"],
      ["Subscribe.", "cta"],
    ]);
    const all = ok(await get(client, "read", { script_id: scriptId, request: { trace: 7 } }));
    expect(all).toMatchObject({ object: "script_text", title: "Reading", matched: 5, total_paragraphs: 5, request: { trace: 7 } });
    expect(all.paragraphs.map((paragraph: Row) => paragraph.paragraph_id)).toEqual(ids);
    expect(all.text).toBe("Cats purr.\n\nThey purr when content.\n\nKittens purr while nursing.\n\nLions cannot PURR at all.\n\nSubscribe.");
    expect(all.words).toBe(2 + 4 + 4 + 5 + 1);
    expect(all.paragraphs[1]).toMatchObject({ speaker_name: "Narrator", start_ms: 800, timecode: "00:00:00.800" });

    // Positions come as query-string digits; ids work as bounds too; the range is inclusive.
    const range = ok(await get(client, "read", { script_id: scriptId, from: 1, to: 3 }));
    expect(range.paragraphs.map((paragraph: Row) => paragraph.position)).toEqual([1, 2, 3]);
    const byIds = ok(await get(client, "read", { script_id: scriptId, from: ids[2], to: ids[4] }));
    expect(byIds.paragraphs.map((paragraph: Row) => paragraph.position)).toEqual([2, 3, 4]);
    // Filters narrow together; query ignores case.
    const narrowed = ok(await get(client, "read", { script_id: scriptId, from: 1, role: "body", query: "purr" }));
    expect(narrowed.paragraphs.map((paragraph: Row) => paragraph.text)).toEqual(["They purr when content.", "Lions cannot PURR at all."]);
    const chosen = ok(await get(client, "read", { script_id: scriptId, paragraph_ids: [ids[4], ids[0]].join(",") }));
    expect(chosen.paragraphs.map((paragraph: Row) => paragraph.paragraph_id)).toEqual([ids[0], ids[4]]);

    // The same read through GraphQL, its fields selected.
    const graphql = await client.graphql(`query($input: ScriptsReadInput!) { scripts_read(input: $input) { object matched paragraphs { position role text } } }`, { input: { script_id: scriptId, from: 3 } });
    expect(graphql.body.data.scripts_read).toEqual({ object: "script_text", matched: 2, paragraphs: [{ position: 3, role: "body", text: "Lions cannot PURR at all." }, { position: 4, role: "cta", text: "Subscribe." }] });
  });

  it("refuses ids that are not in the script (404 naming them) and a range that runs backwards (400)", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, {}, [["One."], ["Two."]]);
    const missing = await get(client, "read", { script_id: scriptId, paragraph_ids: `${ids[0]},par_nope` });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "not_found", param: "paragraph_ids", details: { missing: ["par_nope"] } });
    expect((await get(client, "read", { script_id: scriptId, from: "par_nope" })).body.error).toMatchObject({ code: "not_found", param: "from" });
    const backwards = await get(client, "read", { script_id: scriptId, from: 1, to: 0 });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toMatchObject({ code: "invalid_request", param: "from" });
    const badRole = await get(client, "read", { script_id: scriptId, role: "chorus" });
    expect(badRole.status).toBe(422);
    expect(badRole.body.error.details.issues[0]).toMatchObject({ path: "role", type: "any.only" });
  });
});

describe("scripts.timing", () => {
  it("lays paragraphs end to end, each estimated from its words at the language's rate and its playback rate", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, { language: "de", target_duration_ms: 10_000 }, [[words(9), "hook"], [words(18)], [words(27), "outro"]]);
    // German is 135 words a minute: 9 words are 4 s. A paragraph at 1.5× plays in two thirds.
    await prisma().scriptParagraph.update({ where: { paragraph_id: ids[1]! }, data: { playback_rate: 1.5 } });
    const timing = ok(await get(client, "timing", { script_id: scriptId }));
    expect(timing.paragraphs.map((paragraph: Row) => [paragraph.start_ms, paragraph.duration_ms, paragraph.end_ms, paragraph.source])).toEqual([
      [0, 4000, 4000, "estimate"],
      [4000, 5333, 9333, "estimate"],
      [9333, 12_000, 21_333, "estimate"],
    ]);
    expect(timing.paragraphs[2]).toMatchObject({ timecode: "00:00:09.333", end_timecode: "00:00:21.333", role: "outro", words: 27, stale: false });
    expect(timing.runtime).toEqual({ total_ms: 21_333, measured_ms: 0, estimated_ms: 21_333, target_ms: 10_000, difference_ms: 11_333, verdict: "long", rate: { unit: "words", per_minute: 135 } });
  });

  it("times a recorded paragraph by its take at its playback rate, and marks a take of other words stale", () => {
    const paragraphs = [
      { paragraph_id: "a", text: words(10), playback_rate: null },
      { paragraph_id: "b", text: "Changed words.", playback_rate: 2 },
      { paragraph_id: "c", text: words(5), playback_rate: null },
    ];
    const timed = timeline(paragraphs, "en", new Map([["b", { duration_ms: 5000, text: "Old words." }]]));
    expect(timed.map((entry) => [entry.start_ms, entry.duration_ms, entry.source, entry.stale])).toEqual([
      [0, 4000, "estimate", false],
      [4000, 2500, "recording", true],
      [6500, 2000, "estimate", false],
    ]);
  });
});

describe("scripts.speech_check", () => {
  it("hands the voice the words after the spoken rules and flags what it may read wrongly, with offsets into them", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, { language: "en-US" }, [
      ["Our SQL course costs $49 at example.com, e.g. 50% off. NASA said so. She sells sea shells."],
      ["Plain words only here."],
    ]);
    ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "spoken", term: "SQL", replacement: "sequel" }));
    const check = ok(await get(client, "speech_check", { script_id: scriptId }));
    expect(check).toMatchObject({ object: "script_speech_check", language: "en", paragraphs_flagged: 1 });
    const [first, second] = check.paragraphs;
    expect(first).toMatchObject({ paragraph_id: ids[0], spoken_text: "Our sequel course costs $49 at example.com, e.g. 50% off. NASA said so. She sells sea shells." });
    expect(first.rules_applied).toEqual([expect.objectContaining({ term: "SQL", replacement: "sequel", count: 1 })]);
    expect(first.flags.map((flag: Row) => [flag.kind, flag.text, flag.spoken_as])).toEqual([
      ["symbol", "$", "dollars"],
      ["digits", "49", "forty-nine"],
      ["url", "example.com", null],
      ["abbreviation", "e.g.", "for example"],
      ["digits", "50", "fifty"],
      ["symbol", "%", "percent"],
      ["acronym", "NASA", null],
      ["sibilant_run", "She sells sea shells", null],
    ]);
    for (const flag of first.flags) expect(first.spoken_text.slice(flag.start, flag.end)).toBe(flag.text);
    expect(second.flags).toEqual([]);
    expect(check.totals).toEqual({ url: 1, abbreviation: 1, acronym: 1, digits: 2, symbol: 2, sibilant_run: 1 });
  });

  it("claims spans in order: an address's dots and digits are the address's, a unit after a number is not an acronym", () => {
    const { flags } = checkSpeech("See https://cutroom.example/v2?id=7, then mail hi@cutroom.io. It weighs 5 kg and 3.5GB, in the 1990s, on the 3rd.", [], "en");
    expect(flags.map((flag) => [flag.kind, flag.text])).toEqual([
      ["url", "https://cutroom.example/v2?id=7"],
      ["url", "hi@cutroom.io"],
      ["digits", "5"],
      ["abbreviation", "kg"],
      ["digits", "3.5"],
      ["abbreviation", "GB"],
      ["digits", "1990"],
      ["digits", "3rd"],
    ]);
    // Readings are English: another language gets the flags without them.
    expect(checkSpeech("Il coûte 12 €.", [], "fr").flags.map((flag) => [flag.kind, flag.spoken_as])).toEqual([["digits", null], ["symbol", null]]);
    expect(englishNumber(1204)).toBe("one thousand two hundred four");
    expect(englishNumber(90_015)).toBe("ninety thousand fifteen");
  });

  it("finds terms as whole words, any case for a lower-case term, as written for one with a capital", () => {
    expect(findTerm("Utilize it; we utilize; reutilize.", "utilize").map((match) => match.match)).toEqual(["Utilize", "utilize"]);
    expect(findTerm("The US and us.", "US").map((match) => match.index)).toEqual([4]);
    expect(findTerm("in  order\nto", "in order to")).toHaveLength(1);
    const rule = (kind: string, term: string, replacement: string | null): StyleRuleRow => ({ rule_id: `${kind}-${term}`, kind, term, replacement, note: null, brief: null, created_at: new Date() });
    // Longest term first: "e.g." is replaced before a rule for "e" could split it.
    expect(applySpoken("e.g. e", [rule("spoken", "e", "ee"), rule("spoken", "e.g.", "for example")]).text).toBe("for example ee");
    expect(styleBreaks("We utilize, in order to.", [rule("banned", "utilize", "use"), rule("preferred", "in order to", "to"), rule("spoken", "we", "oui")]).map((found) => [found.kind, found.match, found.index])).toEqual([
      ["banned", "utilize", 3],
      ["preferred", "in order to", 12],
    ]);
  });
});

describe("scripts.report", () => {
  it("measures runtime against target, shape by role, house-style breaks, repeated openings and recordings", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids } = await scriptWith(client, { language: "en", target_duration_ms: 60_000 }, [
      ["So we utilize cats.", "intro"],
      ["So we purr in order to relax.", "body"],
      ["Subscribe now.", "cta"],
      ["Thanks for watching.", "outro"],
    ]);
    ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "banned", term: "utilize", replacement: "use" }));
    ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "preferred", term: "in order to", replacement: "to" }));
    const report = ok(await get(client, "report", { script_id: scriptId }));
    expect(report).toMatchObject({ object: "script_report", paragraphs: 4, words: 16 });
    // 16 words at 150 a minute: 6.4 s against a minute.
    expect(report.runtime).toMatchObject({ total_ms: 6400, target_ms: 60_000, difference_ms: -53_600, verdict: "short" });
    expect(report.shape.roles.find((role: Row) => role.role === "body")).toEqual({ role: "body", paragraphs: 1, words: 7, duration_ms: 2800, share: 0.438 });
    expect(report.shape.roles.map((role: Row) => role.role)).toEqual(["hook", "intro", "body", "transition", "example", "punchline", "cta", "outro"]);
    // The intro is exactly 25% of the runtime: not over the line.
    expect(report.shape.findings.map((finding: Row) => [finding.code, finding.paragraph_id])).toEqual([["no_hook", ids[0]], ["early_cta", ids[2]]]);
    expect(report.style).toMatchObject({ banned: 1, preferred: 1 });
    expect(report.style.breaks.map((found: Row) => [found.kind, found.paragraph_id, found.match, found.replacement])).toEqual([
      ["banned", ids[0], "utilize", "use"],
      ["preferred", ids[1], "in order to", "to"],
    ]);
    expect(report.repeated_openings).toEqual([{ opening: "so we", paragraph_ids: [ids[0], ids[1]], positions: [0, 1] }]);
    expect(report.recordings).toEqual({ recorded: 0, unrecorded: 4, stale: [] });
    expect(report.issues).toBe(5);
  });

  it("says an empty script is empty, and a script on target is on target", async () => {
    const { client } = await createFixture(service);
    const empty = await scriptWith(client, {}, []);
    const report = ok(await get(client, "report", { script_id: empty.scriptId }));
    expect(report.shape.findings).toEqual([{ code: "empty", message: "The script has no paragraphs yet.", paragraph_id: null }]);
    expect(report.runtime.verdict).toBe("no_target");
    // 25 words are 10 s: within 10% of an 11 s target.
    const close = await scriptWith(client, { target_duration_ms: 11_000 }, [[words(25), "hook"]]);
    expect(ok(await get(client, "report", { script_id: close.scriptId })).runtime.verdict).toBe("on_target");
  });
});

describe("scripts.retention", () => {
  it("scores each paragraph by the reasons a viewer may stop there, and names the first likely stop", async () => {
    const { client } = await createFixture(service);
    const short = (subject: string) => Array.from({ length: 10 }, (_, index) => `${index === 0 ? subject : "They"} keep exactly eight words in each line.`).join(" ");
    const { scriptId, ids } = await scriptWith(client, {}, [
      [`${words(40, "long")}.`, "body"], // 16 s, one 40-word sentence, and no hook
      ["For example, 1, 2, 3 and 4 cats.", "example"], // four numbers
      [short("Cats"), "body"], // 80 words: 32 s
      [short("Dogs"), "body"], // 32 s more of body: 64 s since the example
      ["Thanks for watching.", "outro"],
    ]);
    const retention = ok(await get(client, "retention", { script_id: scriptId }));
    const codes = retention.paragraphs.map((paragraph: Row) => paragraph.reasons.map((reason: Row) => reason.code));
    expect(codes).toEqual([["slow_open", "weak_open", "long_sentence"], ["dense_numbers"], ["long_paragraph"], ["long_paragraph", "same_pace"], ["ending_signal"]]);
    expect(retention.paragraphs.map((paragraph: Row) => [paragraph.risk, paragraph.level])).toEqual([[0.9, "high"], [0.2, "low"], [0.3, "medium"], [0.6, "high"], [0.5, "medium"]]);
    expect(retention.paragraphs[3]).toMatchObject({ paragraph_id: ids[3], start_ms: 16_000 + 3200 + 32_000, timecode: "00:00:51.200" });
    expect(retention.likely_stop).toMatchObject({ paragraph_id: ids[0], timecode: "00:00:00.000", level: "high" });
  });

  it("has no likely stop when every paragraph is low risk", async () => {
    const { client } = await createFixture(service);
    const { scriptId } = await scriptWith(client, {}, [["Cats purr for many reasons.", "hook"], ["Here is the first one.", "body"]]);
    const retention = ok(await get(client, "retention", { script_id: scriptId }));
    expect(retention.paragraphs.every((paragraph: Row) => paragraph.level === "low")).toBe(true);
    expect(retention.likely_stop).toBeNull();
  });
});
