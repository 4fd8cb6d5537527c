// Third-party pages the tools read (src/tools/sites/), in the shapes the real sites publish, served
// by the stand-in on loopback (catalog rule 4.1.10: `forum` and `video_site` stand in for the names):
// - a forum thread's JSON listing, `GET /comments/<id>.json` (Reddit's documented listing shape:
//   a `t3` post listing, then the `t1` comment tree with nested `replies` and a `more` stub);
// - a Discourse topic, `GET /t/<id>.json` (first 20 posts and the whole `stream`), and the rest
//   from `GET /t/<id>/posts.json?post_ids[]=…`;
// - a video page's oEmbed (`GET /oembed?url=…&format=json`, oEmbed 1.0), its thumbnail, and its
//   caption tracks in the timed-text shape (`GET /api/timedtext?type=list&v=…`, then `?v=…&lang=…`:
//   XML with double-escaped text, or WebVTT for one video; one video has no captions).
// Unknown ids answer 404 as the sites do.
import sharp from "sharp";
import type { RouteDefinition, RouteReply } from "./protocol.js";

export const FORUM_THREAD_ID = "1abc2de";
/** A short thread (a title and two one-line comments): a video of it renders in seconds. */
export const SHORT_THREAD_ID = "2sh0rt";
export const DISCOURSE_TOPIC_ID = 4242;
export const VIDEO_IDS = { timedText: "Kr4okE9xQ2w", webVtt: "VtTtrack002", uncaptioned: "NoCaption03" } as const;

/** Addresses of the pages, as a user would paste them. */
export function siteUrls(base: string) {
  return {
    forum_url: `${base}/r/cats/comments/${FORUM_THREAD_ID}/why_does_my_cat_sprint_at_3_am/`,
    short_forum_url: `${base}/r/cats/comments/${SHORT_THREAD_ID}/cats_or_dogs/`,
    discourse_url: `${base}/t/favourite-purring-sounds/${DISCOURSE_TOPIC_ID}`,
    video_site_url: `${base}/watch?v=${VIDEO_IDS.timedText}`,
    vtt_video_url: `${base}/watch?v=${VIDEO_IDS.webVtt}`,
    uncaptioned_video_url: `${base}/watch?v=${VIDEO_IDS.uncaptioned}`,
  };
}

const CREATED = 1_764_000_000;

const comment = (id: string, author: string, body: string, score: number, parent: string, depth: number, replies: unknown[] = [], thread = FORUM_THREAD_ID) => ({
  kind: "t1",
  data: {
    subreddit_id: "t5_2qhta", subreddit: "cats", id, name: `t1_${id}`, author, author_fullname: `t2_${author.length}x${id}`,
    body, body_html: `&lt;div class="md"&gt;&lt;p&gt;${body}&lt;/p&gt;&lt;/div&gt;`, score, ups: score, downs: 0,
    created_utc: CREATED + score, parent_id: parent, link_id: `t3_${thread}`, depth, permalink: `/r/cats/comments/${thread}/_/${id}/`,
    stickied: false, collapsed: false, distinguished: null, controversiality: 0,
    replies: replies.length ? { kind: "Listing", data: { after: null, dist: null, modhash: "", geo_filter: "", children: replies, before: null } } : "",
  },
});

/** The listing of GET /comments/1abc2de.json?raw_json=1, trimmed to the fields that matter. */
export const FORUM_LISTING = [
  {
    kind: "Listing",
    data: {
      after: null, dist: 1, modhash: "", geo_filter: "", before: null,
      children: [{
        kind: "t3",
        data: {
          subreddit: "cats", subreddit_name_prefixed: "r/cats", id: FORUM_THREAD_ID, name: `t3_${FORUM_THREAD_ID}`,
          title: "Why does my cat sprint through the flat at 3 am?", author: "sleepless_in_leeds", author_fullname: "t2_9k2l1",
          selftext: "Every night at exactly 3 am she does laps & knocks things off the shelf. Is this normal? She is two years old.",
          score: 4821, upvote_ratio: 0.97, num_comments: 7, is_self: true, over_18: false, created_utc: CREATED,
          permalink: `/r/cats/comments/${FORUM_THREAD_ID}/why_does_my_cat_sprint_at_3_am/`,
          url: `https://forum.example/r/cats/comments/${FORUM_THREAD_ID}/why_does_my_cat_sprint_at_3_am/`,
        },
      }],
    },
  },
  {
    kind: "Listing",
    data: {
      after: null, dist: null, modhash: "", geo_filter: "", before: null,
      children: [
        comment("lx1a", "night_owl", "Zoomies! Mine does it too, like she owes someone money.", 912, `t3_${FORUM_THREAD_ID}`, 0, [
          comment("lx1b", "vet_tech_jo", "Cats are crepuscular, so bursts of energy at night are normal. Play with her before bed.", 640, "t1_lx1a", 1),
        ]),
        comment("lx2a", "[deleted]", "[deleted]", 15, `t3_${FORUM_THREAD_ID}`, 0),
        comment("lx3a", "purrfect_storm", "Mine sits on my chest and stares until I wake up. No sprinting, just judgement.", 455, `t3_${FORUM_THREAD_ID}`, 0),
        comment("lx4a", "catdad42", "A feeding puzzle at 11 pm fixed it for us.", 301, `t3_${FORUM_THREAD_ID}`, 0),
        comment("lx5a", "midnight_meow", "Welcome to the 3 am club.", 120, `t3_${FORUM_THREAD_ID}`, 0),
        { kind: "more", data: { count: 2, name: "t1_lx9z", id: "lx9z", parent_id: `t3_${FORUM_THREAD_ID}`, depth: 0, children: ["lx9z", "lxa0"] } },
      ],
    },
  },
];

const listing = (children: unknown[]) => ({ kind: "Listing", data: { after: null, dist: null, modhash: "", geo_filter: "", children, before: null } });

export const SHORT_LISTING = [
  listing([{
    kind: "t3",
    data: {
      subreddit: "cats", id: SHORT_THREAD_ID, name: `t3_${SHORT_THREAD_ID}`, title: "Cats or dogs?", author: "pollster", selftext: "", score: 12,
      num_comments: 2, is_self: true, created_utc: CREATED, permalink: `/r/cats/comments/${SHORT_THREAD_ID}/cats_or_dogs/`,
    },
  }]),
  listing([
    comment("sh1", "whiskers", "Cats.", 9, `t3_${SHORT_THREAD_ID}`, 0, [], SHORT_THREAD_ID),
    comment("sh2", "rex", "Dogs!", 3, `t3_${SHORT_THREAD_ID}`, 0, [], SHORT_THREAD_ID),
  ]),
];

const DISCOURSE_REPLIES = 23;
function discoursePost(number: number) {
  const id = 90_000 + number;
  const first = number === 1;
  const text = first
    ? "Post your favourite purring sounds. Mine is the little trill my cat makes when I come home."
    : `Reply ${number}: my cat purrs ${number % 2 ? "like a tiny motorbike" : "only when she kneads the blanket"} &amp; it is the best sound.`;
  return {
    id, name: `Member ${number}`, username: first ? "ada" : `member${number}`, avatar_template: `/user_avatar/forum.example/member${number}/{size}/1_2.png`,
    created_at: new Date((CREATED + number * 60) * 1000).toISOString(), cooked: `<p>${text}</p>${number === 4 ? '<aside class="quote"><blockquote><p>quoted</p></blockquote></aside>' : ""}`,
    post_number: number, post_type: 1, updated_at: new Date((CREATED + number * 60) * 1000).toISOString(), reply_count: 0,
    reply_to_post_number: number === 5 ? 3 : null, quote_count: 0, incoming_link_count: 0, reads: 100 - number, readers_count: 99 - number,
    score: 50 - number, yours: false, topic_id: DISCOURSE_TOPIC_ID, topic_slug: "favourite-purring-sounds", display_username: `Member ${number}`,
    version: 1, can_edit: false, can_delete: false, hidden: false, deleted_at: null, user_id: number, trust_level: 1,
  };
}
const DISCOURSE_POSTS = Array.from({ length: DISCOURSE_REPLIES + 1 }, (_unused, index) => discoursePost(index + 1));

function discourseTopic() {
  return {
    post_stream: { posts: DISCOURSE_POSTS.slice(0, 20), stream: DISCOURSE_POSTS.map((post) => post.id) },
    timeline_lookup: [[1, 6]], suggested_topics: [], tags: [], tags_descriptions: {},
    id: DISCOURSE_TOPIC_ID, title: "Favourite purring sounds", fancy_title: "Favourite purring sounds", posts_count: DISCOURSE_POSTS.length,
    created_at: DISCOURSE_POSTS[0]!.created_at, views: 1532, reply_count: 9, like_count: 87, last_posted_at: DISCOURSE_POSTS.at(-1)!.created_at,
    visible: true, closed: false, archived: false, has_summary: false, archetype: "regular", slug: "favourite-purring-sounds", category_id: 5,
    word_count: 900, deleted_at: null, user_id: 1, highest_post_number: DISCOURSE_POSTS.length,
    details: { can_edit: false, notification_level: 1, participants: [], created_by: { id: 1, username: "ada", name: "Ada", avatar_template: "/user_avatar/forum.example/ada/{size}/1_2.png" }, last_poster: { id: 24, username: "member24" } },
  };
}

const VIDEOS: Record<string, { title: string; author: string }> = {
  [VIDEO_IDS.timedText]: { title: "Twinkle Twinkle Little Star (Sing-Along)", author: "Nursery Choir" },
  [VIDEO_IDS.webVtt]: { title: "Row Your Boat (Lyrics)", author: "Campfire Songs" },
  [VIDEO_IDS.uncaptioned]: { title: "Rain on a tin roof, 10 hours", author: "Ambient Rooms" },
};

const TIMED_TEXT = `<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0.8" dur="2.4">Twinkle, twinkle, little star</text><text start="3.3" dur="2.6">How I wonder what you are</text><text start="6.1" dur="2.5">Up above the world so high</text><text start="8.7" dur="2.4">Like a diamond in the sky</text><text start="11.3" dur="2.9">Don&amp;#39;t you wonder &amp;amp; sing along</text></transcript>`;

const WEB_VTT = `WEBVTT
Kind: captions
Language: en

00:00:00.500 --> 00:00:02.500 align:start position:0%
Row, row, row your boat

00:00:02.600 --> 00:00:04.800
<c>Gently</c> down the stream

00:00:05.000 --> 00:00:07.000
Merrily, merrily, merrily, merrily
`;

let thumbnail: Buffer | undefined;
async function thumbnailJpeg(): Promise<Buffer> {
  thumbnail ??= await sharp({ create: { width: 480, height: 360, channels: 3, background: { r: 40, g: 60, b: 120 } } }).jpeg().toBuffer();
  return thumbnail;
}

const json = (body: object): RouteReply => ({ status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body });
const xml = (body: string): RouteReply => ({ status: 200, headers: { "content-type": "text/xml; charset=UTF-8" }, body });
const notFound: RouteReply = { status: 404, headers: { "content-type": "application/json; charset=utf-8" }, body: { message: "Not Found", error: 404 } };

export const siteRoutes: RouteDefinition[] = [
  {
    route: "web",
    method: "GET",
    pattern: /^\/comments\/([a-z0-9]+)\.json$/,
    async handler(_request, context, match) {
      context.call.summary = { site: "listing_json", thread: match[1] };
      return match[1] === FORUM_THREAD_ID ? json(FORUM_LISTING) : match[1] === SHORT_THREAD_ID ? json(SHORT_LISTING) : notFound;
    },
  },
  {
    route: "web",
    method: "GET",
    pattern: /^\/t\/(\d+)\.json$/,
    async handler(_request, context, match) {
      context.call.summary = { site: "discourse_json", topic: match[1] };
      return Number(match[1]) === DISCOURSE_TOPIC_ID ? json(discourseTopic()) : { status: 404, body: { errors: ["The requested URL or resource could not be found."], error_type: "not_found" } };
    },
  },
  {
    route: "web",
    method: "GET",
    pattern: /^\/t\/(\d+)\/posts\.json$/,
    async handler(request, context, match) {
      const ids = request.query.getAll("post_ids[]").map(Number);
      context.call.summary = { site: "discourse_json", topic: match[1], posts: ids.length };
      if (Number(match[1]) !== DISCOURSE_TOPIC_ID) return notFound;
      return json({ post_stream: { posts: DISCOURSE_POSTS.filter((post) => ids.includes(post.id)) }, id: DISCOURSE_TOPIC_ID });
    },
  },
  {
    route: "web",
    method: "GET",
    pattern: /^\/oembed$/,
    async handler(request, context) {
      const page = new URL(request.query.get("url") ?? "", "http://invalid");
      const id = page.searchParams.get("v") ?? "";
      context.call.summary = { site: "oembed", video: id };
      const video = VIDEOS[id];
      if (!video) return { status: 404, headers: { "content-type": "text/html" }, body: "Not Found" };
      return json({
        title: video.title, author_name: video.author, author_url: `${context.baseUrl}/@${video.author.replace(/\s+/g, "")}`, type: "video",
        height: 113, width: 200, version: "1.0", provider_name: "Example Video Site", provider_url: `${context.baseUrl}/`,
        thumbnail_height: 360, thumbnail_width: 480, thumbnail_url: `${context.baseUrl}/vi/${id}/hqdefault.jpg`,
        html: `<iframe width="200" height="113" src="${context.baseUrl}/embed/${id}?feature=oembed" frameborder="0" allowfullscreen title="${video.title}"></iframe>`,
      });
    },
  },
  {
    route: "web",
    method: "GET",
    pattern: /^\/vi\/([\w-]+)\/hqdefault\.jpg$/,
    async handler(_request, context, match) {
      context.call.summary = { site: "thumbnail", video: match[1] };
      return VIDEOS[match[1]!] ? { status: 200, headers: { "content-type": "image/jpeg" }, body: await thumbnailJpeg() } : { status: 404, body: "" };
    },
  },
  {
    route: "web",
    method: "GET",
    pattern: /^\/api\/timedtext$/,
    async handler(request, context) {
      const id = request.query.get("v") ?? "";
      const listing = request.query.get("type") === "list";
      context.call.summary = { site: "timedtext", video: id, list: listing };
      if (!VIDEOS[id]) return { status: 404, body: "" };
      if (listing) {
        return xml(id === VIDEO_IDS.uncaptioned
          ? `<?xml version="1.0" encoding="utf-8" ?><transcript_list docid="7311"></transcript_list>`
          : `<?xml version="1.0" encoding="utf-8" ?><transcript_list docid="7310"><track id="0" name="" lang_code="en" lang_original="English" lang_translated="English" lang_default="true"/><track id="1" name="" lang_code="fr" lang_original="Fran&#231;ais" lang_translated="French"/></transcript_list>`);
      }
      if (request.query.get("lang") !== "en" || id === VIDEO_IDS.uncaptioned) return xml("");
      return id === VIDEO_IDS.webVtt ? { status: 200, headers: { "content-type": "text/vtt; charset=utf-8" }, body: WEB_VTT } : xml(TIMED_TEXT);
    },
  },
];
