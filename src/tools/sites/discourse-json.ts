// `discourse_json`: a topic of a Discourse forum (`/t/<slug>/<id>`), read from its public JSON
// (`GET /t/<id>.json`, Discourse's documented API). The first post (post_number 1) is the post; the
// others are its comments, in the topic's order. The topic sends its first posts only (20); the
// rest of `post_stream.stream` is fetched from `/t/<id>/posts.json?post_ids[]=…` in pages of 20.
// Posts carry HTML (`cooked`), reduced to text here.
import { parseHTML } from "linkedom";
import { blockText } from "../../providers/local/readability.js";
import { isObject, num, str, tidy, type ForumAdapter, type Loose, type SiteComment } from "./site.js";

const TOPIC = /^\/t\/(?:[^/]+\/)?(\d{1,12})(?:\/\d+)?\/?$/;
const PAGE = 20;

function textOf(cooked: unknown): string {
  const html = str(cooked);
  if (!html) return "";
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return tidy(blockText(document.body));
}

const postsOf = (value: unknown): Loose[] => (isObject(value) && isObject(value.post_stream) && Array.isArray(value.post_stream.posts) ? value.post_stream.posts.filter(isObject) : []);

export const discourseJson: ForumAdapter = {
  kind: "forum",
  format: "discourse_json",
  shape: "…/t/<slug>/<id> (Discourse's /t/<id>.json)",
  match: (url) => TOPIC.exec(url.pathname)?.[1],
  async read(reader, url, id, { limit }) {
    const topic = await reader.json(`${url.origin}/t/${id}.json`);
    if (!isObject(topic) || !str(topic.title)) throw reader.failed("invalid_answer", "it is not a topic.");
    const posts = postsOf(topic);
    const stream = isObject(topic.post_stream) && Array.isArray(topic.post_stream.stream) ? topic.post_stream.stream.filter((value): value is number => typeof value === "number") : [];
    // The first post plus `limit` replies, fetching what the topic did not send.
    const wanted = stream.slice(0, limit + 1);
    const missing = wanted.filter((postId) => !posts.some((post) => post.id === postId));
    for (let start = 0; start < missing.length; start += PAGE) {
      const query = missing.slice(start, start + PAGE).map((postId) => `post_ids[]=${postId}`).join("&");
      posts.push(...postsOf(await reader.json(`${url.origin}/t/${id}/posts.json?${query}`)));
    }
    const ordered = wanted.length ? wanted.map((postId) => posts.find((post) => post.id === postId)).filter((post): post is Loose => Boolean(post)) : posts;
    const first = ordered.find((post) => post.post_number === 1) ?? ordered[0];
    if (!first) throw reader.failed("invalid_answer", "the topic has no posts.");
    const byNumber = new Map(ordered.map((post) => [post.post_number, post]));
    const comments: SiteComment[] = [];
    for (const post of ordered) {
      if (post === first || comments.length >= limit || post.hidden === true || post.deleted_at) continue;
      const body = textOf(post.cooked);
      if (!body) continue;
      const parent = typeof post.reply_to_post_number === "number" ? byNumber.get(post.reply_to_post_number) : undefined;
      comments.push({
        comment_id: String(post.id),
        author: str(post.username),
        body,
        score: num(post.score) ?? num(post.like_count),
        created_at: str(post.created_at),
        parent_id: parent && parent !== first ? String(parent.id) : null,
        depth: parent && parent !== first ? 1 : 0,
      });
    }
    const details = isObject(topic.details) && isObject(topic.details.created_by) ? topic.details.created_by : undefined;
    return {
      post: {
        post_id: typeof topic.id === "number" ? String(topic.id) : id,
        title: tidy(String(topic.title)),
        author: str(first.username) ?? str(details?.username),
        body: textOf(first.cooked),
        score: num(first.score) ?? num(topic.like_count),
        created_at: str(topic.created_at) ?? str(first.created_at),
        url: `${url.origin}/t/${str(topic.slug) ?? "topic"}/${id}`,
        comment_count: typeof topic.posts_count === "number" ? Math.max(0, topic.posts_count - 1) : null,
      },
      comments,
    };
  },
};
