// tools.video_site_to_karaoke (catalog 4.5): a karaoke video project from a video-sharing-site
// page (catalog rule 4.1.10: `video_site` stands in for the site). Its oEmbed facts and one caption
// track are read through the URL guard (src/tools/sites/oembed-timedtext.ts); the composition shows
// each caption line at its time, large, with the next line smaller under it, over the video's
// thumbnail (fetched through the guard, checked with sharp, stored, dimmed) and under its title.
// The site's audio is not downloaded (no public format offers it): the project has no audio layer,
// and a render of it is a silent sing-along. Captions past 600 s (the composition limit) are left
// out and `truncated` says so. A page without captions is 400 invalid_request. One write creates
// the video (video.created), the generations row and generation.completed; 5 credits.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { url } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { imageFromUrl } from "../../providers/user-image.js";
import { recordSchema } from "../../resources/record-schema.js";
import { FORMAT_SIZES } from "../../renders/index.js";
import { videos, wordsSpreadOver } from "../../video-model/index.js";
import { billedGeneration } from "../../generations/index.js";
import { fileEntry, storeImage, type StoredImage } from "../images.js";
import { siteFormat } from "../schemas.js";
import { readVideoSite, type CaptionCue } from "../sites/index.js";
import { LINK_SECONDS, MAX_SECONDS, createVideoProject, ms, wrapText } from "../video-project.js";

const { width: WIDTH, height: HEIGHT } = FORMAT_SIZES.landscape;
const TAIL_SECONDS = 1;

const lineShape = z.object({ index: z.number().int(), start: z.number(), end: z.number(), text: z.string() });

/** The composition's layers: thumbnail, title, then each line with the next one under it. */
function layersOf(title: string, cues: readonly CaptionCue[], duration: number, thumbnail: { url: string; width: number; height: number } | null) {
  const layers: Record<string, unknown>[] = [];
  if (thumbnail) {
    const width = Math.min(WIDTH, Math.round((HEIGHT * thumbnail.width) / thumbnail.height));
    const height = Math.round((width * thumbnail.height) / thumbnail.width);
    layers.push({ type: "image", src: thumbnail.url, x: Math.round((WIDTH - width) / 2), y: Math.round((HEIGHT - height) / 2), width, height, opacity: 0.35 });
  }
  layers.push({ type: "text", text: wrapText(title, 60, 1), x: "center", y: 60, font_size: 40, color: "#FFFFFFCC" });
  cues.forEach((cue, index) => {
    const end = ms(Math.min(cue.end, duration));
    layers.push({ type: "text", start: ms(cue.start), end, text: wrapText(cue.text, 40, 2), font_size: 76, color: "#FFFFFF", box_color: "#00000088", box_padding: 20 });
    const next = cues[index + 1];
    if (next) layers.push({ type: "text", start: ms(cue.start), end, text: wrapText(next.text, 50, 1), y: HEIGHT / 2 + 160, font_size: 44, color: "#FFFFFF80" });
  });
  return layers;
}

export default defineAction({
  name: "tools.video_site_to_karaoke",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({ video_site_url: url() }),
  price: { credits: 5, per: "call" },
  weight: 5,
  purpose: "build a karaoke video composition from a video-sharing-site URL",
  mode: "model",
  output: z.object({
    object: z.literal("karaoke_video"),
    generation_id: z.string().describe("The generations record of the composition."),
    video_id: z.string().describe("The video project; renders.create renders it."),
    format: siteFormat,
    source: z.object({ video_id: z.string(), title: z.string(), author: z.string().nullable(), url: z.string(), language: z.string().nullable() }),
    lines: z.array(lineShape).describe("The caption lines shown, in time order."),
    truncated: z.boolean().describe("Captions past 600 s were left out."),
    duration_seconds: z.number(),
    thumbnail_url: z.string().nullable().describe("The stored thumbnail behind the lines (a signed link), or null when the page has none that could be read."),
    video: recordSchema(videos),
  }),
  async example(setup) {
    return { video_site_url: (await setup.site()).video_site_url };
  },
  async run(context, input) {
    const { graphql, files } = context;
    const { format, result: source } = await readVideoSite(graphql.services.outbound, input.video_site_url, "video_site_url");
    const usable = source.captions.filter((cue) => cue.start < MAX_SECONDS - TAIL_SECONDS && cue.end > cue.start);
    if (usable.length === 0) throw new ApiError("invalid_request", "The video has no caption track to sing along to.", { param: "video_site_url", details: { site_format: format } });
    const thumbnail = source.thumbnail_url ? await imageFromUrl(graphql.services.outbound, source.thumbnail_url, "thumbnail_url").catch(() => null) : null;
    const duration = ms(Math.min(MAX_SECONDS, Math.max(...usable.map((cue) => cue.end)) + TAIL_SECONDS));
    const workspaceId = graphql.auth.workspaceId;
    const spec = {
      action: "tools.video_site_to_karaoke",
      agentType: "video" as const,
      model: null,
      prompt: source.title,
      metadata: { source_url: input.video_site_url, site_format: format, source_video_id: source.video_id, caption_language: source.language },
    };
    return billedGeneration(
      context,
      spec,
      async (generationId) => {
        let stored: StoredImage | null = null;
        if (thumbnail) stored = await storeImage(files, { workspaceId, recordId: generationId, index: 0 }, thumbnail, { provider: format });
        const linked = stored ? { url: files.signedUrl(stored.key, LINK_SECONDS), width: stored.width, height: stored.height } : null;
        const composition = { duration, fps: 30, background_color: "#0B0B1A", layers: layersOf(source.title, usable, duration, linked) };
        return { outputUrls: linked ? [linked.url] : [], metadata: { lines: usable.length, files: stored ? [fileEntry(stored)] : [] }, value: { composition, thumbnailUrl: linked?.url ?? null } };
      },
      async (tx, generation, made) => {
        const lines = usable.map((cue, index) => ({ index, start: ms(cue.start), end: ms(Math.min(cue.end, duration)), text: cue.text }));
        const groups = lines.map((line) => ({ start: line.start, end: line.end, words: wordsSpreadOver(line.text, line.start, line.end) })).filter((group) => group.words.length > 0);
        const video = await createVideoProject(tx, context, {
          video_name: `${source.title} (karaoke)`.slice(0, 500),
          video_format: "landscape",
          video_lang: source.language ?? undefined,
          composition: made.composition,
          // The subtitle track in the timeline model's shape (docs/timeline.md): caption cues carry no
          // word times, so each line's words are spread over it.
          video_captions: {
            language: source.language,
            source_url: null,
            text: lines.map((line) => line.text).join("\n"),
            words: groups.flatMap((group) => group.words.map(({ word, start, end }) => ({ word, start, end }))),
            groups,
          },
          web_infos: { source_url: input.video_site_url, site_format: format, source_video_id: source.video_id, author: source.author, generation_id: generation.generation_id },
        });
        return {
          object: "karaoke_video" as const,
          generation_id: generation.generation_id,
          video_id: video.video_id,
          format,
          source: { video_id: source.video_id, title: source.title, author: source.author, url: source.url, language: source.language },
          lines,
          truncated: usable.length < source.captions.length,
          duration_seconds: duration,
          thumbnail_url: made.thumbnailUrl,
          video: video.record,
        };
      },
    );
  },
});
