// timeline.sync_voice (catalog 4.2): recomputes block durations from the audio sequence. Each block
// of the scope with an `audio_url` is fetched through the URL guard and measured with ffprobe —
// the real length, never an estimate from the text — its `duration` and `audio_duration` set to
// it; then every block's `start` is laid out in order (pauses included) and each group's `start`
// and `duration` follow its blocks (src/timeline/sync.ts).
//
// scope: `video` (default, every block), `group` (the blocks of group_id) or `block` (block_id).
// `blocks` / `groups` given in the call replace the stored ones (checked with the timeline model)
// before syncing. Free. The audio is measured outside any transaction; one transaction then locks
// the video and writes blocks and groups through the videos resource (a `video.updated` event).
// A test key gets a quote (0 credits): nothing fetched, measured or written.
import { eachSideBySide } from "../../side-by-side.js";
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, json } from "../../actions/catalog/define.js";
import { updateRecordIn } from "../../resources/service.js";
import { videos } from "../../video-model/index.js";
import { fetchMedia, lockVideo, readVideo } from "../../subtitles/index.js";
import { retimeBlocks, retimeGroups } from "../sync.js";
import { inScope, SCOPES, timelineOf } from "../scope.js";

const PARALLEL = 4;

const input = z.strictObject({
  video_id: id(),
  scope: z.enum(SCOPES).optional(),
  group_id: id().optional(),
  block_id: id().optional(),
  blocks: json().optional(),
  groups: json().optional(),
});

export default defineAction({
  name: "timeline.sync_voice",
  method: "POST",
  scopes: ["videos:write"],
  credits: false,
  input,
  weight: 1,
  purpose: "recompute block durations from the audio sequence",
  mode: "model",
  output: z.object({
    object: z.literal("timeline_sync"),
    video_id: z.string(),
    measured: z.array(z.object({ block_id: z.string().nullable(), index: z.number().int(), duration: z.number().describe("Seconds of the block's audio, by ffprobe.") })),
    without_audio: z.array(z.number().int()).describe("Indexes of blocks in the scope with no audio_url: their duration is left as it was."),
    total_duration: z.number().describe("Seconds from the first block's start to the last block's end, pauses included."),
    blocks: z.array(z.record(z.string(), z.json())),
    groups: z.array(z.record(z.string(), z.json())),
  }),
  async example(setup) {
    const audio = await setup.audio!();
    const video = await setup.create("videos", { video_name: "Example", blocks: [{ block_id: "b1", text: "Hello", audio_url: audio.url }] });
    return { video_id: video.video_id };
  },
  async check({ graphql }, values) {
    const video = await readVideo(graphql.prisma, graphql, values.video_id);
    const { blocks, groups } = timelineOf(values, video);
    inScope(values, blocks, groups);
  },
  async run({ db, graphql, commit }, values) {
    const video = await readVideo(db, graphql, values.video_id);
    const { blocks, groups } = timelineOf(values, video);
    const indexes = inScope(values, blocks, groups);
    const measured = new Map<number, number>();
    await eachSideBySide(indexes.filter((index) => blocks[index]!.audio_url), PARALLEL, async (index) => {
      const media = await fetchMedia(graphql.services.outbound, blocks[index]!.audio_url!, `blocks.${index}.audio_url`);
      measured.set(index, media.durationSeconds!);
    });
    const retimed = retimeBlocks(blocks, measured);
    const regrouped = retimeGroups(groups, retimed);
    const last = retimed.at(-1);
    const answer = {
      object: "timeline_sync" as const,
      video_id: values.video_id,
      measured: [...measured.keys()].sort((a, b) => a - b).map((index) => ({ block_id: retimed[index]!.block_id ?? null, index, duration: retimed[index]!.duration! })),
      without_audio: indexes.filter((index) => !measured.has(index)),
      total_duration: last ? Math.round(((last.start ?? 0) + (last.duration ?? 0) + (last.pause_after ?? 0)) * 1000) / 1000 : 0,
      blocks: retimed as Record<string, z.infer<ReturnType<typeof z.json>>>[],
      groups: regrouped as Record<string, z.infer<ReturnType<typeof z.json>>>[],
    };
    return commit(async (tx) => {
      await lockVideo(tx, graphql, values.video_id);
      await updateRecordIn(tx, graphql, videos, values.video_id, { blocks: retimed, groups: regrouped }, { select: { video_id: true } });
      return answer;
    });
  },
});
