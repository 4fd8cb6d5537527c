// List formats (contract 4.2, 7; docs/lists.md "Formats"): `format=json|ndjson|csv` or the Accept
// header. ndjson and csv are exports that stream every matching record (past the 100-row page cap)
// with the same filters and field selection as a json page; anything else is 406. Checked over
// real HTTP against the real database, comparing exports with the json pages they must match.
import { describe, expect, it } from "vitest";
import { newId } from "../src/ids.js";
import { createFixture, useService, type ApiResponse, type Client } from "./support/service.js";

const service = useService();

type Row = Record<string, any>;

const CSV_DISPOSITION = 'attachment; filename="videos.csv"';

/** RFC 4180 reader: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[index + 1] === "\n") index++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else {
      cell += char;
    }
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** How a json value is written in a csv cell: arrays and objects as JSON text, null as empty. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function parseNdjson(response: ApiResponse): Row[] {
  if (response.text === "") return [];
  expect(response.text.endsWith("\n"), "ndjson ends each record with a newline").toBe(true);
  return response.text.slice(0, -1).split("\n").map((line) => JSON.parse(line) as Row);
}

async function exportNdjson(client: Client, query: string, headers?: Record<string, string>): Promise<Row[]> {
  const response = await client.get(`/api/v1/videos${query ? `?${query}` : ""}`, { headers });
  expect(response.status, response.text.slice(0, 500)).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/x-ndjson(;|$)/);
  return parseNdjson(response);
}

async function exportCsv(client: Client, query: string, headers?: Record<string, string>): Promise<{ header: string[]; rows: string[][] }> {
  const response = await client.get(`/api/v1/videos${query ? `?${query}` : ""}`, { headers });
  expect(response.status, response.text.slice(0, 500)).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/csv(;|$)/);
  expect(response.headers.get("content-disposition")).toBe(CSV_DISPOSITION);
  const [header, ...rows] = parseCsv(response.text);
  expect(header, "a csv export always has a header row").toBeDefined();
  for (const row of rows) expect(row).toHaveLength(header!.length);
  return { header: header!, rows };
}

async function page(client: Client, query: string): Promise<Row> {
  const response = await client.get(`/api/v1/videos${query ? `?${query}` : ""}`);
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.body.object).toBe("list");
  return response.body as Row;
}

/** Every record a json client sees by following next_cursor with pages of 100. */
async function walkJson(client: Client, query: string): Promise<Row[]> {
  const records: Row[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const body = await page(client, [query, "limit=100", cursor && `cursor=${encodeURIComponent(cursor)}`].filter(Boolean).join("&"));
    records.push(...(body.data as Row[]));
    if (!body.has_more) return records;
    cursor = body.next_cursor as string;
  }
  throw new Error("pagination did not end");
}

const ids = (records: Row[]) => records.map((record) => record.video_id as string);

const FORMATS = ["portrait", "landscape", "square"] as const;

/**
 * Inserts `count` videos straight into the workspace (fast), one second apart, so the list order
 * is known: the format cycles portrait, landscape, square; every fifth has a video_json.
 */
async function seedMany(workspaceId: string, count: number): Promise<string[]> {
  const start = Date.now() - count * 1000 - 60_000;
  const data = Array.from({ length: count }, (_, index) => ({
    video_id: newId("video"),
    workspace_id: workspaceId,
    video_name: `Export ${String(index).padStart(3, "0")}`,
    video_format: FORMATS[index % 3]!,
    video_created_at: new Date(start + index * 1000),
    ...(index % 5 === 0 && { video_json: { index, tracks: [index] } }),
  }));
  await service.service.database.prisma.video.createMany({ data });
  return data.map((video) => video.video_id);
}

async function createVideo(client: Client, input: Row): Promise<Row> {
  const response = await client.post("/api/v1/videos", input);
  expect(response.status, response.text).toBe(201);
  return response.body as Row;
}

describe("ndjson", () => {
  it("writes one json record per line, by format=ndjson or by Accept: application/x-ndjson", async () => {
    const { client } = await createFixture(service);
    await createVideo(client, { video_name: "line\nbreak, \"quoted\"", config: { fps: 30 }, video_json: { heavy: true } });
    await createVideo(client, { video_name: "second", published: true, faceless_target_duration: 12.5 });
    await createVideo(client, { video_name: "third", video_format: "square" });
    const json = (await page(client, "limit=100")).data as Row[];
    expect(json).toHaveLength(3);

    const byParam = await exportNdjson(client, "format=ndjson");
    // The same records, fields and order as the json page (heavy fields left out alike).
    expect(byParam).toEqual(json);
    expect(byParam[0]).not.toHaveProperty("video_json");
    expect(await exportNdjson(client, "", { accept: "application/x-ndjson" })).toEqual(json);
  });

  it("answers an empty result with an empty body", async () => {
    const { client } = await createFixture(service);
    await createVideo(client, { video_name: "landscape only" });
    expect(await exportNdjson(client, "format=ndjson&video_format=square")).toEqual([]);
  });
});

describe("csv", () => {
  it("writes a header row of the selected fields in response order, then one row per record", async () => {
    const { client } = await createFixture(service);
    const folder = await client.post("/api/v1/folders", { folder_name: "Holder" });
    await createVideo(client, {
      video_name: 'Commas, "quotes"\nand a line break',
      config: { fps: 30, tags: ["a", "b"] },
      video_json: { scenes: [1, 2] },
      published: true,
      faceless_target_duration: 42.5,
      folder_ids: [folder.body.folder_id],
    });
    await createVideo(client, { video_name: "plain" });
    // Fields named out of order: columns still come in response order.
    const fields = "folder_ids,video_json,faceless_target_duration,published,config,video_name,video_created_at";
    const json = (await page(client, `limit=100&fields=${fields}`)).data as Row[];
    const columns = Object.keys(json[0]!);
    expect(columns.slice(0, 2)).toEqual(["object", "video_id"]);

    for (const [query, headers] of [[`format=csv&fields=${fields}`, undefined], [`fields=${fields}`, { accept: "text/csv" }]] as const) {
      const { header, rows } = await exportCsv(client, query, headers);
      expect(header).toEqual(columns);
      expect(rows).toEqual(json.map((record) => columns.map((column) => cell(record[column]))));
    }

    // Spot checks of the encoding a spreadsheet user relies on.
    const { header, rows } = await exportCsv(client, `format=csv&fields=${fields}`);
    const first = Object.fromEntries(header.map((column, index) => [column, rows[1]![index]]));
    expect(first.video_name).toBe('Commas, "quotes"\nand a line break');
    expect(JSON.parse(first.config!)).toEqual({ fps: 30, tags: ["a", "b"] });
    expect(JSON.parse(first.video_json!)).toEqual({ scenes: [1, 2] });
    expect(JSON.parse(first.folder_ids!)).toEqual([folder.body.folder_id]);
    expect(first.published).toBe("true");
    expect(first.faceless_target_duration).toBe("42.5");
    const second = Object.fromEntries(header.map((column, index) => [column, rows[0]![index]]));
    expect(second).toMatchObject({ object: "video", video_name: "plain", published: "false", config: "", video_json: "", folder_ids: "[]" });
  });

  it("writes every non-heavy field of the record by default, as the json page does", async () => {
    const { client } = await createFixture(service);
    await createVideo(client, { video_name: "default columns", video_json: { heavy: true } });
    const { header, rows } = await exportCsv(client, "format=csv");
    expect(header.slice(0, 3)).toEqual(["object", "video_id", "video_name"]);
    expect(header).not.toContain("video_json");
    expect(header).not.toContain("workspace_id");
    expect(rows).toHaveLength(1);
    const record = (await page(client, "")).data[0] as Row;
    for (const [index, column] of header.entries()) {
      if (column in record) expect(rows[0]![index], column).toBe(cell(record[column]));
    }
  });

  it("has exactly the columns of a json list item when no fields are named", async () => {
    const { client } = await createFixture(service);
    await createVideo(client, { video_name: "columns" });
    const record = (await page(client, "")).data[0] as Row;
    const { header, rows } = await exportCsv(client, "format=csv");
    expect(header).toEqual(Object.keys(record));
    expect(rows[0]).toEqual(Object.keys(record).map((column) => cell(record[column])));
  });

  it("answers an empty result with the header row alone", async () => {
    const { client } = await createFixture(service);
    await createVideo(client, { video_name: "landscape only" });
    const { header, rows } = await exportCsv(client, "format=csv&video_format=square&fields=video_name");
    expect(header).toEqual(["object", "video_id", "video_name"]);
    expect(rows).toEqual([]);
  });
});

describe("exports past the page cap", () => {
  it("stream every matching record exactly once, in list order, from this workspace only", async () => {
    const { client, workspaceId } = await createFixture(service);
    const other = await createFixture(service);
    const seeded = await seedMany(workspaceId, 230);
    await seedMany(other.workspaceId, 7);
    const walked = await walkJson(client, "");
    expect(walked).toHaveLength(230);
    // Default order: newest first.
    expect(ids(walked)).toEqual([...seeded].reverse());

    const ndjson = await exportNdjson(client, "format=ndjson");
    expect(ndjson).toHaveLength(230);
    expect(new Set(ids(ndjson)).size).toBe(230);
    expect(ndjson).toEqual(walked);

    const csv = await exportCsv(client, "", { accept: "text/csv" });
    expect(csv.rows).toHaveLength(230);
    const idColumn = csv.header.indexOf("video_id");
    expect(csv.rows.map((row) => row[idColumn])).toEqual(ids(walked));

    // Another order walks the same way.
    const byName = await exportNdjson(client, "format=ndjson&sort=video_name&order=asc");
    expect(ids(byName)).toEqual(seeded);
    expect(byName).toEqual(await walkJson(client, "sort=video_name&order=asc"));
  });

  it("cap the total at limit, which may exceed the page size", async () => {
    const { client, workspaceId } = await createFixture(service);
    await seedMany(workspaceId, 230);
    const walked = ids(await walkJson(client, ""));

    expect(ids(await exportNdjson(client, "format=ndjson&limit=150"))).toEqual(walked.slice(0, 150));
    expect(ids(await exportNdjson(client, "format=ndjson&limit=100"))).toEqual(walked.slice(0, 100));
    expect(ids(await exportNdjson(client, "format=ndjson&limit=7"))).toEqual(walked.slice(0, 7));
    expect(ids(await exportNdjson(client, "format=ndjson&limit=5000"))).toEqual(walked);

    const csv = await exportCsv(client, "format=csv&limit=150&fields=video_name");
    expect(csv.header).toEqual(["object", "video_id", "video_name"]);
    expect(csv.rows.map((row) => row[1])).toEqual(walked.slice(0, 150));
  });

  it("apply filters, search, fields and expand exactly as json pages do", async () => {
    const { client, workspaceId } = await createFixture(service);
    await seedMany(workspaceId, 230);

    const portrait = await exportNdjson(client, "format=ndjson&video_format=portrait");
    expect(portrait).toHaveLength(77);
    expect(portrait.every((video) => video.video_format === "portrait")).toBe(true);
    expect(portrait).toEqual(await walkJson(client, "video_format=portrait"));

    const notSquare = await exportNdjson(client, "format=ndjson&video_format[ne]=square&order=asc");
    expect(notSquare).toHaveLength(154);
    expect(notSquare).toEqual(await walkJson(client, "video_format[ne]=square&order=asc"));

    const searched = await exportNdjson(client, "format=ndjson&q=Export%2012");
    expect(ids(searched)).toEqual(ids(await walkJson(client, "q=Export%2012")));
    expect(searched.map((video) => video.video_name).sort()).toEqual(["Export 120", "Export 121", "Export 122", "Export 123", "Export 124", "Export 125", "Export 126", "Export 127", "Export 128", "Export 129"]);

    const sparse = await exportNdjson(client, "format=ndjson&fields=video_format,video_name&video_format=square");
    expect(sparse).toHaveLength(76);
    for (const video of sparse) expect(Object.keys(video)).toEqual(["object", "video_id", "video_name", "video_format"]);
    expect(sparse).toEqual(await walkJson(client, "fields=video_format,video_name&video_format=square"));

    const expanded = await exportNdjson(client, "format=ndjson&expand=video_json");
    expect(expanded).toHaveLength(230);
    expect(expanded.filter((video) => video.video_json !== null)).toHaveLength(46);
    expect(expanded).toEqual(await walkJson(client, "expand=video_json"));
    expect((await exportNdjson(client, "format=ndjson")).every((video) => !("video_json" in video))).toBe(true);

    const csv = await exportCsv(client, "format=csv&fields=video_name,video_json&video_format=landscape");
    expect(csv.header).toEqual(["object", "video_id", "video_name", "video_json"]);
    const json = await walkJson(client, "fields=video_name,video_json&video_format=landscape");
    expect(csv.rows).toEqual(json.map((record) => csv.header.map((column) => cell(record[column]))));
  });
});

describe("format negotiation", () => {
  it("answers format=xml or Accept: application/xml with 406 unsupported_format", async () => {
    const { client } = await createFixture(service);
    await createVideo(client, { video_name: "x" });
    for (const [query, headers] of [
      ["format=xml", undefined],
      ["format=pdf", undefined],
      ["format=CSV", undefined],
      ["", { accept: "application/xml" }],
      ["", { accept: "text/html" }],
    ] as const) {
      const response = await client.get(`/api/v1/videos${query ? `?${query}` : ""}`, { headers });
      expect(response.status, `${query} ${JSON.stringify(headers)}`).toBe(406);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.body.error).toMatchObject({ code: "unsupported_format", type: "invalid_request_error", status: 406, request_id: response.headers.get("x-request-id") });
    }
  });

  it("answers json for Accept: */*, application/json, no Accept, and when format=json overrides Accept", async () => {
    const { client } = await createFixture(service);
    await createVideo(client, { video_name: "x" });
    const accepts: Record<string, string>[] = [{ accept: "*/*" }, { accept: "application/json" }, { accept: "text/html, application/xhtml+xml, */*;q=0.8" }, {}];
    for (const headers of accepts) {
      const response = await client.get("/api/v1/videos", { headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.body).toMatchObject({ object: "list", data: [{ video_name: "x" }] });
    }
    const forced = await client.get("/api/v1/videos?format=json", { headers: { accept: "text/csv" } });
    expect(forced.headers.get("content-type")).toMatch(/^application\/json/);
    expect(forced.body.object).toBe("list");
    const explicit = await client.get("/api/v1/videos?format=csv", { headers: { accept: "application/json" } });
    expect(explicit.headers.get("content-type")).toMatch(/^text\/csv/);
  });

  it("answers a bad query with its 400 error envelope, never a half-written export", async () => {
    const { client } = await createFixture(service);
    await createVideo(client, { video_name: "x" });
    for (const [query, param, headers] of [
      ["format=csv&published=maybe", "published", undefined],
      ["published=maybe", "published", { accept: "text/csv" }],
      ["format=csv&video_format[like]=x", "video_format[like]", undefined],
      ["format=ndjson&cursor=not-a-cursor", "cursor", undefined],
      ["format=csv&sort=video_json", "sort", undefined],
      ["format=csv&fields=nope", "fields", undefined],
      ["format=ndjson&expand=video_name", "expand", undefined],
      ["format=csv&limit=0", "limit", undefined],
      ["format=csv&bogus=1", "bogus", undefined],
    ] as const) {
      const response = await client.get(`/api/v1/videos?${query}`, { headers });
      // A list argument out of its rule is 422 (contract 4.2); the rest of the grammar 400.
      const argument = param === "sort" || param === "limit";
      expect(response.status, `${query}: ${response.text}`).toBe(argument ? 422 : 400);
      expect(response.headers.get("content-type"), query).toMatch(/^application\/json/);
      expect(response.headers.get("content-disposition"), query).toBeNull();
      expect(response.body.error, query).toMatchObject(argument ? { code: "validation_failed", type: "validation_error", param } : { code: "invalid_request", type: "invalid_request_error", param });
    }
  });

  it("needs the read scope for an export like for a page", async () => {
    const fixture = await createFixture(service);
    await createVideo(fixture.client, { video_name: "x" });
    const { client } = await fixture.newKey({ scopes: ["folders:read"] });
    for (const query of ["format=csv", "format=ndjson"]) {
      const response = await client.get(`/api/v1/videos?${query}`);
      expect(response.status, response.text).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.body.error).toMatchObject({ code: "insufficient_scope", details: { required_scopes: ["videos:read"] } });
    }
  });
});
