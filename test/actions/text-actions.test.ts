// The text-model actions end to end, through the real provider adapters against the stand-in:
// instructions.generate, instructions.generate_with_news (web search + text), playground.random_prompt
// and scripts.ideas (per-call idempotency_key, spend only what ran). The shared security suite covers
// their scopes, other workspaces, test keys and unknown fields; this file proves what they answer,
// what they cost and what the ledger and the outbox say.
import { describe, expect, it } from "vitest";
import { balanceOf, funded } from "../support/action-calls.js";
import { useService, useStandIn, type ApiResponse } from "../support/service.js";

const overrides = {};
// Retries are the provider layer's (test/providers-failures.test.ts); here a failure is final at once.
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;

type Row = Record<string, any>;

const ledger = (workspaceId: string) => prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId }, orderBy: [{ created_at: "asc" }, { transaction_id: "asc" }] });
const outbox = (workspaceId: string) => prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } });

function ok(response: ApiResponse): Row {
  expect(response.status, response.text).toBe(200);
  expect(response.body.error, response.text).toBeUndefined();
  return response.body as Row;
}

function refused(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status });
  return response.body.error as Row;
}

describe("instructions.generate", () => {
  it("writes an instruction set with the text model, holds 1 credit and settles it, and books the model's usage", async () => {
    const { client, workspaceId, keyId } = await funded(service, 10);
    const before = standIn().calls("openai.chat").length;
    const body = ok(await client.post("/api/v1/actions/instructions.generate", { topic: "How tides work", lang: "fr" }));
    expect(body).toMatchObject({ object: "instruction_set", topic: "How tides work", language: "fr", livemode: true, credits: { cost: 1, charged: 1, balance_after: 9, held: false } });
    expect(body.title).toEqual(expect.any(String));
    expect(body.instructions.length).toBeGreaterThanOrEqual(3);
    for (const step of body.instructions) expect(step).toEqual({ step: expect.any(String), detail: expect.any(String) });

    // One structured Chat Completions call, with a JSON schema, to the configured model.
    const chats = standIn().calls("openai.chat").slice(before);
    expect(chats).toHaveLength(1);
    expect(chats[0]).toMatchObject({ model: "gpt-4.1-mini", summary: { response_format: "json_schema", schema_name: "instruction_set" } });

    // The ledger: one hold of 1 naming its usage; nothing came back (all of it ran).
    const rows = await ledger(workspaceId);
    expect(rows.map((row) => [row.action_type, row.amount])).toEqual([["grant", 10], ["instructions.generate", -1]]);
    expect(rows[1]).toMatchObject({ key_id: keyId, request_id: body.request_id });
    expect(rows[1]!.metadata).toMatchObject({ kind: "hold", credits_spent: 1, usage: [{ capability: "text", provider: "openai", model: "gpt-4.1-mini", usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) } }] });
    expect(await balanceOf(service, workspaceId)).toBe(9);
    const events = (await outbox(workspaceId)).map((event) => [event.type, (event.data as Row).object.credits_spent]);
    expect(events).toEqual([["action.completed", 1]]);
  });

  it("answers a GraphQL selection of the typed result, and a test key a quote without calling the model", async () => {
    const fixture = await funded(service, 10);
    const graphql = await fixture.client.graphql(`mutation { instructions_generate(input: {topic: "Bread"}) { ... on InstructionsGenerateResult { object title instructions { step } credits { cost charged } } } }`);
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.instructions_generate).toMatchObject({ object: "instruction_set", title: expect.any(String), credits: { cost: 1, charged: 1 } });
    expect(Object.keys(graphql.body.data.instructions_generate).sort()).toEqual(["credits", "instructions", "object", "title"]);

    const test = await fixture.newKey({ mode: "test" });
    const calls = standIn().calls().length;
    const balance = await balanceOf(service, fixture.workspaceId);
    const quoted = await test.client.post("/api/v1/actions/instructions.generate", { topic: "Bread" });
    expect(ok(quoted)).toEqual({
      object: "action_quote",
      action: "instructions.generate",
      credits: { cost: 1, charged: 0, balance_after: null, held: false },
      units: 1,
      capabilities: ["text"],
      livemode: false,
      request_id: quoted.headers.get("x-request-id"),
    });
    expect(quoted.headers.get("x-test-mode")).toBe("true");
    const viaGraphql = await test.client.graphql(`mutation { instructions_generate(input: {topic: "Bread"}) { __typename ... on ActionQuote { credits { cost charged } } } }`);
    expect(viaGraphql.body.data.instructions_generate).toEqual({ __typename: "ActionQuote", credits: { cost: 1, charged: 0 } });
    expect(standIn().calls().length).toBe(calls);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(balance);
  });

  it("a provider failure is 502 upstream_error naming the provider; the hold comes back and action.failed is recorded", async () => {
    const { client, workspaceId } = await funded(service, 10);
    standIn().failNext("openai.chat", { status: 500 });
    const error = refused(await client.post("/api/v1/actions/instructions.generate", { topic: "Volcanoes" }), 502, "upstream_error");
    expect(error).toMatchObject({ type: "api_error", retryable: true, details: { provider: "openai", capability: "text", model: "gpt-4.1-mini" } });
    expect(error.message).toMatch(/openai/i);
    expect(JSON.stringify(error)).not.toContain("sk-standin");
    expect(await balanceOf(service, workspaceId)).toBe(10);
    const rows = await ledger(workspaceId);
    expect(rows.map((row) => [row.action_type, row.amount])).toEqual([["grant", 10], ["instructions.generate", -1], ["refund", 1]]);
    expect(rows[2]!.metadata).toMatchObject({ kind: "release", hold_transaction_id: rows[1]!.transaction_id });
    expect((await outbox(workspaceId)).map((event) => event.type)).toEqual(["action.failed"]);
  });

  it("a balance that cannot pay is 402 before any model call", async () => {
    const { client, workspaceId } = await funded(service, 0);
    const calls = standIn().calls().length;
    const error = refused(await client.post("/api/v1/actions/instructions.generate", { topic: "Comets" }), 402, "insufficient_credits");
    expect(error.details).toMatchObject({ required: 1, available: 0, shortfall: 1 });
    expect(standIn().calls().length).toBe(calls);
    expect((await outbox(workspaceId)).map((event) => event.type).sort()).toEqual(["action.failed", "credits.low"]);
  });
});

describe("instructions.generate_with_news", () => {
  it("searches the last week's news once, writes from it, and answers the search's own hits as sources", async () => {
    const { client } = await funded(service, 10);
    standIn().answerNext("searxng.search", {
      query: "ignored",
      results: [
        { title: "Tide gauges upgraded along the coast", url: "https://news.example.com/tides", content: "New sensors went live on Monday.", publishedDate: "2026-11-24T08:00:00Z" },
        { title: "Spring tides expected this weekend", url: "https://news.example.com/spring", content: "Higher than usual.", publishedDate: null },
      ],
    });
    const search = standIn().calls("searxng.search").length;
    const chat = standIn().calls("openai.chat").length;
    const body = ok(await client.post("/api/v1/actions/instructions.generate_with_news", { topic: "Tides" }));
    expect(body).toMatchObject({ object: "instruction_set", topic: "Tides", credits: { cost: 2, charged: 2 } });
    expect(body.sources).toEqual([
      { title: "Tide gauges upgraded along the coast", url: "https://news.example.com/tides", snippet: "New sensors went live on Monday.", published_at: "2026-11-24T08:00:00Z" },
      { title: "Spring tides expected this weekend", url: "https://news.example.com/spring", snippet: "Higher than usual.", published_at: null },
    ]);
    const searches = standIn().calls("searxng.search").slice(search);
    expect(searches).toHaveLength(1);
    expect(searches[0]!.summary).toMatchObject({ q: "Tides news", time_range: "week", format: "json" });
    expect(standIn().calls("openai.chat").slice(chat)).toHaveLength(1);
    expect(standIn().calls("openai.chat").at(-1)!.at).toBeGreaterThanOrEqual(searches[0]!.at);
  });
});

describe("playground.random_prompt", () => {
  it("answers an image prompt with its parts, from a theme or from nothing", async () => {
    const { client } = await funded(service, 10);
    for (const input of [{ theme: "the sea", style: "ukiyo-e" }, {}]) {
      const body = ok(await client.post("/api/v1/actions/playground.random_prompt", input));
      expect(body).toMatchObject({ object: "image_prompt", prompt: expect.any(String), subject: expect.any(String), style: expect.any(String), credits: { cost: 1, charged: 1 } });
      expect(body.prompt.length).toBeGreaterThan(0);
      expect(Array.isArray(body.tags)).toBe(true);
    }
  });
});

describe("scripts.ideas", () => {
  it("pitches at most `count` subjects and charges one credit for each it answers", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const body = ok(await client.post("/api/v1/actions/scripts.ideas", { topic: "Home coffee roasting", count: 3, format: "short" }));
    expect(body).toMatchObject({ object: "script_ideas", topic: "Home coffee roasting", format: "short" });
    const answered = body.ideas.length as number;
    expect(answered).toBeGreaterThanOrEqual(1);
    expect(answered).toBeLessThanOrEqual(3);
    for (const idea of body.ideas) expect(Object.keys(idea).sort()).toEqual(["angle", "audience", "hook", "title"]);
    expect(body.credits).toEqual({ cost: answered, charged: answered, balance_after: 10 - answered, held: false });
    expect(await balanceOf(service, workspaceId)).toBe(10 - answered);
  });

  it("spends only what ran: 4 asked, 2 answered, 2 charged, the rest of the hold back", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const two = [1, 2].map((n) => ({ title: `Idea ${n}`, angle: "An angle", hook: "A hook", audience: "Everyone" }));
    standIn().answerNext("openai.chat", { ideas: two });
    const body = ok(await client.post("/api/v1/actions/scripts.ideas", { topic: "Kites", count: 4 }));
    expect(body.ideas).toEqual(two);
    expect(body.credits).toEqual({ cost: 2, charged: 2, balance_after: 8, held: false });
    const rows = await ledger(workspaceId);
    expect(rows.map((row) => [row.action_type, row.amount])).toEqual([["grant", 10], ["scripts.ideas", -4], ["refund", 2]]);
    expect(rows[2]!.metadata).toMatchObject({ kind: "settle" });
    expect(rows[1]!.metadata).toMatchObject({ credits_spent: 2 });
    expect(await balanceOf(service, workspaceId)).toBe(8);
  });

  it("the same idempotency_key and input answer the stored result, spending nothing and calling no model", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const input = { topic: "Night photography", count: 2, idempotency_key: "ideas-night-1" };
    const first = ok(await client.post("/api/v1/actions/scripts.ideas", input));
    const chats = standIn().calls("openai.chat").length;
    const again = ok(await client.post("/api/v1/actions/scripts.ideas", input));
    expect(again.ideas).toEqual(first.ideas);
    expect(again.credits).toEqual({ cost: 2, charged: 0, balance_after: null, held: false });
    expect(standIn().calls("openai.chat").length).toBe(chats);
    expect(await balanceOf(service, workspaceId)).toBe(10 - first.credits.charged);
    // The key is the caller's own: another input with it is a conflict; another workspace may use it.
    const conflict = refused(await client.post("/api/v1/actions/scripts.ideas", { ...input, topic: "Day photography" }), 409, "idempotency_conflict");
    expect(conflict.param).toBe("idempotency_key");
    const other = await funded(service, 10);
    expect(ok(await other.client.post("/api/v1/actions/scripts.ideas", input)).credits.charged).toBeGreaterThan(0);
    expect(await prisma().actionCallResult.count({ where: { idempotency_key: "ideas-night-1" } })).toBe(2);
  });

  it("a failed call frees its idempotency_key, so the retry runs", async () => {
    const { client } = await funded(service, 10);
    const input = { topic: "Bees", count: 1, idempotency_key: "ideas-bees" };
    standIn().failNext("openai.chat", { status: 500 });
    refused(await client.post("/api/v1/actions/scripts.ideas", input), 502, "upstream_error");
    expect(ok(await client.post("/api/v1/actions/scripts.ideas", input)).credits.charged).toBe(1);
  });
});
