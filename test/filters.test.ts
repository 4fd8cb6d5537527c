// Filters (contract 4.2) on both surfaces: every operator family, typed values, nulls, array and
// relation-backed fields, JSON keys (voices' labels.*), and scripts' `format` field beside the
// list's `format` parameter.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type Client } from "./support/service.js";
import "../src/platform/catalogs.js";
import { newId } from "../src/ids.js";
import { contractResources } from "../src/registry/resources.js";
import { FILTER_OPERATORS, OPERATORS_BY_KIND, filterableFields } from "../src/resources/filters.js";

const service = useService();

async function names(client: Client, query: string): Promise<string[]> {
  const response = await client.get(`/api/v1/videos?${query}&fields=video_name&limit=100&sort=video_name&order=asc`);
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((video: { video_name: string }) => video.video_name);
}

async function seed(client: Client) {
  const folder = (await client.post("/api/v1/folders", { folder_name: "Shorts" })).body.folder_id as string;
  const videos = [
    { video_name: "alpha", video_format: "portrait", published: true, video_lang: "en", folder_ids: [folder] },
    { video_name: "beta", video_format: "landscape", published: false, video_lang: "fr" },
    { video_name: "gamma 100%", video_format: "square", published: true },
    { video_name: "delta", video_format: "portrait", published: false, video_lang: "en", folder_ids: [folder] },
  ];
  for (const video of videos) expect((await client.post("/api/v1/videos", video)).status).toBe(201);
  return { folder };
}

describe("REST filters", () => {
  it("applies equality, negation, sets and text operators, typed by the field", async () => {
    const { client } = await createFixture(service);
    await seed(client);
    expect(await names(client, "video_format=portrait")).toEqual(["alpha", "delta"]);
    expect(await names(client, "published=true")).toEqual(["alpha", "gamma 100%"]);
    expect(await names(client, "published[ne]=true")).toEqual(["beta", "delta"]);
    expect(await names(client, "video_format[in]=square,landscape")).toEqual(["beta", "gamma 100%"]);
    expect(await names(client, "video_format[nin]=square,landscape")).toEqual(["alpha", "delta"]);
    // ne and nin include records without a value.
    expect(await names(client, "video_lang[ne]=en")).toEqual(["beta", "gamma 100%"]);
    expect(await names(client, "video_lang[exists]=false")).toEqual(["gamma 100%"]);
    expect(await names(client, "video_lang[exists]=true&video_format=portrait")).toEqual(["alpha", "delta"]);
    expect(await names(client, "video_type[starts_with]=x")).toEqual([]);
    // exists on a column that always has a value.
    expect(await names(client, "video_format[exists]=true")).toHaveLength(4);
    expect(await names(client, "video_format[exists]=false")).toEqual([]);
  });

  it("filters on folder_ids (an array backed by a relation)", async () => {
    const { client } = await createFixture(service);
    const { folder } = await seed(client);
    expect(await names(client, `folder_ids=${folder}`)).toEqual(["alpha", "delta"]);
    expect(await names(client, `folder_ids[nin]=${folder}`)).toEqual(["beta", "gamma 100%"]);
    expect(await names(client, "folder_ids[exists]=false")).toEqual(["beta", "gamma 100%"]);
  });

  it("compares dates given as ISO 8601 or unix seconds", async () => {
    const { client } = await createFixture(service);
    await seed(client);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect(await names(client, `video_created_at[lt]=${future}`)).toHaveLength(4);
    expect(await names(client, `video_created_at[gt]=${new Date(future * 1000).toISOString()}`)).toEqual([]);
  });

  it("refuses undeclared fields, unknown operators, operators a type lacks and mistyped values", async () => {
    const { client } = await createFixture(service);
    const cases: [string, string][] = [
      ["video_name=alpha", "video_name"],
      ["video_format[between]=a", "video_format[between]"],
      ["published[contains]=t", "published[contains]"],
      ["published=yes", "published"],
      ["video_created_at[gt]=yesterday", "video_created_at[gt]"],
      ["video_format[$where]=1", "video_format[$where]"],
    ];
    for (const [query, param] of cases) {
      const response = await client.get(`/api/v1/videos?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.code).toBe("invalid_request");
      expect(response.body.error.param, query).toBe(param);
    }
  });
});

describe("range boundaries: gt, gte, lt, lte on a number and a date, on both surfaces", () => {
  // Three ledger rows around one boundary: one just below it, one exactly at it, one just above
  // (amount 19/20/21; created 1 ms before, at, 1 ms after a whole second).
  const AT = new Date("2031-05-06T07:08:09.000Z");
  const ROWS = [
    { action_type: "below", amount: 19, created_at: new Date(AT.getTime() - 1) },
    { action_type: "at", amount: 20, created_at: AT },
    { action_type: "above", amount: 21, created_at: new Date(AT.getTime() + 1) },
  ];
  const EXPECTED = { gt: ["above"], gte: ["above", "at"], lt: ["below"], lte: ["at", "below"] } as const;
  const OPERATORS = Object.keys(EXPECTED) as (keyof typeof EXPECTED)[];

  async function ledger() {
    const fixture = await createFixture(service);
    await service.service.database.prisma.creditTransaction.createMany({
      data: ROWS.map((row, index) => ({ ...row, transaction_id: newId("credit_transaction"), workspace_id: fixture.workspaceId, balance_after: 100 + index })),
    });
    return fixture.client;
  }

  async function restRows(client: Client, query: string): Promise<string[]> {
    const response = await client.get(`/api/v1/credit_transactions?${query}&limit=100`);
    expect(response.status, `${query}: ${response.text}`).toBe(200);
    return response.body.data.map((row: { action_type: string }) => row.action_type).sort();
  }

  async function graphqlRows(client: Client, filter: Record<string, unknown>): Promise<string[]> {
    const response = await client.graphql(`query ($filter: CreditTransactionFilter) { credit_transactions(filter: $filter, limit: 100) { data { action_type } } }`, { filter });
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    return response.body.data.credit_transactions.data.map((row: { action_type: string }) => row.action_type).sort();
  }

  it("REST: a value exactly at the boundary is in for gte and lte, out for gt and lt", async () => {
    const client = await ledger();
    const unixSeconds = String(AT.getTime() / 1000);
    for (const operator of OPERATORS) {
      expect(await restRows(client, `amount[${operator}]=20`), `amount[${operator}]`).toEqual(EXPECTED[operator]);
      expect(await restRows(client, `created_at[${operator}]=${AT.toISOString()}`), `created_at[${operator}] ISO`).toEqual(EXPECTED[operator]);
      expect(await restRows(client, `created_at[${operator}]=${unixSeconds}`), `created_at[${operator}] unix`).toEqual(EXPECTED[operator]);
    }
  });

  it("GraphQL: the same boundaries through the typed filter", async () => {
    const client = await ledger();
    for (const operator of OPERATORS) {
      expect(await graphqlRows(client, { amount: { [operator]: 20 } }), `amount.${operator}`).toEqual(EXPECTED[operator]);
      expect(await graphqlRows(client, { created_at: { [operator]: AT.toISOString() } }), `created_at.${operator}`).toEqual(EXPECTED[operator]);
    }
  });

  it("a closed range keeps both ends; an empty one keeps nothing", async () => {
    const client = await ledger();
    expect(await restRows(client, "amount[gte]=19&amount[lte]=20")).toEqual(["at", "below"]);
    expect(await restRows(client, "amount[gt]=19&amount[lt]=21")).toEqual(["at"]);
    expect(await restRows(client, "amount[gt]=20&amount[lt]=21")).toEqual([]);
    expect(await graphqlRows(client, { created_at: { gte: AT.toISOString(), lte: AT.toISOString() } })).toEqual(["at"]);
  });
});

describe("operators that do not fit a field's type", () => {
  it("answer 400 naming the parameter, in our words, on every filterable field of every resource", async () => {
    const fixture = await createFixture(service);
    // One request per field and unfitting operator: more than a default minute window holds.
    const { client } = await fixture.newKey({ rateLimits: { minute: 100_000, hour: 100_000, day: 100_000 } });
    let checked = 0;
    for (const resource of contractResources()) {
      for (const field of filterableFields(resource)) {
        const fitting = OPERATORS_BY_KIND[field.kind];
        for (const operator of FILTER_OPERATORS.filter((candidate) => !fitting.includes(candidate))) {
          const param = `${field.name}[${operator}]`;
          const response = await client.get(`/api/v1/${resource.name}?${param}=1`);
          expect(response.status, `${resource.name} ${param}: ${response.text}`).toBe(400);
          expect(response.body.error).toMatchObject({ code: "invalid_request", param, details: { field: field.name, operator, allowed: [...fitting] } });
          expect(response.body.error.message).toBe(
            `The operator '${operator}' does not apply to ${field.name}, ${KIND_WORDS[field.kind]}; use one of ${fitting.join(", ")}.`,
          );
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("never answers with GraphQL's words for a value its type cannot hold", async () => {
    const { client } = await createFixture(service);
    // A filter's value is a 400 invalid_request; a bad page argument is a 422 (contract 4.2).
    const cases: Array<[string, number, string]> = [
      ...["published[in]=true,maybe", "video_created_at[gte]=soon", "faceless_status[exists]=perhaps", "published[exists]=1"].map((query): [string, number, string] => [query, 400, "invalid_request"]),
      ["limit=1e3", 422, "validation_failed"],
      ["offset=-1", 422, "validation_failed"],
    ];
    for (const [query, status, code] of cases) {
      const response = await client.get(`/api/v1/videos?${query}`);
      expect(response.status, query).toBe(status);
      expect(response.body.error.code, query).toBe(code);
      expect(response.body.error.param, query).toBeDefined();
      expect(response.body.error.message, query).not.toMatch(/Variable "\$|got invalid value|cannot represent|GraphQL/);
    }
  });
});

const KIND_WORDS: Record<string, string> = {
  string: "a text field",
  number: "a number field",
  integer: "an integer field",
  boolean: "a true/false field",
  datetime: "a date field",
  string_list: "a list field",
};

describe("GraphQL filters", () => {
  it("takes the same conditions as a typed filter argument", async () => {
    const { client } = await createFixture(service);
    const { folder } = await seed(client);
    const response = await client.graphql(
      `query ($filter: VideoFilter) { videos(filter: $filter, sort: "video_name", order: "asc") { data { video_name } } }`,
      { filter: { published: { eq: true }, folder_ids: { eq: folder } } },
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.videos.data).toEqual([{ video_name: "alpha" }]);
  });
});

describe("filters on keys of a JSON column", () => {
  it("filters voices by labels.language on both surfaces, global shelf included", async () => {
    const { client, workspaceId } = await createFixture(service);
    const prisma = service.service.database.prisma;
    const mine = newId("voice");
    const shared = newId("voice");
    await prisma.voice.createMany({
      data: [
        { voice_ref: mine, workspace_id: workspaceId, display_name: "Mine", provider: "test", labels: { language: "en", gender: "female" } },
        { voice_ref: shared, workspace_id: null, display_name: "Shared", provider: "test", labels: { language: "fr" } },
      ],
    });
    try {
      const english = await client.get(`/api/v1/voices?labels.language=en&provider=test`);
      expect(english.status, english.text).toBe(200);
      expect(english.body.data.map((voice: { voice_ref: string }) => voice.voice_ref)).toEqual([mine]);
      const notEnglish = await client.get(`/api/v1/voices?labels.language[ne]=en&provider=test`);
      expect(notEnglish.body.data.map((voice: { voice_ref: string }) => voice.voice_ref)).toContain(shared);
      expect(notEnglish.body.data.map((voice: { voice_ref: string }) => voice.voice_ref)).not.toContain(mine);
      const gendered = await client.get(`/api/v1/voices?labels.gender[exists]=true&provider=test`);
      expect(gendered.body.data.map((voice: { voice_ref: string }) => voice.voice_ref)).toEqual([mine]);

      const graphql = await client.graphql(`{ voices(filter: { labels: { language: { in: ["fr"] } }, provider: { eq: "test" } }) { data { voice_ref } } }`);
      expect(graphql.body.errors).toBeUndefined();
      expect(graphql.body.data.voices.data).toEqual([{ voice_ref: shared }]);
    } finally {
      await prisma.voice.deleteMany({ where: { voice_ref: { in: [mine, shared] } } });
    }
  });
});

describe("scripts: the format field beside the list's format parameter", () => {
  it("chooses the output with json/ndjson/csv and filters on any other value", async () => {
    const { client, workspaceId } = await createFixture(service);
    const prisma = service.service.database.prisma;
    await prisma.script.createMany({
      data: [
        { script_id: newId("script"), workspace_id: workspaceId, title: "Short one", format: "short" },
        { script_id: newId("script"), workspace_id: workspaceId, title: "Long one", format: "long" },
      ],
    });
    const short = await client.get("/api/v1/scripts?format=short");
    expect(short.status, short.text).toBe(200);
    expect(short.body.data.map((script: { title: string }) => script.title)).toEqual(["Short one"]);
    const explicit = await client.get("/api/v1/scripts?format[eq]=long&format=ndjson");
    expect(explicit.status, explicit.text).toBe(200);
    expect(explicit.headers.get("content-type")).toContain("ndjson");
    expect(explicit.text.trim().split("\n").map((line) => JSON.parse(line).title)).toEqual(["Long one"]);
  });
});
