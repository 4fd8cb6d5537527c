// scripts.research_topic and scripts.research_all (docs/scripts.md, "Research"): web searches
// through the search provider, facts filed as the script's sources in one write, credits for what
// ran, and research_all's 409 when the document moved during its calls. Through the real adapters
// against the provider stand-in, with scripted search results and model answers.
import { describe, expect, it } from "vitest";
import { useService, useStandIn, type ApiResponse, type Client } from "./support/service.js";
import { balanceOf, funded, ok } from "./support/action-calls.js";

type Row = Record<string, any>;

const overrides = {};
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;

function refused(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status });
  return response.body.error as Row;
}

const post = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);

const ledger = (workspaceId: string) => prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId }, orderBy: [{ created_at: "asc" }, { transaction_id: "asc" }] });

async function writeScript(client: Client, meta: Record<string, unknown>, texts: string[]) {
  const scriptId = ok(await post(client, "create", meta)).script_id as string;
  const ids: string[] = [];
  for (const text of texts) ids.push(ok(await post(client, "insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
  return { scriptId, ids };
}

/** A SearXNG answer of these results. */
const searxng = (results: { title: string; url: string; content: string }[]) => ({ query: "scripted", results: results.map((result) => ({ ...result, engine: "standin" })) });

const PURR_RESULTS = [
  { title: "Why cats purr", url: "https://science.example.org/purr", content: "Domestic cats purr at frequencies between 25 and 150 Hz." },
  { title: "Purring and healing", url: "https://vet.example.org/heal", content: "Some researchers link purring to bone density." },
];

describe("scripts.research_topic", () => {
  it("searches the question once, files the facts the model drew from the results as research sources, and costs 2 credits", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const { scriptId } = await writeScript(client, { title: "Purring", topic: "Cats" }, ["Cats purr."]);
    const revision = (await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } })).revision;
    standIn().answerNext("searxng.search", searxng(PURR_RESULTS));
    standIn().answerNext("openai.chat", {
      facts: [
        { fact: "Domestic cats purr at 25 to 150 Hz.", result: 1 },
        { fact: "Purring may be linked to bone density.", result: 2 },
      ],
    });
    const searches = standIn().calls("searxng.search").length;
    const body = ok(await post(client, "research_topic", { script_id: scriptId, question: "At what frequency do cats purr?", request: { from: "test" } }));
    expect(body).toMatchObject({ object: "script_research", question: "At what frequency do cats purr?", results: 2, revision: revision + 1, request: { from: "test" }, credits: { cost: 2, charged: 2 } });
    expect(body.facts.map((fact: Row) => [fact.created, fact.source.kind, fact.source.status, fact.source.url, fact.source.title, fact.source.snippet])).toEqual([
      [true, "research", "confirmed", "https://science.example.org/purr", "Why cats purr", "Domestic cats purr at 25 to 150 Hz."],
      [true, "research", "confirmed", "https://vet.example.org/heal", "Purring and healing", "Purring may be linked to bone density."],
    ]);
    const searched = standIn().calls("searxng.search").slice(searches);
    expect(searched.map((call) => call.summary.q)).toEqual(["At what frequency do cats purr?"]);

    // The write: the sources (with the result's own words as excerpt), one log entry each, one restore point.
    const rows = await prisma().scriptSource.findMany({ where: { script_id: scriptId }, orderBy: { created_at: "asc" } });
    expect(rows.map((row) => row.excerpt)).toEqual(PURR_RESULTS.map((result) => result.content));
    const edits = await prisma().scriptEdit.findMany({ where: { script_id: scriptId, action: "scripts.research_topic" } });
    expect(edits.map((edit) => edit.edit_id).sort()).toEqual([...body.edit_ids].sort());
    expect(edits.every((edit) => edit.kind === "source.add")).toBe(true);
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId, action: "scripts.research_topic" } })).toBe(1);
    const opened = ok(await client.get(`/api/v1/actions/scripts.open?script_id=${scriptId}`));
    // scripts.open lists them under `research`, apart from the pages attached.
    expect(opened.research.map((source: Row) => source.source_id)).toEqual(body.facts.map((fact: Row) => fact.source.source_id));
    expect(opened.sources).toEqual([]);
    expect(await balanceOf(service, workspaceId)).toBe(18);

    // The same facts again are not filed twice: answered as they are, nothing written.
    standIn().answerNext("searxng.search", searxng(PURR_RESULTS));
    standIn().answerNext("openai.chat", { facts: [{ fact: "Domestic cats purr at 25 to 150 Hz.", result: 1 }] });
    const again = ok(await post(client, "research_topic", { script_id: scriptId, question: "At what frequency do cats purr?" }));
    expect(again).toMatchObject({ revision: revision + 1, edit_ids: [], facts: [{ created: false, source: { source_id: body.facts[0].source.source_id } }] });
    expect(await prisma().scriptSource.count({ where: { script_id: scriptId } })).toBe(2);
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId, action: "scripts.research_topic" } })).toBe(1);
  });

  it("searches the script's topic when no question is sent, and writes nothing when the results hold no fact", async () => {
    const { client } = await funded(service, 20);
    const { scriptId } = await writeScript(client, { title: "Sourdough", topic: "Sourdough starters" }, []);
    standIn().answerNext("searxng.search", searxng([]));
    standIn().answerNext("openai.chat", { facts: [] });
    const searches = standIn().calls("searxng.search").length;
    const body = ok(await post(client, "research_topic", { script_id: scriptId }));
    expect(body).toMatchObject({ question: "Sourdough starters", results: 0, facts: [], edit_ids: [], credits: { charged: 2 } });
    expect(standIn().calls("searxng.search").slice(searches).map((call) => call.summary.q)).toEqual(["Sourdough starters"]);
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId } })).toBe(0);
    expect(await prisma().scriptSource.count({ where: { script_id: scriptId } })).toBe(0);
  });

  it("with nothing to search is 400 at question before anything is spent; a test key gets a quote and searches nothing", async () => {
    const fixture = await funded(service, 20);
    const { scriptId } = await writeScript(fixture.client, {}, ["Words."]);
    const calls = standIn().calls().length;
    expect(refused(await post(fixture.client, "research_topic", { script_id: scriptId }), 400, "invalid_request").param).toBe("question");
    const test = await fixture.newKey({ mode: "test" });
    const quote = ok(await post(test.client, "research_topic", { script_id: scriptId, question: "Anything" }));
    expect(quote).toMatchObject({ object: "action_quote", credits: { cost: 2, charged: 0 }, capabilities: ["search", "text"] });
    expect(standIn().calls().length).toBe(calls);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(20);
  });
});

describe("scripts.research_all", () => {
  it("searches each claim once (at most 4), files what its results confirm, returns the rest, and spends 2 credits per subject searched", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const { scriptId, ids } = await writeScript(client, { title: "Purring facts" }, [
      "Cats purr at 25 to 150 hertz.",
      "Purring heals broken bones in a week.",
      "Lions purr too.",
    ]);
    const revision = (await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } })).revision;
    standIn().answerNext("openai.chat", {
      claims: [
        { claim: "Cats purr at 25 to 150 hertz.", paragraph_id: ids[0], query: "cat purr frequency hertz" },
        { claim: "Purring heals broken bones in a week.", paragraph_id: ids[1], query: "purring heals bones" },
        { claim: "Lions purr.", paragraph_id: ids[2], query: "do lions purr" },
      ],
    });
    standIn().answerNext("searxng.search", searxng(PURR_RESULTS));
    standIn().answerNext("searxng.search", searxng([PURR_RESULTS[1]!]));
    standIn().answerNext("searxng.search", searxng([]));
    standIn().answerNext("openai.chat", {
      verdicts: [
        { claim: 1, confirmed: true, result: 1, evidence: "Domestic cats purr at frequencies between 25 and 150 Hz.", reason: "" },
        { claim: 2, confirmed: false, result: null, evidence: "", reason: "The results link purring to bone density, not healing in a week." },
        // Confirmed with no result to cite: not a confirmation.
        { claim: 3, confirmed: true, result: null, evidence: "Lions purr.", reason: "" },
      ],
    });
    const searches = standIn().calls("searxng.search").length;
    const body = ok(await post(client, "research_all", { script_id: scriptId }));
    expect(standIn().calls("searxng.search").slice(searches).map((call) => call.summary.q).sort()).toEqual(["cat purr frequency hertz", "do lions purr", "purring heals bones"]);
    expect(body).toMatchObject({ object: "script_fact_check", subjects_searched: 3, revision: revision + 1, credits: { cost: 6, charged: 6 } });
    expect(body.confirmed).toEqual([
      {
        claim: "Cats purr at 25 to 150 hertz.",
        paragraph_id: ids[0],
        query: "cat purr frequency hertz",
        created: true,
        source: expect.objectContaining({ kind: "research", status: "confirmed", url: "https://science.example.org/purr", snippet: "Domestic cats purr at frequencies between 25 and 150 Hz." }),
      },
    ]);
    expect(body.unconfirmed).toEqual([
      { claim: "Purring heals broken bones in a week.", paragraph_id: ids[1], query: "purring heals bones", reason: "The results link purring to bone density, not healing in a week." },
      { claim: "Lions purr.", paragraph_id: ids[2], query: "do lions purr", reason: "The search found nothing." },
    ]);
    // Only the confirmed claim is filed; the unconfirmed ones are answered, not stored.
    expect(await prisma().scriptSource.count({ where: { script_id: scriptId } })).toBe(1);
    expect(body.edit_ids).toHaveLength(1);
    // 8 held (the bound), 6 spent (3 subjects ran), 2 back.
    const rows = await ledger(workspaceId);
    expect(rows.map((row) => [row.action_type, row.amount])).toEqual([["grant", 20], ["scripts.research_all", -8], ["refund", 2]]);
    expect(await balanceOf(service, workspaceId)).toBe(14);
  });

  it("answers 409 conflict and files nothing when the script changed while it searched; the hold comes back", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const { scriptId, ids } = await writeScript(client, { title: "Moving" }, ["Cats purr at 25 to 150 hertz."]);
    standIn().answerNext("openai.chat", { claims: [{ claim: "Cats purr at 25 to 150 hertz.", paragraph_id: ids[0], query: "cat purr frequency" }] });
    standIn().answerNext("searxng.search", searxng(PURR_RESULTS));
    // A window wide enough for the edit below to land before the search answers.
    standIn().slowNext("searxng.search", 4000);
    standIn().answerNext("openai.chat", { verdicts: [{ claim: 1, confirmed: true, result: 1, evidence: "Domestic cats purr at frequencies between 25 and 150 Hz.", reason: "" }] });
    const searches = standIn().calls("searxng.search").length;
    const running = post(client, "research_all", { script_id: scriptId });
    // Once the search is under way, the writer edits the paragraph.
    await expect.poll(() => standIn().calls("searxng.search").length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(searches);
    ok(await post(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[0], text: "Cats purr at 20 to 140 hertz." }));
    const error = refused(await running, 409, "conflict");
    expect(error.details).toMatchObject({ revision_now: (error.details as Row).revision_read + 1 });
    expect(await prisma().scriptSource.count({ where: { script_id: scriptId } })).toBe(0);
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId, action: "scripts.research_all" } })).toBe(0);
    expect(await balanceOf(service, workspaceId)).toBe(20);
  });

  it("a search that fails is 502 upstream_error naming the provider: nothing is filed and the whole hold comes back", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const { scriptId, ids } = await writeScript(client, { title: "Failing" }, ["Cats purr at 25 to 150 hertz."]);
    standIn().answerNext("openai.chat", { claims: [{ claim: "Cats purr at 25 to 150 hertz.", paragraph_id: ids[0], query: "cat purr frequency" }] });
    standIn().failNext("searxng.search", { status: 500 });
    const error = refused(await post(client, "research_all", { script_id: scriptId }), 502, "upstream_error");
    expect(error.details).toMatchObject({ provider: "searxng", capability: "search" });
    expect(await prisma().scriptSource.count({ where: { script_id: scriptId } })).toBe(0);
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId, action: "scripts.research_all" } })).toBe(0);
    expect(await balanceOf(service, workspaceId)).toBe(20);
  });

  it("spends nothing when the script makes no checkable claim, answers over GraphQL, and quotes the bound to a test key", async () => {
    const fixture = await funded(service, 20);
    const { client, workspaceId } = fixture;
    const { scriptId } = await writeScript(client, { title: "Opinions" }, ["I love the sound of a purring cat."]);
    standIn().answerNext("openai.chat", { claims: [] });
    const searches = standIn().calls("searxng.search").length;
    const graphql = await client.graphql(`mutation($input: ScriptsResearchAllInput!) { scripts_research_all(input: $input) { ... on ScriptsResearchAllResult { object subjects_searched confirmed { claim } unconfirmed { claim } credits { cost charged } } } }`, {
      input: { script_id: scriptId, question: "Check the science" },
    });
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.scripts_research_all).toEqual({ object: "script_fact_check", subjects_searched: 0, confirmed: [], unconfirmed: [], credits: { cost: 0, charged: 0 } });
    expect(standIn().calls("searxng.search").length).toBe(searches);
    expect(await balanceOf(service, workspaceId)).toBe(20);

    const test = await fixture.newKey({ mode: "test" });
    const quote = ok(await post(test.client, "research_all", { script_id: scriptId }));
    expect(quote).toMatchObject({ object: "action_quote", action: "scripts.research_all", units: 4, credits: { cost: 8, charged: 0 }, capabilities: ["search", "text"] });
  });
});
