// The tools that read third-party pages (docs/generation.md, "Tools"): tools.read_comments,
// tools.write_lyrics and tools.video_site_to_karaoke against the stand-in's recorded-shape pages
// (a JSON listing thread, a Discourse topic, an oEmbed + timed-text video site), through the real
// URL guard; credits, generations rows, refusals and test mode.
import { describe, expect, it } from "vitest";
import { siteUrls } from "./support/provider-standin/site-routes.js";
import { useService, useStandIn, type ApiResponse, type Client } from "./support/service.js";
import { balanceOf, funded, ok } from "./support/action-calls.js";

type Row = Record<string, any>;

const overrides = {};
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;
const urls = () => siteUrls(standIn().url);

function refused(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status });
  return response.body.error as Row;
}

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/tools.${name}`, input);

describe("tools.read_comments", () => {
  it("reads a JSON listing thread: the post, comments depth first in the site's order, deleted ones skipped, for 1 credit", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const read = ok(await call(client, "read_comments", { post_url: urls().forum_url }));
    expect(read).toMatchObject({ object: "forum_comments", format: "listing_json", credits: { cost: 1, charged: 1, balance_after: 19 } });
    expect(read.post).toMatchObject({ post_id: "1abc2de", author: "sleepless_in_leeds", score: 4821, comment_count: 7, created_at: "2025-11-24T16:00:00.000Z" });
    expect(read.post.body).toContain("does laps & knocks things off the shelf");
    expect(read.comments.map((comment: Row) => [comment.comment_id, comment.parent_id, comment.depth])).toEqual([
      ["lx1a", null, 0], ["lx1b", "lx1a", 1], ["lx3a", null, 0], ["lx4a", null, 0], ["lx5a", null, 0],
    ]);
    expect(standIn().calls((entry) => entry.path === "/comments/1abc2de.json")).toHaveLength(1);
    // It reads, it makes nothing: no generations row.
    expect(await prisma().generation.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("reads a Discourse topic, fetching the posts the topic did not send, and honours comment_limit", async () => {
    const { client } = await funded(service, 20);
    standIn().reset();
    const read = ok(await call(client, "read_comments", { post_url: urls().discourse_url, comment_limit: 22 }));
    expect(read).toMatchObject({ format: "discourse_json", post: { post_id: "4242", title: "Favourite purring sounds", author: "ada", comment_count: 23 } });
    expect(read.post.body).toContain("little trill");
    expect(read.comments).toHaveLength(22);
    expect(read.comments[0]).toMatchObject({ comment_id: "90002", author: "member2", parent_id: null, depth: 0 });
    expect(read.comments[0].body).toContain("& it is the best sound");
    expect(read.comments.find((comment: Row) => comment.comment_id === "90005")).toMatchObject({ parent_id: "90003", depth: 1 });
    expect(read.comments.at(-1).comment_id).toBe("90023");
    expect(standIn().calls((entry) => entry.path === "/t/4242/posts.json").map((entry) => entry.summary.posts)).toEqual([3]);

    const few = ok(await call(client, "read_comments", { post_url: urls().discourse_url, comment_limit: 2 }));
    expect(few.comments.map((comment: Row) => comment.comment_id)).toEqual(["90002", "90003"]);
  });

  it("refuses addresses it cannot read, and gives the credit back when the site fails", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const unknown = refused(await call(client, "read_comments", { post_url: `${standIn().url}/some/article` }), 422, "validation_failed");
    expect(unknown.details.issues[0]).toMatchObject({ path: "post_url", allowed: ["listing_json", "discourse_json"] });
    refused(await call(client, "read_comments", { post_url: `${standIn().url}/r/cats/comments/zzz999/gone/` }), 400, "invalid_request");
    // A private address is refused by the URL guard before anything is sent.
    const guarded = refused(await call(client, "read_comments", { post_url: "http://10.1.2.3/r/cats/comments/abc/x/" }), 400, "invalid_request");
    expect(guarded.param).toBe("post_url");
    standIn().failNext("web", { status: 503 });
    const failed = refused(await call(client, "read_comments", { post_url: urls().forum_url }), 502, "upstream_error");
    expect(failed.details).toMatchObject({ site_format: "listing_json", reason: "http_status" });
    expect(await balanceOf(service, workspaceId)).toBe(20);
  });

  it("is a typed GraphQL field too, and a test key gets a quote without fetching", async () => {
    const fixture = await funded(service, 20);
    const answer = await fixture.client.graphql(`mutation($input: ToolsReadCommentsInput!) { tools_read_comments(input: $input) { ... on ToolsReadCommentsResult { object format post { post_id title } comments { comment_id depth } credits { charged } } } }`, {
      input: { post_url: urls().forum_url, comment_limit: 2 },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.tools_read_comments).toEqual({
      object: "forum_comments", format: "listing_json", post: { post_id: "1abc2de", title: "Why does my cat sprint through the flat at 3 am?" },
      comments: [{ comment_id: "lx1a", depth: 0 }, { comment_id: "lx1b", depth: 1 }], credits: { charged: 1 },
    });
    const test = await fixture.newKey({ mode: "test" });
    const before = standIn().calls().length;
    expect(ok(await call(test.client, "read_comments", { post_url: urls().forum_url }))).toMatchObject({ object: "action_quote", livemode: false, credits: { cost: 1, charged: 0 } });
    expect(standIn().calls().length).toBe(before);
  });
});

describe("tools.write_lyrics", () => {
  it("turns read comments into lyrics whose every line keeps a comment id it was given, recorded as a billed generation", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const read = ok(await call(client, "read_comments", { post_url: urls().forum_url }));
    const ids = read.comments.map((comment: Row) => comment.comment_id);
    const lyrics = ok(await call(client, "write_lyrics", { post: read.post, comments: read.comments, genre: "sea shanty", target_seconds: 30, clean: true }));
    expect(lyrics).toMatchObject({ object: "lyrics", genre: "sea shanty", target_seconds: 30, clean: true, credits: { cost: 2, charged: 2, balance_after: 17 } });
    expect(lyrics.lines.length).toBeGreaterThan(0);
    for (const line of lyrics.lines) expect(ids).toContain(line.comment_id);
    expect(lyrics.comment_ids_used.every((id: string) => ids.includes(id))).toBe(true);
    // The model was asked with the ids as the only allowed values, and the comments and post in the prompt.
    const asked = standIn().calls("openai.chat").at(-1)!;
    expect(JSON.stringify(asked.schema)).toContain('"lx1b"');
    expect(asked.messages!.user).toContain("lx3a: Mine sits on my chest");
    expect(asked.messages!.user).toContain("Keep it clean");
    const generation = await prisma().generation.findUniqueOrThrow({ where: { generation_id: lyrics.generation_id } });
    expect(generation).toMatchObject({ workspace_id: workspaceId, status: "completed", credits_consumed: 2, agent_type: "text" });
    expect((generation.generation_metadata as Row).lines).toEqual(lyrics.lines);
    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "generation.completed" } });
    expect(events.map((event) => (event.data as Row).object.generation_id)).toEqual([lyrics.generation_id]);
  });

  it("keeps the id of a scripted answer's lines, refuses ids it was not given, comments without id or text, and another workspace", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const comments = [{ id: 7, text: "Cats rule." }, { comment_id: "b", body: "Dogs drool." }];
    standIn().answerNext("openai.chat", { title: "Fur", lines: [{ section: "chorus", text: "Cats rule, dogs drool", comment_id: "7" }, { section: "chorus", text: "Dogs drool all day", comment_id: "b" }] });
    const lyrics = ok(await call(client, "write_lyrics", { comments }));
    expect(lyrics.lines).toEqual([
      { section: "chorus", text: "Cats rule, dogs drool", comment_id: "7", comment_author: null },
      { section: "chorus", text: "Dogs drool all day", comment_id: "b", comment_author: null },
    ]);
    expect(lyrics.text).toBe("[Chorus]\nCats rule, dogs drool\nDogs drool all day");

    // A model that names a comment it was not given: the answer fails its schema (502), the hold
    // comes back, and a failed generation says nothing was spent.
    standIn().answerNext("openai.chat", { title: "Fur", lines: [{ section: "verse", text: "Invented", comment_id: "nope" }] });
    refused(await call(client, "write_lyrics", { comments }), 502, "upstream_error");
    expect(await balanceOf(service, workspaceId)).toBe(18);
    const failed = await prisma().generation.findFirstOrThrow({ where: { workspace_id: workspaceId, status: "failed" } });
    expect(failed).toMatchObject({ credits_consumed: 0, agent_type: "text" });
    const event = await prisma().outboxEvent.findFirstOrThrow({ where: { workspace_id: workspaceId, type: "generation.failed" } });
    expect(event.data).toMatchObject({ object: { generation_id: failed.generation_id, status: "failed" }, credits_consumed: 0, credits_refunded: 2, error_code: "upstream_error" });

    const bad = refused(await call(client, "write_lyrics", { comments: [{ body: "no id" }, { id: "x" }] }), 422, "validation_failed");
    expect(bad.details.issues.map((issue: Row) => issue.path)).toEqual(["comments.0.comment_id", "comments.1.body"]);
    refused(await call(client, "write_lyrics", { comments, workspace_id: "ws_someone_else" }), 403, "workspace_mismatch");
    const model = refused(await call(client, "write_lyrics", { comments, model_ref: "openai/not-a-model" }), 422, "validation_failed");
    expect(model.details.issues[0]).toMatchObject({ path: "model_ref", type: "any.only" });
    expect(await balanceOf(service, workspaceId)).toBe(18);
  });
});

describe("tools.video_site_to_karaoke", () => {
  it("builds a karaoke video from the oEmbed facts and the timed-text captions, over the stored thumbnail", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const karaoke = ok(await call(client, "video_site_to_karaoke", { video_site_url: urls().video_site_url }));
    expect(karaoke).toMatchObject({
      object: "karaoke_video", format: "oembed_timedtext", truncated: false, credits: { cost: 5, charged: 5, balance_after: 15 },
      source: { video_id: "Kr4okE9xQ2w", title: "Twinkle Twinkle Little Star (Sing-Along)", author: "Nursery Choir", language: "en" },
    });
    expect(karaoke.lines.map((line: Row) => line.text)).toEqual([
      "Twinkle, twinkle, little star", "How I wonder what you are", "Up above the world so high", "Like a diamond in the sky", "Don't you wonder & sing along",
    ]);
    expect(karaoke.lines[0]).toMatchObject({ start: 0.8, end: 3.2 });
    expect(karaoke.duration_seconds).toBe(15.2);

    const video = ok(await client.get(`/api/v1/videos/${karaoke.video_id}`));
    expect(video).toMatchObject({ video_format: "landscape", video_lang: "en" });
    const layers = video.composition.layers as Row[];
    expect(layers[0]).toMatchObject({ type: "image", src: karaoke.thumbnail_url, width: 1440, height: 1080, x: 240, opacity: 0.35 });
    const sung = layers.filter((layer) => layer.type === "text" && layer.font_size === 76);
    expect(sung.map((layer) => [layer.start, layer.text])).toEqual(karaoke.lines.map((line: Row) => [line.start, line.text]));
    // The subtitle track follows the timeline model: one group per line, its words spread over the line.
    const captions = video.video_captions as Row;
    expect(captions.groups.map((group: Row) => [group.start, group.end, group.words.map((word: Row) => word.word).join(" ")])).toEqual(
      karaoke.lines.map((line: Row) => [line.start, line.end, line.text]),
    );
    expect(captions.groups[0].words[0]).toMatchObject({ word: "Twinkle,", start: 0.8, end: 1.4 });
    // The thumbnail was fetched through the guard, checked with sharp and stored: its link serves it.
    const thumbnail = await fetch(karaoke.thumbnail_url);
    expect(thumbnail.headers.get("content-type")).toBe("image/jpeg");
    const generation = await prisma().generation.findUniqueOrThrow({ where: { generation_id: karaoke.generation_id } });
    expect(generation).toMatchObject({ status: "completed", credits_consumed: 5, agent_type: "video", agent_model: null, prompt: karaoke.source.title, output_urls: [karaoke.thumbnail_url] });
    expect(await prisma().outboxEvent.count({ where: { workspace_id: workspaceId, type: "video.created" } })).toBe(1);
  });

  it("reads a WebVTT track too; a video without captions is 400 and costs nothing", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const karaoke = ok(await call(client, "video_site_to_karaoke", { video_site_url: urls().vtt_video_url }));
    expect(karaoke.lines).toEqual([
      { index: 0, start: 0.5, end: 2.5, text: "Row, row, row your boat" },
      { index: 1, start: 2.6, end: 4.8, text: "Gently down the stream" },
      { index: 2, start: 5, end: 7, text: "Merrily, merrily, merrily, merrily" },
    ]);
    const none = refused(await call(client, "video_site_to_karaoke", { video_site_url: urls().uncaptioned_video_url }), 400, "invalid_request");
    expect(none.param).toBe("video_site_url");
    refused(await call(client, "video_site_to_karaoke", { video_site_url: `${standIn().url}/watch?v=Missing0000` }), 400, "invalid_request");
    expect(await balanceOf(service, workspaceId)).toBe(15);
    expect(await prisma().video.count({ where: { workspace_id: workspaceId } })).toBe(1);
  });
});
