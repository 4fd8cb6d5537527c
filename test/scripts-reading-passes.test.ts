// The passes that read (docs/scripts.md, "Passes that read") and the prompts of every pass of this
// family's reading and research half: scripts.check_flow, analyze, suggest_hooks, suggest_titles
// and write_variants judge and change nothing; all seven carry the brief. Through the real text
// adapter against the provider stand-in, which keeps each chat's whole prompt, model and answer
// schema, so a test can read what the service sent.
import { describe, expect, it } from "vitest";
import { useService, useStandIn, type ApiResponse, type Client } from "./support/service.js";
import type { StandInCall } from "./support/provider-standin/index.js";
import { balanceOf, funded, ok } from "./support/action-calls.js";

type Row = Record<string, any>;

const overrides = {};
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;
/** The chat requests the stand-in received, oldest first. */
const chats = () => standIn().calls("openai.chat");

function refused(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status });
  return response.body.error as Row;
}

const query = (input: Record<string, unknown>) =>
  Object.entries(input)
    .map(([key, value]) => `${key}=${encodeURIComponent(typeof value === "string" ? value : JSON.stringify(value))}`)
    .join("&");
const get = (client: Client, name: string, input: Record<string, unknown>) => client.get(`/api/v1/actions/scripts.${name}?${query(input)}`);
const post = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);

/** A script of `texts`, in order; its id and its paragraphs' ids. */
async function writeScript(client: Client, meta: Record<string, unknown>, texts: (string | { text: string; role?: string })[]) {
  const scriptId = ok(await post(client, "create", meta)).script_id as string;
  const ids: string[] = [];
  for (const entry of texts) {
    const paragraph = typeof entry === "string" ? { text: entry } : entry;
    ids.push(ok(await post(client, "insert_paragraph", { script_id: scriptId, ...paragraph })).paragraph.paragraph_id);
  }
  return { scriptId, ids };
}

/** Everything a pass that reads must leave as it was. */
async function stateOf(scriptId: string) {
  const [script, paragraphs, edits, snapshots, sources] = await Promise.all([
    prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } }),
    prisma().scriptParagraph.findMany({ where: { script_id: scriptId }, orderBy: { position: "asc" } }),
    prisma().scriptEdit.count({ where: { script_id: scriptId } }),
    prisma().scriptSnapshot.count({ where: { script_id: scriptId } }),
    prisma().scriptSource.count({ where: { script_id: scriptId } }),
  ]);
  return { script, paragraphs, edits, snapshots, sources };
}

const userPrompt = (chat: StandInCall) => chat.messages!.user;

describe("the brief every prompt carries", () => {
  it("tone, audience, language, the banned and preferred rules (never the spoken ones) and each margin note go into every pass's prompt", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await writeScript(client, { topic: "Why cats purr", tone: "playful", audience: "curious children", language: "fr" }, [
      "Cats purr at 25 to 150 hertz.",
      "Nobody knows exactly why they do it.",
    ]);
    ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "banned", term: "utilize", replacement: "use" }));
    ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "preferred", term: "feline", replacement: "cat" }));
    ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "spoken", term: "Hz", replacement: "hertz" }));
    ok(await post(client, "annotate_paragraph", { script_id: scriptId, paragraph_id: ids[1], note: "Make it a question to the viewer" }));

    const calls: [string, ApiResponse][] = [];
    const run = async (name: string, response: Promise<ApiResponse>) => {
      const from = chats().length;
      calls.push([name, await response]);
      return chats().slice(from);
    };
    const prompts = new Map<string, StandInCall[]>();
    prompts.set("check_flow", await run("check_flow", get(client, "check_flow", { script_id: scriptId })));
    prompts.set("analyze", await run("analyze", get(client, "analyze", { script_id: scriptId })));
    prompts.set("suggest_hooks", await run("suggest_hooks", get(client, "suggest_hooks", { script_id: scriptId })));
    prompts.set("suggest_titles", await run("suggest_titles", get(client, "suggest_titles", { script_id: scriptId })));
    prompts.set("write_variants", await run("write_variants", get(client, "write_variants", { script_id: scriptId, paragraph_id: ids[1], instruction: "shorter" })));
    prompts.set("research_topic", await run("research_topic", post(client, "research_topic", { script_id: scriptId })));
    prompts.set("research_all", await run("research_all", post(client, "research_all", { script_id: scriptId })));
    for (const [name, response] of calls) expect(response.status, `${name}: ${response.text}`).toBe(200);

    for (const [name, requests] of prompts) {
      expect(requests.length, name).toBeGreaterThanOrEqual(1);
      for (const chat of requests) {
        const text = userPrompt(chat);
        expect(text, name).toContain("Tone: playful");
        expect(text, name).toContain("Audience: curious children");
        expect(text, name).toContain("Language: fr");
        expect(text, name).toContain('Never write "utilize"; write "use" instead.');
        expect(text, name).toContain('Prefer "cat" over "feline".');
        expect(text, name).not.toContain('"Hz"');
        expect(text, name).toContain("Instruction for this paragraph: Make it a question to the viewer");
      }
    }
    // research_all's two calls: the claims, then the verdicts (when something was searched).
    expect(prompts.get("research_all")!.map((chat) => chat.summary.schema_name)).toEqual(["script_claims", "script_fact_check"]);
    // At most 4 subjects: the model cannot answer a fifth.
    expect((prompts.get("research_all")![0]!.schema as Row).properties.claims.maxItems).toBe(4);
    expect(userPrompt(prompts.get("write_variants")![0]!)).toContain("The writer asks: shorter");
  });
});

describe("passes that read change nothing", () => {
  it("each answers its judgement over REST and GraphQL, costs one credit, and leaves the revision, paragraphs, edit log, restore points and sources as they were", async () => {
    const { client, workspaceId } = await funded(service, 50);
    const { scriptId, ids } = await writeScript(client, { title: "Purring" }, [{ text: "Why do cats purr?", role: "hook" }, "They purr at 25 to 150 hertz.", "Some say it heals bones."]);
    const before = await stateOf(scriptId);
    const balance = await balanceOf(service, workspaceId);

    const flow = ok(await get(client, "check_flow", { script_id: scriptId, request: { ticket: 7 } }));
    expect(flow).toMatchObject({ object: "script_flow", script_id: scriptId, revision: before.script.revision, seams: 2, request: { ticket: 7 }, credits: { cost: 1, charged: 1 } });
    for (const issue of flow.issues) expect([ids[0], ids[1]]).toContain(issue.paragraph_id);
    const analysis = ok(await get(client, "analyze", { script_id: scriptId }));
    expect(analysis).toMatchObject({ object: "script_analysis", revision: before.script.revision, credits: { cost: 1, charged: 1 } });
    const hooks = ok(await get(client, "suggest_hooks", { script_id: scriptId, count: 2 }));
    expect(hooks.hooks.length).toBeGreaterThanOrEqual(1);
    expect(hooks.hooks.length).toBeLessThanOrEqual(2);
    const titles = ok(await get(client, "suggest_titles", { script_id: scriptId, count: 3 }));
    expect(titles.titles.length).toBeGreaterThanOrEqual(1);
    expect(titles.titles.length).toBeLessThanOrEqual(3);
    const variants = ok(await get(client, "write_variants", { script_id: scriptId, paragraph_id: ids[1], count: 2 }));
    expect(variants).toMatchObject({ object: "paragraph_variants", paragraph_id: ids[1], original: "They purr at 25 to 150 hertz." });

    const graphql = await client.graphql(`query($input: ScriptsSuggestTitlesInput!) { scripts_suggest_titles(input: $input) { ... on ScriptsSuggestTitlesResult { object revision titles { title why } credits { charged } } } }`, {
      input: { script_id: scriptId, count: 1 },
    });
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.scripts_suggest_titles).toMatchObject({ object: "script_titles", revision: before.script.revision, credits: { charged: 1 } });
    expect(graphql.body.data.scripts_suggest_titles.titles).toHaveLength(1);

    expect(await stateOf(scriptId)).toEqual(before);
    expect(await balanceOf(service, workspaceId)).toBe(balance - 6);
    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "action.completed" }, orderBy: { seq: "asc" } });
    expect(events.slice(-6).map((event) => (event.data as Row).object.action)).toEqual([
      "scripts.check_flow", "scripts.analyze", "scripts.suggest_hooks", "scripts.suggest_titles", "scripts.write_variants", "scripts.suggest_titles",
    ]);
  });

  it("asks for the default number of suggestions (5 hooks, 5 titles, 3 variants) and caps the model at it", async () => {
    const { client } = await funded(service, 10);
    const { scriptId, ids } = await writeScript(client, { title: "Counts" }, ["One paragraph about bread."]);
    const schemaOf = async (name: string, input: Record<string, unknown>, field: string) => {
      const from = chats().length;
      ok(await get(client, name, { script_id: scriptId, ...input }));
      const chat = chats().slice(from)[0]!;
      return { max: (chat.schema as Row).properties[field].maxItems, prompt: userPrompt(chat) };
    };
    expect(await schemaOf("suggest_hooks", {}, "hooks")).toMatchObject({ max: 5, prompt: expect.stringContaining("exactly 5") });
    expect(await schemaOf("suggest_titles", {}, "titles")).toMatchObject({ max: 5 });
    expect(await schemaOf("write_variants", { paragraph_id: ids[0] }, "variants")).toMatchObject({ max: 3, prompt: expect.stringContaining("exactly 3") });
    expect(await schemaOf("suggest_hooks", { count: 8 }, "hooks")).toMatchObject({ max: 8 });
  });

  it("refuses a script with nothing to judge (400 at script_id, no model call, nothing spent), a missing paragraph (404), and quotes a test key", async () => {
    const fixture = await funded(service, 10);
    const { client, workspaceId } = fixture;
    const { scriptId: empty } = await writeScript(client, { title: "Empty" }, []);
    const { scriptId: single, ids } = await writeScript(client, { title: "Single" }, ["Only one paragraph."]);
    const calls = standIn().calls("openai.chat").length;
    for (const name of ["analyze", "suggest_hooks", "suggest_titles", "check_flow"]) {
      const error = refused(await get(client, name, { script_id: empty }), 400, "invalid_request");
      expect(error, name).toMatchObject({ param: "script_id", details: { paragraphs: 0 } });
    }
    const flow = refused(await get(client, "check_flow", { script_id: single }), 400, "invalid_request");
    expect(flow).toMatchObject({ param: "script_id", details: { paragraphs: 1, required: 2 } });
    expect(refused(await get(client, "write_variants", { script_id: single, paragraph_id: "spg_missing" }), 404, "not_found").param).toBe("paragraph_id");
    expect(standIn().calls("openai.chat").length).toBe(calls);
    expect(await balanceOf(service, workspaceId)).toBe(10);

    const test = await fixture.newKey({ mode: "test" });
    expect(refused(await get(test.client, "check_flow", { script_id: single }), 400, "invalid_request").param).toBe("script_id");
    const quote = ok(await get(test.client, "write_variants", { script_id: single, paragraph_id: ids[0] }));
    expect(quote).toMatchObject({ object: "action_quote", action: "scripts.write_variants", credits: { cost: 1, charged: 0 }, units: 1, capabilities: ["text"] });
    expect(standIn().calls("openai.chat").length).toBe(calls);
  });

  it("the same idempotency_key on a GET answers the stored judgement without a second model call or charge", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId } = await writeScript(client, { title: "Keyed" }, ["Bread rises because yeast makes gas.", "Salt slows it down."]);
    const input = { script_id: scriptId, idempotency_key: "flow-1" };
    const first = ok(await get(client, "check_flow", input));
    const calls = standIn().calls("openai.chat").length;
    const again = ok(await get(client, "check_flow", input));
    expect(again.issues).toEqual(first.issues);
    expect(again.score).toBe(first.score);
    expect(again.credits.charged).toBe(0);
    expect(standIn().calls("openai.chat").length).toBe(calls);
    expect(await balanceOf(service, workspaceId)).toBe(9);
  });
});

describe("scripts.check_flow", () => {
  it("answers the model's score and issues, each naming its seam: the paragraph before and the one after", async () => {
    const { client } = await funded(service, 10);
    const { scriptId, ids } = await writeScript(client, { title: "Seams" }, ["Bread needs yeast.", "The Roman Empire fell in 476.", "So knead for ten minutes."]);
    standIn().answerNext("openai.chat", {
      score: 40,
      summary: "The middle paragraph breaks the thread.",
      issues: [
        { paragraph_id: ids[0], severity: "high", problem: "Jumps from bread to Rome.", suggestion: "Cut the Roman aside." },
        { paragraph_id: ids[1], severity: "medium", problem: "'So' follows nothing.", suggestion: "Start with the kneading." },
      ],
    });
    const flow = ok(await get(client, "check_flow", { script_id: scriptId }));
    expect(flow).toMatchObject({ score: 40, summary: "The middle paragraph breaks the thread.", seams: 2 });
    expect(flow.issues).toEqual([
      { paragraph_id: ids[0], next_paragraph_id: ids[1], severity: "high", problem: "Jumps from bread to Rome.", suggestion: "Cut the Roman aside." },
      { paragraph_id: ids[1], next_paragraph_id: ids[2], severity: "medium", problem: "'So' follows nothing.", suggestion: "Start with the kneading." },
    ]);
    // The last paragraph has no seam after it: the model is not offered it.
    const schema = chats().at(-1)!.schema as Row;
    expect(schema.properties.issues.items.properties.paragraph_id.enum).toEqual([ids[0], ids[1]]);
  });
});

describe("scripts.analyze", () => {
  it("computes reading level, pace and counted density exactly, and asks the model only for judgement", async () => {
    const { client } = await funded(service, 10);
    // 4 sentences, 20 words, 4 of them over 6 letters (remarkable, frequency, somewhere, between): LIX 5 + 20 = 25.
    const { scriptId, ids } = await writeScript(client, { title: "Measured", language: "en" }, [
      { text: "Cats purr. It is remarkable.", role: "hook" },
      "The frequency sits somewhere between 25 and 150 hertz. Dogs never ever purr at all.",
    ]);
    standIn().answerNext("openai.chat", {
      density: { score: 55, comment: "About right." },
      opening: { score: 70, comment: "A clear promise." },
      pace_comment: "Even.",
      drop_off_points: [
        { paragraph_id: ids[1], reason: "Numbers pile up." },
        { paragraph_id: ids[0], reason: "Too short to hook." },
        { paragraph_id: ids[1], reason: "Named twice." },
      ],
    });
    const from = chats().length;
    const analysis = ok(await get(client, "analyze", { script_id: scriptId }));
    expect(analysis.reading_level).toEqual({ index: "lix", score: 25, band: "very_easy", words_per_sentence: 5, long_word_share: 0.2 });
    // Estimated at English's 150 words per minute: 5 words are 2 s, 15 words 6 s.
    expect(analysis.pace).toEqual({
      timing: "estimate",
      duration_ms: 8000,
      words: 20,
      words_per_minute: 150,
      comment: "Even.",
      paragraphs: [
        { paragraph_id: ids[0], timecode: "00:00:00.000", duration_ms: 2000, source: "estimate", words: 5, words_per_minute: 150 },
        { paragraph_id: ids[1], timecode: "00:00:02.000", duration_ms: 6000, source: "estimate", words: 15, words_per_minute: 150 },
      ],
    });
    expect(analysis.density).toEqual({ words_per_paragraph: 10, numbers: 2, numbers_per_100_words: 10, score: 55, comment: "About right." });
    expect(analysis.opening).toEqual({ paragraph_id: ids[0], role: "hook", duration_ms: 2000, words: 5, score: 70, comment: "A clear promise." });
    // In running order, once each, with the timecode of the running order.
    expect(analysis.drop_off_points).toEqual([
      { paragraph_id: ids[0], timecode: "00:00:00.000", start_ms: 0, reason: "Too short to hook." },
      { paragraph_id: ids[1], timecode: "00:00:02.000", start_ms: 2000, reason: "Numbers pile up." },
    ]);
    // The model is handed the measured figures to judge from.
    const text = userPrompt(chats().slice(from)[0]!);
    expect(text).toContain("Reading level LIX 25 (very easy)");
    expect(text).toContain("150 words per minute");
  });

  it("gives no reading level for a language written without spaces, and characters still time it", async () => {
    const { client } = await funded(service, 10);
    const { scriptId } = await writeScript(client, { title: "猫", language: "ja" }, ["猫はなぜ喉を鳴らすのでしょうか。"]);
    const analysis = ok(await get(client, "analyze", { script_id: scriptId }));
    expect(analysis.reading_level).toBeNull();
    expect(analysis.pace.duration_ms).toBeGreaterThan(0);
  });
});

describe("models of the passes that read", () => {
  it("whole-document passes run on the script's model_ref and write_variants on its quick_model_ref", async () => {
    const { client } = await funded(service, 10);
    const models = ok(await client.get("/api/v1/actions/scripts.models")).models as { model_ref: string }[];
    expect(models.length).toBeGreaterThanOrEqual(2);
    const [whole, quick] = [models[0]!.model_ref, models[1]!.model_ref];
    expect(whole).not.toBe(quick);
    const { scriptId, ids } = await writeScript(client, { title: "Models" }, ["Bread needs time.", "Salt slows yeast."]);
    ok(await post(client, "settings", { script_id: scriptId, model_ref: whole, quick_model_ref: quick }));
    const modelOf = async (name: string, input: Record<string, unknown>) => {
      const from = chats().length;
      const body = ok(await get(client, name, { script_id: scriptId, ...input }));
      expect(body.model, name).toBe(`openai/${chats().slice(from)[0]!.model}`);
      return body.model as string;
    };
    expect(await modelOf("write_variants", { paragraph_id: ids[0] })).toBe(quick);
    for (const name of ["check_flow", "analyze", "suggest_hooks", "suggest_titles"]) expect(await modelOf(name, {}), name).toBe(whole);
  });
});
