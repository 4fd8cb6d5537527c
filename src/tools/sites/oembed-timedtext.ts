// `oembed_timedtext`: a video page `…/watch?v=<id>` of a site that publishes an oEmbed endpoint
// (`/oembed?url=…&format=json`, oEmbed 1.0: title, author_name, thumbnail_url) and its caption
// tracks as timed text, in the shape of YouTube's `/api/timedtext`: `?type=list&v=<id>` lists the
// tracks (`<transcript_list><track lang_code=… name=… lang_default=…/>`), `?v=<id>&lang=…&name=…`
// answers one (`<transcript><text start="1.2" dur="2.5">…</text>`, its text entity-escaped, often
// twice). A track served as WebVTT (`text/vtt`, or a body starting `WEBVTT`) is read as WebVTT.
import { decodeEntities, isObject, str, tidy, type CaptionCue, type SiteReader, type VideoSiteAdapter } from "./site.js";

const VIDEO_ID = /^[\w-]{4,32}$/;
const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];

/** The cues of a timed-text XML track. */
export function timedTextCues(xml: string): CaptionCue[] {
  const cues: CaptionCue[] = [];
  for (const match of xml.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>|<text\b([^>]*)\/>/g)) {
    const tag = match[1] ?? match[3] ?? "";
    const start = Number(attribute(tag, "start"));
    const duration = Number(attribute(tag, "dur") ?? "0");
    // Escaped once by XML, and usually once more by the site: decode until nothing changes.
    let text = match[2] ?? "";
    for (let round = 0; round < 3; round++) text = decodeEntities(text.replace(/<[^>]+>/g, ""));
    text = tidy(text);
    if (Number.isFinite(start) && start >= 0 && text) cues.push({ start, end: start + (Number.isFinite(duration) && duration > 0 ? duration : 2), text });
  }
  return cues;
}

function vttSeconds(stamp: string): number {
  const parts = stamp.split(":").map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/** The cues of a WebVTT track (cue settings and inline tags dropped). */
export function webVttCues(vtt: string): CaptionCue[] {
  const cues: CaptionCue[] = [];
  for (const block of vtt.replace(/\r\n?/g, "\n").split(/\n{2,}/)) {
    const lines = block.split("\n");
    const timing = lines.findIndex((line) => line.includes("-->"));
    if (timing < 0) continue;
    const match = /^\s*((?:\d+:)?\d{1,2}:\d{2}\.\d{3})\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}\.\d{3})/.exec(lines[timing]!);
    const text = tidy(decodeEntities(lines.slice(timing + 1).join("\n").replace(/<[^>]+>/g, "")));
    if (match && text) cues.push({ start: vttSeconds(match[1]!), end: vttSeconds(match[2]!), text });
  }
  return cues;
}

async function captionTrack(reader: SiteReader, origin: string, id: string): Promise<{ language: string | null; cues: CaptionCue[] }> {
  const list = await reader.text(`${origin}/api/timedtext?type=list&v=${encodeURIComponent(id)}`, "text/xml");
  const tracks = [...list.body.matchAll(/<track\b[^>]*>/g)].map((match) => ({
    lang: decodeEntities(attribute(match[0], "lang_code") ?? ""),
    name: decodeEntities(attribute(match[0], "name") ?? ""),
    preferred: attribute(match[0], "lang_default") === "true",
  }));
  const track = tracks.find((candidate) => candidate.preferred && candidate.lang) ?? tracks.find((candidate) => candidate.lang);
  if (!track) return { language: null, cues: [] };
  const answer = await reader.text(`${origin}/api/timedtext?v=${encodeURIComponent(id)}&lang=${encodeURIComponent(track.lang)}&name=${encodeURIComponent(track.name)}`, "text/xml, text/vtt");
  const vtt = /text\/vtt/i.test(answer.contentType) || answer.body.trimStart().startsWith("WEBVTT");
  return { language: track.lang, cues: vtt ? webVttCues(answer.body) : timedTextCues(answer.body) };
}

export const oembedTimedText: VideoSiteAdapter = {
  kind: "video_site",
  format: "oembed_timedtext",
  shape: "…/watch?v=<id> (oEmbed at /oembed, captions at /api/timedtext)",
  match(url) {
    const id = url.pathname.replace(/\/+$/, "") === "/watch" ? url.searchParams.get("v") : null;
    return id && VIDEO_ID.test(id) ? id : undefined;
  },
  async read(reader, url, id) {
    const page = `${url.origin}/watch?v=${encodeURIComponent(id)}`;
    const embed = await reader.json(`${url.origin}/oembed?url=${encodeURIComponent(page)}&format=json`);
    if (!isObject(embed) || !str(embed.title)) throw reader.failed("invalid_answer", "its oEmbed answer has no title.");
    const { language, cues } = await captionTrack(reader, url.origin, id);
    const thumbnail = str(embed.thumbnail_url);
    return {
      video_id: id,
      title: tidy(String(embed.title)),
      author: str(embed.author_name),
      url: page,
      thumbnail_url: thumbnail && /^https?:\/\//i.test(thumbnail) ? thumbnail : null,
      language,
      captions: cues.sort((a, b) => a.start - b.start),
    };
  },
};
