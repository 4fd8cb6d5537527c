// Contract 4.2 lists 422 for a list request whose arguments break their rules: a bad `limit`,
// `offset`, `sort`, `order` or `include_total` is 422 validation_failed, its issue naming the
// parameter as `path`, with `allowed` (and `did_you_mean`) where the values are a closed set, on
// REST, GraphQL and listing actions alike. And an unknown field's `allowed` names the catalog's
// fields: not a listing's `cursor` (accepted, unlisted), but a video's id and service-set fields
// (listed, accepted and ignored).
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse } from "./support/service.js";

const service = useService();

type Row = Record<string, any>;

function expectIssue(response: ApiResponse, path: string): Row {
  expect(response.status, response.text).toBe(422);
  expect(response.body.error).toMatchObject({ code: "validation_failed", type: "validation_error", status: 422, param: path });
  const issues = response.body.error.details.issues as Row[];
  expect(issues).toHaveLength(1);
  expect(issues[0]).toMatchObject({ path });
  return issues[0]!;
}

describe("list arguments out of their rules are 422 validation_failed", () => {
  it("limit outside 1..100, or not an integer, on REST and GraphQL", async () => {
    const { client } = await createFixture(service);
    expect(expectIssue(await client.get("/api/v1/videos?limit=0"), "limit")).toMatchObject({ type: "number.min", message: "limit must be an integer from 1 to 100." });
    expect(expectIssue(await client.get("/api/v1/videos?limit=101"), "limit")).toMatchObject({ type: "number.max" });
    expect(expectIssue(await client.get("/api/v1/folders?limit=abc"), "limit")).toMatchObject({ type: "number.base" });
    expect(expectIssue(await client.get("/api/v1/videos?offset=-1"), "offset")).toMatchObject({ type: "number.base" });
    const graphql = await client.graphql("{ videos(limit: 0) { data { video_id } } }");
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: "validation_failed", status: 422, details: { issues: [{ path: "limit", type: "number.min" }] } });
  });

  it("sort outside the sortable fields names them and the nearest one", async () => {
    const { client } = await createFixture(service);
    const issue = expectIssue(await client.get("/api/v1/videos?sort=video_nmae"), "sort");
    expect(issue).toMatchObject({ type: "any.only", did_you_mean: "video_name" });
    expect(issue.allowed).toEqual(expect.arrayContaining(["video_name", "video_created_at"]));
    expect(issue.allowed).not.toContain("video_nmae");
  });

  it("order other than asc or desc, and include_total other than true or false", async () => {
    const { client } = await createFixture(service);
    expect(expectIssue(await client.get("/api/v1/videos?order=up"), "order")).toMatchObject({ type: "any.only", allowed: ["asc", "desc"] });
    expect(expectIssue(await client.get("/api/v1/videos?order=DESC"), "order")).toMatchObject({ did_you_mean: "desc" });
    expect(expectIssue(await client.get("/api/v1/videos?include_total=yes"), "include_total")).toMatchObject({ type: "boolean.base", allowed: ["true", "false"] });
  });

  it("a listing action's limit follows the same rule", async () => {
    const { client } = await createFixture(service);
    expect(expectIssue(await client.get("/api/v1/actions/account.credit_history?limit=0"), "limit")).toMatchObject({ type: "number.min" });
  });
});

describe("allowed names the catalog's fields", () => {
  it("a listing action's allowed leaves out cursor, which it still accepts", async () => {
    const { client } = await createFixture(service);
    const issue = expectIssue(await client.get("/api/v1/actions/account.credit_history?pages=2"), "pages");
    expect(issue).toMatchObject({ type: "object.unknown", did_you_mean: "page" });
    expect(issue.allowed).toEqual(expect.arrayContaining(["page", "limit"]));
    expect(issue.allowed).not.toContain("cursor");
    const first = await client.get("/api/v1/actions/account.credit_history?limit=1");
    expect(first.status, first.text).toBe(200);
    // cursor is taken: an invalid one is refused as a cursor, not as an unknown field
    const withCursor = await client.get("/api/v1/actions/account.credit_history?cursor=bm90LWEtY3Vyc29y");
    expect(withCursor.body.error?.details?.issues?.[0]?.type).not.toBe("object.unknown");
  });

  it("videos.create and videos.update list the video's id and service-set fields, which they accept and ignore", async () => {
    const { client } = await createFixture(service);
    const existing = await client.post("/api/v1/videos", { video_name: "existing" });
    expect(existing.status, existing.text).toBe(201);
    for (const [action, body] of [["videos.create", { video_nam: "x" }], ["videos.update", { video_id: existing.body.video_id, video_nam: "x" }]] as const) {
      const issue = expectIssue(await client.post(`/api/v1/actions/${action}`, body), "video_nam");
      expect(issue.did_you_mean, action).toBe("video_name");
      expect(issue.allowed, action).toEqual(expect.arrayContaining(["video_id", "video_user_id", "video_created_at", "video_name", "folder_ids"]));
      expect(issue.allowed, action).not.toContain("workspace_id");
    }
    const created = await client.post("/api/v1/actions/videos.create", { video_name: "kept", video_id: "vid_mine", video_user_id: "someone", video_created_at: "2001-01-01T00:00:00Z" });
    expect(created.status, created.text).toBeLessThan(300);
    const video = (created.body.video ?? created.body) as Row;
    expect(video.video_id).not.toBe("vid_mine");
    expect(video.video_created_at).not.toBe("2001-01-01T00:00:00.000Z");
  });
});
