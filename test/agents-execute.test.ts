// agents.execute and agents.executions (docs/generation.md, "Agents"): the agent's template
// rendered by Liquid with the call's variables (422 naming every missing one), the text model run
// through the real adapter against the stand-in, an agent_executions row, agent_execution.completed
// in the same transaction, 4 credits; `stream: true` answered as Server-Sent Events on REST (the
// stand-in streams chat chunks) and as the whole record on GraphQL; a test key's quote; paging.
import { describe, expect, it } from "vitest";
import { balanceOf, funded, ok, refused } from "./support/action-calls.js";
import { useService, useStandIn, type Client } from "./support/service.js";

type Row = Record<string, any>;

const overrides = {};
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;
const eventsOf = (workspaceId: string, type: string) => prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type }, orderBy: { seq: "asc" } });

async function agent(client: Client, template = "Write a tagline for {{ product | upcase }}{% if audience %} aimed at {{ audience }}{% endif %}."): Promise<string> {
  const created = await client.post("/api/v1/agents", { agent_name: "Tagline writer", agent_type: "image", agent_description: "Short, punchy copy.", agent_prompt_template: template });
  expect(created.status, created.text).toBe(201);
  return created.body.agent_id as string;
}

/** The Server-Sent Events of a body: [event, parsed data]. */
function sseEvents(text: string): [string, Row][] {
  return text.split("\n\n").filter((block) => block.trim()).map((block) => {
    const event = /^event: (.+)$/m.exec(block)?.[1] ?? "message";
    const data = /^data: (.+)$/m.exec(block)?.[1] ?? "null";
    return [event, JSON.parse(data) as Row];
  });
}

describe("agents.execute", () => {
  it("renders the template with Liquid, runs the text model, writes the run, emits agent_execution.completed and spends 4", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const agentId = await agent(client);
    const body = ok(await client.post("/api/v1/actions/agents.execute", { agent_id: agentId, variables: { product: "night lamps", audience: "students" }, custom_prompt: "Keep it under eight words.", metadata: { campaign: "spring" } }));
    expect(body).toMatchObject({
      object: "agent_execution",
      agent_id: agentId,
      status: "completed",
      prompt_used: "Write a tagline for NIGHT LAMPS aimed at students.\n\nKeep it under eight words.",
      credits_consumed: 4,
      variables_used: { product: "night lamps", audience: "students" },
      execution_metadata: { metadata: { campaign: "spring" }, streamed: false, provider: "openai" },
      credits: { cost: 4, charged: 4, balance_after: 6 },
    });
    expect(body.result.text).toMatch(/^Stand-in answer to "Write a tagline for NIGHT LAMPS/);
    // The model saw the agent's brief and the rendered prompt.
    const call = standIn().calls("openai.chat").at(-1)!;
    expect(call.messages?.system).toContain('"Tagline writer"');
    expect(call.messages?.system).toContain("Short, punchy copy.");
    expect(call.messages?.user).toBe(body.prompt_used);

    const row = await prisma().agentExecution.findUniqueOrThrow({ where: { execution_id: body.execution_id } });
    expect(row).toMatchObject({ workspace_id: workspaceId, agent_id: agentId, status: "completed", credits_consumed: 4 });
    // Billed like every generation: a completed text generation of the run.
    const generation = await prisma().generation.findFirstOrThrow({ where: { workspace_id: workspaceId } });
    expect(generation).toMatchObject({ agent_type: "text", agent_model: "openai/gpt-4.1-mini", agent_id: agentId, status: "completed", credits_consumed: 4, prompt: body.prompt_used, generation_metadata: { action: "agents.execute", execution_id: body.execution_id, text: body.result.text } });
    const events = await eventsOf(workspaceId, "agent_execution.completed");
    expect(events).toHaveLength(1);
    expect((events[0]!.data as Row).object).toMatchObject({ execution_id: body.execution_id, result: { text: body.result.text } });
    expect(await balanceOf(service, workspaceId)).toBe(6);
    // The resource serves the same run.
    expect(ok(await client.get(`/api/v1/agent_executions/${body.execution_id}`))).toMatchObject({ execution_id: body.execution_id, status: "completed" });
  });

  it("names every missing variable in one 422, refuses a broken template, another workspace's agent, and holds nothing", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const agentId = await agent(client, "A {{ mood }} line about {{ product.name }} for {{ brand }}");
    const missing = refused(await client.post("/api/v1/actions/agents.execute", { agent_id: agentId, variables: { product: {} } }), 422, "validation_failed");
    expect(missing.details.issues.map((issue: Row) => issue.path).sort()).toEqual(["variables.brand", "variables.mood", "variables.product.name"]);
    const broken = await agent(client, "A {{ unclosed");
    expect(refused(await client.post("/api/v1/actions/agents.execute", { agent_id: broken }), 422, "validation_failed").param).toBe("agent_id");
    const other = await funded(service, 0);
    const foreign = await agent(other.client);
    refused(await client.post("/api/v1/actions/agents.execute", { agent_id: foreign }), 403, "workspace_mismatch");
    refused(await client.post("/api/v1/actions/agents.execute", { agent_id: "agent_missing" }), 404, "not_found");
    expect(await balanceOf(service, workspaceId)).toBe(10);
    expect(await prisma().agentExecution.count({ where: { workspace_id: workspaceId } })).toBe(0);
    expect(await prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("streams the answer as Server-Sent Events on REST, then the whole record; the run is kept as streamed", async () => {
    const { client, key, workspaceId } = await funded(service, 10);
    const agentId = await agent(client);
    const response = await fetch(`${service.url}/api/v1/actions/agents.execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ agent_id: agentId, variables: { product: "kites" }, stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = sseEvents(await response.text());
    expect(events[0]).toEqual(["start", { object: "agent_execution", execution_id: expect.stringMatching(/^aex_/), agent_id: agentId }]);
    const deltas = events.filter(([event]) => event === "delta").map(([, data]) => data.text as string);
    expect(deltas.length).toBeGreaterThan(3);
    const [last, done] = events.at(-1)!;
    expect(last).toBe("done");
    expect(done).toMatchObject({ object: "agent_execution", execution_id: events[0]![1].execution_id, status: "completed", execution_metadata: { streamed: true }, credits: { charged: 4 } });
    expect(deltas.join("")).toBe(done.result.text);
    expect(standIn().calls("openai.chat").at(-1)!.summary).toMatchObject({ stream: true });
    expect(await balanceOf(service, workspaceId)).toBe(6);
    expect(await eventsOf(workspaceId, "agent_execution.completed")).toHaveLength(1);
  });

  it("a model failure after the stream opened ends it with an error event carrying the envelope; the hold comes back", async () => {
    const { client, key, workspaceId } = await funded(service, 10);
    const agentId = await agent(client);
    standIn().failNext("openai.chat", { status: 500 });
    const response = await fetch(`${service.url}/api/v1/actions/agents.execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ agent_id: agentId, variables: { product: "kites" }, stream: true }),
    });
    expect(response.status).toBe(200);
    const events = sseEvents(await response.text());
    expect(events.map(([event]) => event)).toEqual(["start", "error"]);
    expect(events[1]![1]).toMatchObject({ error: { code: "upstream_error", status: 502 } });
    expect(await balanceOf(service, workspaceId)).toBe(10);
    expect(await prisma().agentExecution.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("answers JSON when the client asks for JSON, and a refusal before the stream opens as a JSON error", async () => {
    const { client, workspaceId } = await funded(service, 4);
    const agentId = await agent(client);
    // The test client asks for JSON (no Accept: event-stream needed to read it).
    const whole = await client.post("/api/v1/actions/agents.execute", { agent_id: agentId, variables: { product: "tea" }, stream: true }, { headers: { accept: "application/json" } });
    expect(whole.headers.get("content-type")).toMatch(/^application\/json/);
    expect(ok(whole)).toMatchObject({ object: "agent_execution", execution_metadata: { streamed: false } });
    // The balance is spent now: 402 before anything streams.
    const broke = await client.post("/api/v1/actions/agents.execute", { agent_id: agentId, variables: { product: "tea" }, stream: true }, { headers: { accept: "text/event-stream" } });
    refused(broke, 402, "insufficient_credits");
    expect(await prisma().agentExecution.count({ where: { workspace_id: workspaceId } })).toBe(1);
  });

  it("a failed model call gives the hold back and keeps no run", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const agentId = await agent(client);
    standIn().failNext("openai.chat", { status: 500 });
    refused(await client.post("/api/v1/actions/agents.execute", { agent_id: agentId, variables: { product: "maps" } }), 502, "upstream_error");
    expect(await balanceOf(service, workspaceId)).toBe(10);
    expect(await prisma().agentExecution.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("on GraphQL answers the whole record (stream has no channel there); a test key gets a quote", async () => {
    const fixture = await funded(service, 10);
    const { client, workspaceId } = fixture;
    const agentId = await agent(client);
    const answer = await client.graphql(`mutation($input: AgentsExecuteInput!) { agents_execute(input: $input) { ... on AgentsExecuteResult { object execution_id status result credits { charged } } } }`, { input: { agent_id: agentId, variables: { product: "bikes" }, stream: true } });
    expect(answer.body.errors, answer.text).toBeUndefined();
    expect(answer.body.data.agents_execute).toMatchObject({ object: "agent_execution", status: "completed", result: { text: expect.stringContaining("BIKES") }, credits: { charged: 4 } });

    const test = await fixture.newKey({ mode: "test" });
    const calls = standIn().calls("openai.chat").length;
    const quote = ok(await test.client.post("/api/v1/actions/agents.execute", { agent_id: agentId, variables: { product: "bikes" }, stream: true }));
    expect(quote).toMatchObject({ object: "action_quote", action: "agents.execute", credits: { cost: 4, charged: 0 }, capabilities: ["text"] });
    // Checked all the same: a missing variable is refused with a test key too.
    refused(await test.client.post("/api/v1/actions/agents.execute", { agent_id: agentId }), 422, "validation_failed");
    expect(standIn().calls("openai.chat").length).toBe(calls);
    expect(await balanceOf(service, workspaceId)).toBe(6);
    expect(await prisma().agentExecution.count({ where: { workspace_id: workspaceId } })).toBe(1);
  });
});

describe("agents.executions", () => {
  it("lists the workspace's runs newest first, by agent, paged by cursor; another workspace's agent is 403", async () => {
    const { client, workspaceId } = await funded(service, 0);
    const first = await agent(client);
    const second = await agent(client);
    const base = Date.now() - 60_000;
    for (let index = 0; index < 3; index++) {
      await prisma().agentExecution.create({ data: { execution_id: `aex_test_${workspaceId}_${index}`, workspace_id: workspaceId, agent_id: index === 2 ? second : first, status: "completed", prompt_used: `run ${index}`, result: { text: `answer ${index}` }, created_at: new Date(base + index * 1000) } });
    }
    const page = ok(await client.get("/api/v1/actions/agents.executions?limit=2"));
    expect(page).toMatchObject({ object: "list", has_more: true, limit: 2 });
    expect(page.data.map((run: Row) => run.prompt_used)).toEqual(["run 2", "run 1"]);
    expect(page.data[0]).toMatchObject({ object: "agent_execution", agent_id: second, result: { text: "answer 2" } });
    const next = ok(await client.get(`/api/v1/actions/agents.executions?limit=2&cursor=${page.next_cursor}`));
    expect(next).toMatchObject({ has_more: false, next_cursor: null });
    expect(next.data.map((run: Row) => run.prompt_used)).toEqual(["run 0"]);
    const byAgent = ok(await client.get(`/api/v1/actions/agents.executions?agent_id=${first}`));
    expect(byAgent.data.map((run: Row) => run.prompt_used)).toEqual(["run 1", "run 0"]);

    const other = await funded(service, 0);
    refused(await other.client.get(`/api/v1/actions/agents.executions?agent_id=${first}`), 403, "workspace_mismatch");
    expect(ok(await other.client.get("/api/v1/actions/agents.executions")).data).toEqual([]);
  });
});
