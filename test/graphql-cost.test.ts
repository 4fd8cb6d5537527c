// GraphQL document limits and cost (issue "Reliability and security", 4; docs/security.md):
// tokens, nesting, depth, aliases and directives are bounded; an operation's cost counts lists by
// their `limit`, is refused past the maximum, is charged against the key's rate windows (a root
// field counts what its REST request counts; action fields count what their action route counts,
// once) and is reported in `extensions.cost`.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client } from "./support/service.js";

const service = useService();

const MINUTE_LIMIT = 200;

/** A key whose minute window is small enough to read how much each request took from it. */
async function meteredFixture() {
  return createFixture(service, { rateLimits: { minute: MINUTE_LIMIT } });
}

function remaining(response: ApiResponse): number {
  expect(response.headers.get("x-ratelimit-window"), response.text).toBe("minute");
  return Number(response.headers.get("x-ratelimit-remaining"));
}

/** Units a request took from the minute window: what is left before it (read by a probe) minus after. */
async function unitsTaken(client: Client, send: () => Promise<ApiResponse>): Promise<{ units: number; response: ApiResponse }> {
  const before = remaining(await client.get("/api/v1/folders?limit=1"));
  const response = await send();
  return { units: before - remaining(response), response };
}

function expectLimitRefusal(response: ApiResponse, limit: string, maximum: number) {
  expect(response.body.data ?? null, response.text).toBeNull();
  const extensions = response.body.errors?.[0]?.extensions;
  expect(extensions, response.text).toMatchObject({ code: "invalid_request", status: 400, type: "invalid_request_error", param: "query", details: { limit, maximum } });
  // The contract's failure marker is there too.
  expect(response.body.error).toEqual(extensions);
  return extensions as { details: { found?: number } };
}

const aliased = (count: number, field: (index: number) => string) => Array.from({ length: count }, (_, index) => `a${index}: ${field(index)}`).join(" ");

describe("document limits", () => {
  it("refuses more than 30 aliases, so 200 aliased create_folder mutations create nothing", async () => {
    const { client, workspaceId } = await createFixture(service);
    const createFolders = (count: number) => client.graphql(`mutation { ${aliased(count, (index) => `create_folder(input: { folder_name: "f${index}" }) { folder_id }`)} }`);
    // 200 of them are ~2,800 tokens: the token limit refuses them before the alias count does.
    expectLimitRefusal(await createFolders(200), "tokens", 2000);
    expect(expectLimitRefusal(await createFolders(31), "aliases", 30).details.found).toBe(31);
    expect(await service.service.database.prisma.folder.count({ where: { workspace_id: workspaceId } })).toBe(0);

    const allowed = await client.graphql(`{ ${aliased(30, () => "videos(limit: 1) { has_more }")} }`);
    expect(allowed.body.errors, allowed.text).toBeUndefined();
    expect(Object.keys(allowed.body.data)).toHaveLength(30);
  });

  it("refuses 1,000 aliases of videos(limit: 100) before running any of them", async () => {
    const { client } = await createFixture(service);
    const response = await client.graphql(`{ ${aliased(1000, () => "videos(limit: 100) { data { video_id video_name } }")} }`);
    // The token limit is met first: 1,000 aliased pages are ~15,000 tokens.
    expectLimitRefusal(response, "tokens", 2000);
  });

  it("refuses more than 2,000 tokens, brackets nested deeper than 100, selections deeper than 10 and more than 20 directives", async () => {
    const { client } = await createFixture(service);
    expectLimitRefusal(await client.graphql(`{ ${"__typename ".repeat(2001)}}`), "tokens", 2000);
    expectLimitRefusal(await client.graphql(`{ videos(q: ${"[".repeat(101)}"x"${"]".repeat(101)}) { object } }`), "nesting", 100);
    // videos, nine fragments and object: 11 levels.
    const deep = `{ videos { ${"... on VideoList { ".repeat(9)}object${" }".repeat(9)} } }`;
    expect(expectLimitRefusal(await client.graphql(deep), "depth", 10).details.found).toBe(11);
    expectLimitRefusal(await client.graphql(`{ videos { object ${"@include(if: true) ".repeat(21)}} }`), "directives", 20);
    // Introspection, as GraphiQL sends it, is within every limit.
    const introspection = await client.graphql("{ __schema { types { name fields { name type { name kind ofType { name kind ofType { name kind ofType { name kind } } } } } } } }");
    expect(introspection.body.errors, introspection.text).toBeUndefined();
  });
});

describe("cost", () => {
  it("counts a list by its limit, reports requested and actual cost and what is left, and charges one unit per 100 points", async () => {
    const { client } = await meteredFixture();
    for (const name of ["a", "b", "c"]) expect((await client.post("/api/v1/folders", { folder_name: name })).status).toBe(201);

    const { units, response } = await unitsTaken(client, () => client.graphql("{ folders(limit: 100) { data { folder_id } } }"));
    expect(response.body.errors, response.text).toBeUndefined();
    expect(units).toBe(1);
    expect(response.body.extensions.cost).toEqual({
      requestedQueryCost: 100,
      actualQueryCost: 3,
      chargedUnits: 1,
      unitPoints: 100,
      throttleStatus: { window: "minute", maximumAvailable: MINUTE_LIMIT, currentlyAvailable: remaining(response), resetAt: Number(response.headers.get("x-ratelimit-reset")) },
    });

    // Five pages of up to 100 are five units; a page of renders with their videos is two per page.
    const five = await unitsTaken(client, () => client.graphql(`{ ${aliased(5, () => "videos(limit: 100) { data { video_id } }")} }`));
    expect(five.units).toBe(5);
    expect(five.response.body.extensions.cost).toMatchObject({ requestedQueryCost: 500, actualQueryCost: 0, chargedUnits: 5 });
    const nested = await unitsTaken(client, () => client.graphql("{ renders(limit: 100) { data { render_id video { video_id } } } }"));
    expect(nested.units).toBe(2);
    expect(nested.response.body.extensions.cost).toMatchObject({ requestedQueryCost: 200, chargedUnits: 2 });
    // The default page size counts when no limit is given; a variable limit counts as sent.
    const variable = await client.graphql("query($n: Int) { a: folders { data { folder_id } } b: folders(limit: $n) { data { folder_id } } }", { n: 7 });
    expect(variable.body.extensions.cost).toMatchObject({ requestedQueryCost: 25 + 7, actualQueryCost: 6, chargedUnits: 2 });
  });

  it("refuses an operation costing more than 5,000 points without running it", async () => {
    const { client } = await createFixture(service);
    const response = await client.graphql(`{ ${aliased(30, () => "renders(limit: 100) { data { render_id video { video_id } } }")} }`);
    const refusal = expectLimitRefusal(response, "cost", 5000);
    expect(refusal.details.found).toBe(6000);
    expect(response.body.extensions.cost).toMatchObject({ requestedQueryCost: 6000, actualQueryCost: 0, chargedUnits: 0 });
  });

  it("answers 429 rate_limit_exceeded with Retry-After when an operation costs more than the window has left", async () => {
    const { client } = await createFixture(service, { rateLimits: { minute: 10 } });
    const response = await client.graphql(`{ ${aliased(12, () => "videos(limit: 100) { data { video_id } }")} }`);
    expect(response.status, response.text).toBe(429);
    expect(response.body.errors[0].extensions).toMatchObject({ code: "rate_limit_exceeded", status: 429, details: { window: "minute", limit: 10 } });
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(response.body.data ?? null).toBeNull();
  });

  it("charges mutations as their REST requests: one unit per write, rows as many as mutations", async () => {
    const { client, workspaceId } = await meteredFixture();
    const { units, response } = await unitsTaken(client, () =>
      client.graphql(`mutation { ${aliased(5, (index) => `create_folder(input: { folder_name: "m${index}" }) { folder_id }`)} }`),
    );
    expect(response.body.errors, response.text).toBeUndefined();
    expect(units).toBe(5);
    expect(response.body.extensions.cost).toMatchObject({ requestedQueryCost: 5, actualQueryCost: 5, chargedUnits: 5 });
    expect(await service.service.database.prisma.folder.count({ where: { workspace_id: workspaceId } })).toBe(5);
  });

  it("counts action fields 0 in the query cost and charges them what their REST action route charges, once", async () => {
    const { client } = await meteredFixture();
    const video = await client.post("/api/v1/videos", { video_name: "to render" });
    expect(video.status).toBe(201);
    const input = { video_id: video.body.video_id };
    // A weight-5 action (refused afterwards for lack of credits, but counted first, as on REST).
    const rest = await unitsTaken(client, () => client.post("/api/v1/actions/renders.create", input));
    expect(rest.response.body.error?.code, rest.response.text).toBe("insufficient_credits");
    const graphql = await unitsTaken(client, () => client.graphql("mutation($input: RendersCreateInput!) { renders_create(input: $input) { render_id } }", { input }));
    expect(graphql.response.body.errors?.[0]?.extensions.code, graphql.response.text).toBe("insufficient_credits");
    expect(graphql.units).toBe(rest.units);
    expect(graphql.response.body.extensions.cost).toMatchObject({ requestedQueryCost: 0, chargedUnits: 1 });

    // Beside another write, each is still charged as its own request would be.
    const restFolder = await unitsTaken(client, () => client.post("/api/v1/folders", { folder_name: "beside" }));
    const mixed = await unitsTaken(client, () =>
      client.graphql('mutation($input: RendersCreateInput!) { f: create_folder(input: { folder_name: "with" }) { folder_id } r: renders_create(input: $input) { render_id } }', { input }),
    );
    expect(mixed.units).toBe(restFolder.units + rest.units);
    expect(mixed.response.body.extensions.cost).toMatchObject({ requestedQueryCost: 1, chargedUnits: 2 });
  });
});
