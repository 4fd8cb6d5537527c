// `listing_json`: a forum thread's public JSON listing, in the shape Reddit documents for
// `GET /comments/<article>.json` (`/r/<community>/comments/<id>/<slug>/` is a thread's address).
// The answer is two Listings: the post (`kind: "t3"`) and its comment tree (`kind: "t1"`, replies
// nested as Listings, `kind: "more"` stubs for comments not sent). Comments are taken depth first,
// in the site's order (`sort=top`), deleted and removed ones skipped.
import { fromEpoch, isObject, num, str, tidy, type ForumAdapter, type Loose, type SiteComment } from "./site.js";

const THREAD = /^(?:\/r\/[\w-]{1,64})?\/comments\/([a-z0-9]{1,16})(?:\/[^/]*)?\/?$/i;
const GONE = new Set(["[deleted]", "[removed]"]);

const childrenOf = (listing: unknown): Loose[] => {
  const data = isObject(listing) && isObject(listing.data) ? listing.data : undefined;
  return Array.isArray(data?.children) ? data.children.filter(isObject) : [];
};

export const listingJson: ForumAdapter = {
  kind: "forum",
  format: "listing_json",
  shape: "…/r/<community>/comments/<id>/<slug>/ or …/comments/<id> (a JSON listing at /comments/<id>.json)",
  match: (url) => THREAD.exec(url.pathname)?.[1],
  async read(reader, url, id, { limit }) {
    const answer = await reader.json(`${url.origin}/comments/${encodeURIComponent(id)}.json?limit=${limit}&sort=top&raw_json=1`);
    if (!Array.isArray(answer) || answer.length < 2) throw reader.failed("invalid_answer", "it is not a pair of listings.");
    const postEntry = childrenOf(answer[0]).find((child) => child.kind === "t3");
    const post = isObject(postEntry?.data) ? postEntry.data : undefined;
    if (!post || !str(post.title)) throw reader.failed("invalid_answer", "it holds no post.");
    const comments: SiteComment[] = [];
    const walk = (entries: Loose[], depth: number) => {
      for (const entry of entries) {
        if (comments.length >= limit) return;
        if (entry.kind !== "t1" || !isObject(entry.data)) continue;
        const data = entry.data;
        const body = tidy(str(data.body) ?? "");
        const commentId = str(data.id);
        if (commentId && body && !GONE.has(body)) {
          const parent = str(data.parent_id);
          comments.push({
            comment_id: commentId,
            author: GONE.has(str(data.author) ?? "") ? null : str(data.author),
            body,
            score: num(data.score),
            created_at: fromEpoch(data.created_utc),
            parent_id: parent && parent.startsWith("t1_") ? parent.slice(3) : null,
            depth,
          });
        }
        walk(childrenOf(data.replies), depth + 1);
      }
    };
    walk(childrenOf(answer[1]), 0);
    const permalink = str(post.permalink);
    return {
      post: {
        post_id: str(post.id) ?? id,
        title: tidy(String(post.title)),
        author: GONE.has(str(post.author) ?? "") ? null : str(post.author),
        body: tidy(str(post.selftext) ?? ""),
        score: num(post.score),
        created_at: fromEpoch(post.created_utc),
        url: permalink ? new URL(permalink, url.origin).toString() : url.toString(),
        comment_count: num(post.num_comments),
      },
      comments,
    };
  },
};
