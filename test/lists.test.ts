// List routes (contract 4.2) for videos over REST (GET /api/v1/videos) and GraphQL (`videos`):
// page size, cursor and offset pagination, sorting, time windows, search, heavy fields,
// sparse fieldsets, strict query parameters and workspace isolation.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client } from "./support/service.js";
import { sleep } from "./support/wait.js";

const service = useService();

type Row = Record<string, any>;

/** Heavy video fields (contract 2.2): absent from list items unless expanded. */
const HEAVY = ["video_json", "blocks", "groups", "composition", "smart_groups", "faceless_scenes", "faceless_template", "voice_settings_map", "video_captions"];

async function createVideo(client: Client, input: Row = {}): Promise<Row> {
  const response = await client.post("/api/v1/videos", input);
  expect(response.status, response.text).toBe(201);
  return response.body as Row;
}

/** Creates `count` videos, a few at a time; returns their ids. */
async function seedVideos(client: Client, count: number, input: (index: number) => Row = (index) => ({ video_name: `Video ${index}` })): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 8) {
    const batch = Array.from({ length: Math.min(8, count - start) }, (_, offset) => createVideo(client, input(start + offset)));
    ids.push(...(await Promise.all(batch)).map((video) => video.video_id as string));
  }
  return ids;
}

async function list(client: Client, query = ""): Promise<Row> {
  const response = await client.get(`/api/v1/videos${query ? `?${query}` : ""}`);
  expect(response.status, response.text).toBe(200);
  expect(response.body.object).toBe("list");
  expect(Array.isArray(response.body.data)).toBe(true);
  return response.body as Row;
}

const ids = (page: Row): string[] => (page.data as Row[]).map((video) => video.video_id as string);

/** A list argument out of its rule: 422 validation_failed, its one issue naming the parameter (contract 4.2). */
function expectBadArgument(response: ApiResponse, param: string): Row {
  expect(response.status, response.text).toBe(422);
  expect(response.body.error).toMatchObject({ code: "validation_failed", type: "validation_error", param, details: { issues: [{ path: param }] } });
  return response.body.error as Row;
}

function expectInvalid(response: ApiResponse, param: string): Row {
  expect(response.status, response.text).toBe(400);
  expect(response.body.error).toMatchObject({ code: "invalid_request", type: "invalid_request_error", param });
  return response.body.error as Row;
}

async function gqlVideos(client: Client, args: string, selection = "object has_more next_cursor total data { video_id }"): Promise<Row> {
  const response = await client.graphql(`{ videos${args ? `(${args})` : ""} { ${selection} } }`);
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data.videos as Row;
}

async function gqlVideosError(client: Client, args: string): Promise<Row> {
  const response = await client.graphql(`{ videos(${args}) { data { video_id } } }`);
  expect(response.body.errors?.length, response.text).toBeGreaterThan(0);
  return response.body.errors[0].extensions as Row;
}

/** Follows next_cursor over REST until has_more is false; returns every id in order. */
async function walkRest(client: Client, query: string, between?: (pageNumber: number) => Promise<void>): Promise<{ ids: string[]; pages: number[] }> {
  const seen: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const body = await list(client, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    seen.push(...ids(body));
    pages.push(body.data.length);
    if (!body.has_more) {
      expect(body.next_cursor).toBeNull();
      return { ids: seen, pages };
    }
    expect(typeof body.next_cursor).toBe("string");
    cursor = body.next_cursor as string;
    await between?.(page);
  }
  throw new Error("pagination did not end");
}

describe("page size", () => {
  it("defaults to 25 and takes limit from 1 to 100", async () => {
    const { client } = await createFixture(service);
    await seedVideos(client, 30);

    const first = await list(client);
    expect(first.data).toHaveLength(25);
    expect(first.has_more).toBe(true);
    expect(typeof first.next_cursor).toBe("string");
    expect(first.total).toBeNull();

    const one = await list(client, "limit=1");
    expect(one.data).toHaveLength(1);
    expect(one.has_more).toBe(true);

    const all = await list(client, "limit=100");
    expect(all.data).toHaveLength(30);
    expect(all.has_more).toBe(false);
    expect(all.next_cursor).toBeNull();
    expect(new Set(ids(all)).size).toBe(30);

    const exact = await list(client, "limit=30");
    expect(exact.data).toHaveLength(30);
    expect(exact.has_more).toBe(false);

    const graphql = await gqlVideos(client, "");
    expect(graphql.data).toHaveLength(25);
    expect(graphql.has_more).toBe(true);
    expect((await gqlVideos(client, "limit: 100")).data).toHaveLength(30);
  });

  it("rejects a limit outside 1..100 or not an integer with 422 naming limit", async () => {
    const { client } = await createFixture(service);
    await seedVideos(client, 1);
    // One rule in one wording, whatever is wrong with the value, on every resource and both surfaces.
    const rule = "limit must be an integer from 1 to 100.";
    for (const limit of ["0", "101", "-1", "abc", "2.5", "", "1000", "99999999999"]) {
      expect(expectBadArgument(await client.get(`/api/v1/videos?limit=${limit}`), "limit").message, limit).toBe(rule);
    }
    for (const resource of ["folders", "templates", "renders", "voices", "api_keys", "logs"]) {
      expect(expectBadArgument(await client.get(`/api/v1/${resource}?limit=abc`), "limit").message, resource).toBe(rule);
    }
    for (const limit of [0, 101, -5]) {
      expect(await gqlVideosError(client, `limit: ${limit}`)).toMatchObject({ code: "validation_failed", param: "limit", message: rule });
    }
  });

  it("answers an empty workspace with an empty page", async () => {
    const { client } = await createFixture(service);
    expect(await list(client, "include_total=true")).toMatchObject({ object: "list", data: [], has_more: false, next_cursor: null, total: 0 });
  });
});

describe("cursor pagination", () => {
  it("walks every record exactly once under the default sort, newest first and with order=asc", async () => {
    const { client } = await createFixture(service);
    const seeded = await seedVideos(client, 23);
    const walk = await walkRest(client, "limit=5");
    expect(walk.pages).toEqual([5, 5, 5, 5, 3]);
    expect(new Set(walk.ids).size).toBe(23);
    expect([...walk.ids].sort()).toEqual([...seeded].sort());
    // The walk is the same order as one big page.
    expect(walk.ids).toEqual(ids(await list(client, "limit=100")));

    const asc = await walkRest(client, "limit=4&order=asc");
    expect(asc.ids).toEqual([...walk.ids].reverse());
  });

  it("walks every record exactly once when sorting by a field with ties and nulls", async () => {
    const { client } = await createFixture(service);
    // Repeated names and missing names: ties and nulls across page boundaries.
    const seeded = await seedVideos(client, 17, (index) => ({
      ...(index % 4 === 0 ? {} : { video_name: ["alpha", "bravo", "charlie"][index % 3] }),
      ...(index % 3 === 0 ? {} : { video_last_audios_edition: `2025-0${1 + (index % 2)}-01T00:00:00Z` }),
    }));
    for (const query of ["limit=3&sort=video_name", "limit=3&sort=video_name&order=asc", "limit=2&sort=video_last_audios_edition", "limit=5&sort=video_last_audios_edition&order=asc"]) {
      const walk = await walkRest(client, query);
      expect(walk.ids, query).toHaveLength(17);
      expect(new Set(walk.ids).size, query).toBe(17);
      expect([...walk.ids].sort(), query).toEqual([...seeded].sort());
      // Pages are the same as one big page cut up.
      expect(walk.ids, query).toEqual(ids(await list(client, `${query.replace(/limit=\d+/, "limit=100")}`)));
    }
  });

  it("stays stable when rows are inserted before the cursor between pages", async () => {
    const { client } = await createFixture(service);
    // Sorted by name ascending, "m..." rows are walked while "a..." rows are inserted: every
    // insert lands before the cursor. Offset paging would repeat rows; a keyset cursor must not.
    const seeded = await seedVideos(client, 12, (index) => ({ video_name: `m${String(index).padStart(2, "0")}` }));
    const inserted: string[] = [];
    const walk = await walkRest(client, "limit=5&sort=video_name&order=asc", async (page) => {
      inserted.push(...(await seedVideos(client, 2, (index) => ({ video_name: `a${page}${index}` }))));
    });
    expect(inserted.length).toBeGreaterThan(0);
    expect(walk.ids).toEqual(seeded);
  });

  it("stays stable when new videos are inserted between pages of the default order", async () => {
    const { client } = await createFixture(service);
    const seeded = await seedVideos(client, 12);
    const inserted: string[] = [];
    const walk = await walkRest(client, "limit=5", async () => {
      inserted.push(...(await seedVideos(client, 2, (index) => ({ video_name: `Late ${index}` }))));
    });
    // Newest first: rows created after the walk began sort before the cursor and never show up,
    // and no original row is skipped or repeated.
    expect(inserted.length).toBeGreaterThan(0);
    expect(walk.ids).toHaveLength(12);
    expect([...walk.ids].sort()).toEqual([...seeded].sort());

    // Oldest first: rows inserted during the walk come after every original, once each.
    const ascInserted: string[] = [];
    const asc = await walkRest(client, "limit=7&order=asc", async () => {
      ascInserted.push((await createVideo(client, { video_name: "Later" })).video_id as string);
    });
    expect(new Set(asc.ids).size).toBe(asc.ids.length);
    const before = 12 + inserted.length;
    expect(asc.ids.slice(0, before).sort()).toEqual([...seeded, ...inserted].sort());
  });

  it("walks the same way through GraphQL", async () => {
    const { client } = await createFixture(service);
    const seeded = await seedVideos(client, 11, (index) => ({ video_name: `name ${index % 5}` }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Row = await gqlVideos(client, `limit: 4, sort: "video_name", order: "asc"${cursor ? `, cursor: ${JSON.stringify(cursor)}` : ""}`);
      seen.push(...ids(page));
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor as string | null;
      pages += 1;
    } while (cursor && pages < 20);
    expect(pages).toBe(3);
    expect([...seen].sort()).toEqual([...seeded].sort());
    expect(seen).toEqual(ids(await list(client, "limit=100&sort=video_name&order=asc")));
  });

  it("walks the default order through GraphQL", async () => {
    const { client } = await createFixture(service);
    const seeded = await seedVideos(client, 6);
    const first = await gqlVideos(client, "limit: 4");
    const second = await gqlVideos(client, `limit: 4, cursor: ${JSON.stringify(first.next_cursor)}`);
    expect([...ids(first), ...ids(second)].sort()).toEqual([...seeded].sort());
    expect(second.has_more).toBe(false);
  });

  it("walks folders (every folder sort is NOT NULL)", async () => {
    const { client } = await createFixture(service);
    const created: string[] = [];
    for (let index = 0; index < 5; index++) {
      const folder = await client.post("/api/v1/folders", { folder_name: `Folder ${index}` });
      created.push(folder.body.folder_id as string);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response: ApiResponse = await client.get(`/api/v1/folders?limit=2&sort=folder_name${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(response.status, response.text).toBe(200);
      seen.push(...(response.body.data as Row[]).map((folder) => folder.folder_id as string));
      cursor = response.body.next_cursor as string | null;
    } while (cursor && seen.length < 50);
    expect([...seen].sort()).toEqual([...created].sort());
  });

  it("rejects a cursor it did not issue, or one reused with another sort", async () => {
    const { client } = await createFixture(service);
    await seedVideos(client, 3);
    expectInvalid(await client.get("/api/v1/videos?cursor=not-a-cursor"), "cursor");
    const page = await list(client, "limit=1");
    expectInvalid(await client.get(`/api/v1/videos?limit=1&sort=video_name&cursor=${encodeURIComponent(page.next_cursor)}`), "cursor");
    const byName = await list(client, "limit=1&sort=video_name");
    expectInvalid(await client.get(`/api/v1/videos?limit=1&sort=video_name&order=asc&cursor=${encodeURIComponent(byName.next_cursor)}`), "cursor");
  });
});

describe("offset pagination", () => {
  it("returns the slice of the full ordering at the offset", async () => {
    const { client } = await createFixture(service);
    await seedVideos(client, 10);
    const full = ids(await list(client, "limit=100"));

    for (const offset of [0, 3, 7]) {
      const page = await list(client, `limit=3&offset=${offset}`);
      expect(ids(page)).toEqual(full.slice(offset, offset + 3));
      expect(page.has_more).toBe(offset + 3 < 10);
    }
    const last = await list(client, "limit=3&offset=9");
    expect(ids(last)).toEqual(full.slice(9));
    expect(last.has_more).toBe(false);
    const beyond = await list(client, "limit=3&offset=50");
    expect(beyond).toMatchObject({ data: [], has_more: false, next_cursor: null });

    const graphql = await gqlVideos(client, "limit: 3, offset: 3");
    expect(ids(graphql)).toEqual(full.slice(3, 6));
  });

  it("rejects a negative or non-integer offset with 422 naming offset", async () => {
    const { client } = await createFixture(service);
    for (const offset of ["-1", "x", "1.5"]) expectBadArgument(await client.get(`/api/v1/videos?offset=${offset}`), "offset");
    expect(await gqlVideosError(client, "offset: -1")).toMatchObject({ code: "validation_failed", param: "offset" });
  });
});

describe("sort and order", () => {
  const NAMES = ["delta", "alpha", "echo", "charlie", "bravo"];

  it("sorts by a sortable field in either order", async () => {
    const { client } = await createFixture(service);
    await seedVideos(client, NAMES.length, (index) => ({ video_name: NAMES[index] }));
    const names = (page: Row) => (page.data as Row[]).map((video) => video.video_name);

    expect(names(await list(client, "sort=video_name&order=asc"))).toEqual(["alpha", "bravo", "charlie", "delta", "echo"]);
    expect(names(await list(client, "sort=video_name&order=desc"))).toEqual(["echo", "delta", "charlie", "bravo", "alpha"]);
    expect(names(await list(client, "sort=video_name"))).toEqual(["echo", "delta", "charlie", "bravo", "alpha"]); // desc is the default
    expect(names(await gqlVideos(client, 'sort: "video_name", order: "asc"', "data { video_name }"))).toEqual(["alpha", "bravo", "charlie", "delta", "echo"]);
  });

  it("sorts by a date field", async () => {
    const { client } = await createFixture(service);
    const [late, early, middle] = await seedVideos(client, 3, (index) => ({
      video_last_audios_edition: ["2026-05-01T00:00:00Z", "2024-01-01T00:00:00Z", "2025-03-01T00:00:00Z"][index],
    }));
    expect(ids(await list(client, "sort=video_last_audios_edition&order=asc"))).toEqual([early, middle, late]);
    expect(ids(await list(client, "sort=video_last_audios_edition&order=desc"))).toEqual([late, middle, early]);
  });

  it("orders by creation time, newest first unless order=asc", async () => {
    const { client } = await createFixture(service);
    const created: string[] = [];
    for (let index = 0; index < 5; index++) {
      created.push((await createVideo(client, { video_name: `v${index}` })).video_id);
      await sleep(5);
    }
    const desc = await list(client);
    expect(ids(desc)).toEqual([...created].reverse());
    const times = (desc.data as Row[]).map((video) => Date.parse(video.video_created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(ids(await list(client, "order=asc"))).toEqual(created);
    expect(ids(await list(client, "sort=video_created_at&order=asc"))).toEqual(created);
    expect(ids(await gqlVideos(client, 'order: "asc"'))).toEqual(created);
  });

  it("rejects a field that is not sortable, and an unknown order, with 422 naming the parameter", async () => {
    const { client } = await createFixture(service);
    for (const sort of ["video_json", "video_comment", "workspace_id", "folder_ids", "nope"]) {
      const response = await client.get(`/api/v1/videos?sort=${sort}`);
      expectBadArgument(response, "sort");
    }
    expect(await gqlVideosError(client, 'sort: "video_json"')).toMatchObject({ code: "validation_failed", param: "sort" });
    for (const order of ["up", "ASC", "descending"]) expectBadArgument(await client.get(`/api/v1/videos?order=${order}`), "order");
    expect(await gqlVideosError(client, 'order: "sideways"')).toMatchObject({ code: "validation_failed", param: "order" });
  });
});

describe("include_total", () => {
  it("adds the count of every matching record, and only when asked", async () => {
    const { client } = await createFixture(service);
    await seedVideos(client, 7, (index) => ({ video_name: index < 3 ? `needle ${index}` : `hay ${index}` }));
    expect((await list(client, "limit=2")).total).toBeNull();
    expect((await list(client, "limit=2&include_total=false")).total).toBeNull();
    const page = await list(client, "limit=2&include_total=true&sort=video_name");
    expect(page.total).toBe(7);
    expect(page.data).toHaveLength(2);
    // The total is of the whole result, not of what is left after the cursor.
    expect((await list(client, `limit=2&include_total=true&sort=video_name&cursor=${encodeURIComponent(page.next_cursor)}`)).total).toBe(7);
    expect((await list(client, "include_total=true&q=needle")).total).toBe(3);

    expect((await gqlVideos(client, "limit: 2, include_total: true")).total).toBe(7);
    expect((await gqlVideos(client, "limit: 2")).total).toBeNull();
    expectBadArgument(await client.get("/api/v1/videos?include_total=yes"), "include_total");
  });
});

describe("created_after and created_before", () => {
  it("filter by creation time given as ISO 8601 or unix seconds", async () => {
    const { client } = await createFixture(service);
    const early = await createVideo(client, { video_name: "early" });
    await sleep(1100); // a whole second between them, so a unix-seconds boundary fits in between
    const late = await createVideo(client, { video_name: "late" });
    const earlyMs = Date.parse(early.video_created_at);
    const lateMs = Date.parse(late.video_created_at);
    expect(lateMs - earlyMs).toBeGreaterThanOrEqual(1000);

    const midIso = new Date(Math.floor((earlyMs + lateMs) / 2)).toISOString();
    const midUnix = Math.floor(earlyMs / 1000) + 1; // early < midUnix*1000 <= early + 1s < late
    expect(midUnix * 1000).toBeGreaterThan(earlyMs);
    expect(midUnix * 1000).toBeLessThan(lateMs);

    for (const boundary of [midIso, String(midUnix)]) {
      expect(ids(await list(client, `created_after=${encodeURIComponent(boundary)}`)), boundary).toEqual([late.video_id]);
      expect(ids(await list(client, `created_before=${encodeURIComponent(boundary)}`)), boundary).toEqual([early.video_id]);
    }
    // An ISO time with an offset means the same instant.
    const offsetIso = new Date(Math.floor((earlyMs + lateMs) / 2) + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    expect(ids(await list(client, `created_after=${encodeURIComponent(offsetIso)}`))).toEqual([late.video_id]);
    // A window around both, and around neither.
    const before = new Date(earlyMs - 60_000).toISOString();
    const after = new Date(lateMs + 60_000).toISOString();
    expect(ids(await list(client, `created_after=${before}&created_before=${after}&order=asc`))).toEqual([early.video_id, late.video_id]);
    expect(ids(await list(client, `created_after=${after}`))).toEqual([]);
    expect(ids(await list(client, `created_after=${Math.floor(earlyMs / 1000) - 60}&created_before=${Math.ceil(lateMs / 1000) + 60}`))).toHaveLength(2);

    expect(ids(await gqlVideos(client, `created_after: ${JSON.stringify(midIso)}`))).toEqual([late.video_id]);
    expect(ids(await gqlVideos(client, `created_before: "${midUnix}"`))).toEqual([early.video_id]);
  });

  it("rejects a value that is neither ISO 8601 nor unix seconds", async () => {
    const { client } = await createFixture(service);
    expectInvalid(await client.get("/api/v1/videos?created_after=yesterday"), "created_after");
    expectInvalid(await client.get("/api/v1/videos?created_before=2026-13-45T99:00:00Z"), "created_before");
    expect(await gqlVideosError(client, 'created_after: "soon"')).toMatchObject({ code: "invalid_request", param: "created_after" });
  });
});

describe("q search", () => {
  it("searches video_name, video_keyword and video_comment, case-insensitively", async () => {
    const { client } = await createFixture(service);
    const byName = await createVideo(client, { video_name: "Sunset Timelapse" });
    const byKeyword = await createVideo(client, { video_name: "Clip 2", video_keyword: "BEACH day" });
    const byComment = await createVideo(client, { video_name: "Clip 3", video_comment: "needs colour grading" });
    const notSearchable = await createVideo(client, { video_name: "Clip 4", video_script: "sunset beach colour", video_lang: "zebra" });

    expect(ids(await list(client, "q=sunset"))).toEqual([byName.video_id]);
    expect(ids(await list(client, "q=SUNSET%20time"))).toEqual([byName.video_id]);
    expect(ids(await list(client, "q=beach"))).toEqual([byKeyword.video_id]);
    expect(ids(await list(client, "q=Colour"))).toEqual([byComment.video_id]);
    expect(ids(await list(client, "q=clip&order=asc"))).toEqual([byKeyword.video_id, byComment.video_id, notSearchable.video_id]);
    expect(ids(await list(client, "q=zebra"))).toEqual([]);
    expect(ids(await list(client, "q=nothing-like-this"))).toEqual([]);

    expect(ids(await gqlVideos(client, 'q: "bEaCh"'))).toEqual([byKeyword.video_id]);
  });

  it("combines with pagination and the other parameters", async () => {
    const { client } = await createFixture(service);
    await seedVideos(client, 9, (index) => ({ video_name: index % 3 === 0 ? `Match ${index}` : `Other ${index}` }));
    const walk = await walkRest(client, "q=match&limit=2&include_total=true&sort=video_name");
    expect(walk.ids).toHaveLength(3);
    expect(walk.pages).toEqual([2, 1]);
  });

  it("treats %, _ and \\ in q as literal text", async () => {
    const { client } = await createFixture(service);
    const percent = await createVideo(client, { video_name: "100% real" });
    await createVideo(client, { video_name: "100 real" });
    const underscore = await createVideo(client, { video_name: "file_name" });
    await createVideo(client, { video_name: "filexname" });
    const backslash = await createVideo(client, { video_name: "C:\\clips" });

    expect(ids(await list(client, `q=${encodeURIComponent("100%")}`))).toEqual([percent.video_id]);
    expect(ids(await list(client, "q=file_name"))).toEqual([underscore.video_id]);
    expect(ids(await list(client, `q=${encodeURIComponent(":\\c")}`))).toEqual([backslash.video_id]);
    expect(ids(await list(client, `q=${encodeURIComponent("%")}`))).toEqual([percent.video_id]);
  });
});

describe("heavy fields and expand", () => {
  const HEAVY_VALUES: Row = {
    video_json: { timeline: [1, 2] },
    blocks: [{ type: "text" }],
    groups: [{ id: "g1" }],
    // Values in the timeline model's shapes (src/video-model/timeline/), already as it stores them.
    composition: { duration: 1, fps: 30, background_color: "#000000FF", layers: [] },
    smart_groups: [],
    faceless_scenes: [],
    faceless_template: { name: "t" },
    voice_settings_map: { narrator: { voice_ref: "v1" } },
    video_captions: { text: "hi", words: [], groups: [] },
  };

  it("leaves heavy fields out of list items unless expanded; the single record has them", async () => {
    const { client } = await createFixture(service);
    const video = await createVideo(client, { video_name: "Heavy", config: { fps: 30 }, ...HEAVY_VALUES });

    const item = (await list(client)).data[0] as Row;
    for (const field of HEAVY) expect(item, field).not.toHaveProperty(field);
    expect(item).toMatchObject({ object: "video", video_id: video.video_id, video_name: "Heavy", config: { fps: 30 } });

    const expanded = (await list(client, "expand=video_json")).data[0] as Row;
    expect(expanded.video_json).toEqual(HEAVY_VALUES.video_json);
    for (const field of HEAVY.filter((name) => name !== "video_json")) expect(expanded, field).not.toHaveProperty(field);
    expect(expanded.video_name).toBe("Heavy");

    const several = (await list(client, "expand=video_json,blocks,composition")).data[0] as Row;
    expect(several).toMatchObject({ video_json: HEAVY_VALUES.video_json, blocks: HEAVY_VALUES.blocks, composition: HEAVY_VALUES.composition });
    expect(several).not.toHaveProperty("groups");

    const everything = (await list(client, `expand=${HEAVY.join(",")}`)).data[0] as Row;
    expect(everything).toMatchObject(HEAVY_VALUES);

    const single = await client.get(`/api/v1/videos/${video.video_id}`);
    expect(single.body).toMatchObject(HEAVY_VALUES);
  });

  it("rejects expanding a field that is not heavy or does not exist, naming expand", async () => {
    const { client } = await createFixture(service);
    expectInvalid(await client.get("/api/v1/videos?expand=video_name"), "expand");
    expectInvalid(await client.get("/api/v1/videos?expand=nope"), "expand");
  });
});

describe("fields (sparse fieldsets)", () => {
  it("returns only object, the id and the named fields, on lists and on get", async () => {
    const { client } = await createFixture(service);
    const video = await createVideo(client, { video_name: "Sparse", video_format: "square", video_json: { big: true } });

    const page = await list(client, "fields=video_name");
    expect(page.data).toEqual([{ object: "video", video_id: video.video_id, video_name: "Sparse" }]);
    expect(page).toMatchObject({ object: "list", has_more: false, next_cursor: null });
    expect(typeof page.request_id).toBe("string");

    const two = await list(client, "fields=video_name,video_format");
    expect(two.data).toEqual([{ object: "video", video_id: video.video_id, video_name: "Sparse", video_format: "square" }]);

    const got = await client.get(`/api/v1/videos/${video.video_id}?fields=video_name`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ object: "video", video_id: video.video_id, video_name: "Sparse", livemode: true, request_id: got.headers.get("x-request-id") });

    const gotTwo = await client.get(`/api/v1/videos/${video.video_id}?fields=video_format,folder_ids`);
    expect(Object.keys(gotTwo.body).sort()).toEqual(["folder_ids", "livemode", "object", "request_id", "video_format", "video_id"]);
  });

  it("rejects a field the record does not have, naming fields", async () => {
    const { client } = await createFixture(service);
    const video = await createVideo(client);
    expectInvalid(await client.get("/api/v1/videos?fields=video_name,nope"), "fields");
    expectInvalid(await client.get("/api/v1/videos?fields=workspace_id"), "fields");
    expectInvalid(await client.get(`/api/v1/videos/${video.video_id}?fields=nope`), "fields");
  });
});

describe("fields on create and update answers", () => {
  it("answers the whole record by default, and only the named fields with ?fields=", async () => {
    const { client } = await createFixture(service);
    const full = await client.post("/api/v1/videos", { video_name: "Whole" });
    expect(full.status).toBe(201);
    expect(Object.keys(full.body)).toEqual(expect.arrayContaining(["video_name", "video_format", "faceless_status", "composition", "folder_ids"]));
    expect(Object.keys(full.body).length).toBeGreaterThan(60);

    const created = await client.post("/api/v1/videos?fields=video_name,video_format", { video_name: "Lean", composition: { duration: 1 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      object: "video", video_id: created.body.video_id, video_name: "Lean", video_format: "landscape",
      livemode: true, request_id: created.headers.get("x-request-id"),
    });
    // The write itself is whole: what was left out of the answer was still stored.
    expect((await client.get(`/api/v1/videos/${created.body.video_id}?fields=composition`)).body.composition).toMatchObject({ duration: 1 });

    const patched = await client.patch(`/api/v1/videos/${created.body.video_id}?fields=video_name`, { video_name: "Leaner", published: true });
    expect(patched.status).toBe(200);
    expect(Object.keys(patched.body).sort()).toEqual(["livemode", "object", "request_id", "video_id", "video_name"]);
    expect(patched.body.video_name).toBe("Leaner");
    const aliased = await client.post(`/api/v1/videos/${created.body.video_id}?fields=published`, { video_comment: "via POST" });
    expect(aliased.status).toBe(200);
    expect(Object.keys(aliased.body).sort()).toEqual(["livemode", "object", "published", "request_id", "video_id"]);

    const folder = await client.post("/api/v1/folders?fields=folder_name", { folder_name: "Narrow" });
    expect(Object.keys(folder.body).sort()).toEqual(["folder_id", "folder_name", "livemode", "object", "request_id"]);
  });

  it("refuses an unknown field before writing anything, and takes no fields on delete", async () => {
    const { client } = await createFixture(service);
    expectInvalid(await client.post("/api/v1/videos?fields=video_name,nope", { video_name: "Never" }), "fields");
    expectInvalid(await client.post("/api/v1/videos?expand=video_json", { video_name: "Never" }), "expand");
    expect((await list(client, "include_total=true")).total).toBe(0);
    const video = await createVideo(client, { video_name: "Kept" });
    expectInvalid(await client.patch(`/api/v1/videos/${video.video_id}?fields=nope`, { video_name: "Changed" }), "fields");
    expect((await client.get(`/api/v1/videos/${video.video_id}`)).body.video_name).toBe("Kept");
    expectInvalid(await client.delete(`/api/v1/videos/${video.video_id}?fields=video_name`), "fields");
    expect((await client.get(`/api/v1/videos/${video.video_id}`)).status).toBe(200);
  });
});

describe("unknown query parameters", () => {
  it("are rejected with 400 invalid_request naming the parameter, on list and get", async () => {
    const { client } = await createFixture(service);
    const video = await createVideo(client);
    for (const name of ["colour", "page", "limits", "per_page", "workspace_id"]) {
      expectInvalid(await client.get(`/api/v1/videos?${name}=1`), name);
    }
    expectInvalid(await client.get("/api/v1/videos?limit=5&bogus=x"), "bogus");
    expectInvalid(await client.get(`/api/v1/videos/${video.video_id}?bogus=1`), "bogus");
    expectInvalid(await client.get(`/api/v1/videos/${video.video_id}?expand=video_json&limit=1`), "expand");
  });
});

describe("workspace isolation", () => {
  it("never shows another workspace's videos, on any list form", async () => {
    const { client } = await createFixture(service);
    const other = await createFixture(service);
    const mine = await seedVideos(client, 3, (index) => ({ video_name: `shared name ${index}`, video_keyword: "common" }));
    await seedVideos(other.client, 4, (index) => ({ video_name: `shared name ${index}`, video_keyword: "common" }));

    const queries = ["", "limit=100", "q=shared", "q=common", "sort=video_name&order=asc", "order=asc", "offset=1", "created_after=0", "expand=video_json"];
    for (const query of queries) {
      for (const id of ids(await list(client, query))) expect(mine, query).toContain(id);
    }
    expect((await list(client, "include_total=true")).total).toBe(3);
    const walk = await walkRest(client, "limit=1&sort=video_name");
    expect([...walk.ids].sort()).toEqual([...mine].sort());

    const graphql = await gqlVideos(client, 'limit: 100, include_total: true, q: "shared"');
    expect(graphql.total).toBe(3);
    expect([...ids(graphql)].sort()).toEqual([...mine].sort());
    expect((await list(other.client, "include_total=true")).total).toBe(4);
  });
});
