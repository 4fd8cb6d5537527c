// timeline.generate_audio (catalog 4.2): the voice-over of the video's blocks — the whole video
// (default), one group (`group_id`) or one block (`block_id`; `layer_id` names a block the same
// way) — queued as a timeline_audio operation (src/timeline/audio-operation.ts). Blocks whose
// stored audio already says their text are skipped unless `force_regenerate`; blocks without text
// are skipped. 2 credits per block to voice are held now and settled to the blocks voiced. Each
// block's duration becomes its audio's, measured by ffprobe; starts, groups and the composition's
// voice-over layers follow. `blocks` / `groups` in the call replace the stored ones first (checked
// with the timeline model); `voice_settings_map` entries override the video's for this call;
// `video_lang` is the voice's language when the block's voice has none. A test key gets a quote.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, json, jsonObject, language } from "../../actions/catalog/define.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { Tx } from "../../db/transaction.js";
import { updateRecordIn } from "../../resources/service.js";
import { parseOrThrow } from "../../validation/issues.js";
import { videos, type Block, voiceSettingsMapShape } from "../../video-model/index.js";
import { readVideo } from "../../subtitles/index.js";
import { needsVoice, timelineAudioOperation } from "../audio-operation.js";
import { inScope, SCOPES, timelineOf } from "../scope.js";

const input = z.strictObject({
  video_id: id(),
  scope: z.enum(SCOPES).optional(),
  group_id: id().optional(),
  block_id: id().optional(),
  layer_id: id().optional(),
  force_regenerate: flag().optional(),
  blocks: json().optional(),
  groups: json().optional(),
  voice_settings_map: jsonObject().optional(),
  video_lang: language().optional(),
});
type Input = z.output<typeof input>;

/** The blocks of the call (ids given to those without one) and which of them to voice. */
async function planOf(client: GraphQLContext["prisma"] | Tx, graphql: GraphQLContext, values: Input) {
  const video = await readVideo(client, graphql, values.video_id);
  const { blocks, groups } = timelineOf(values, video);
  const indexes = inScope({ ...values, block_id: values.block_id ?? values.layer_id }, blocks, groups);
  const taken = new Set(blocks.map((block) => block.block_id));
  let next = 0;
  const fresh = () => {
    do next += 1;
    while (taken.has(`block_${next}`));
    return `block_${next}`;
  };
  const named: Block[] = blocks.map((block) => (block.block_id ? block : { ...block, block_id: fresh() }));
  const force = values.force_regenerate ?? false;
  const toVoice = indexes.filter((index) => needsVoice(named[index]!, force)).map((index) => named[index]!.block_id!);
  const skipped = indexes.map((index) => named[index]!.block_id!).filter((blockId) => !toVoice.includes(blockId));
  const changed = values.blocks !== undefined || values.groups !== undefined || named.some((block, index) => block !== blocks[index]);
  return { video, blocks: named, groups, toVoice, skipped, changed };
}

const taskOutput = z.object({
  object: z.literal("timeline_audio"),
  video_id: z.string(),
  task_id: z.string().nullable().describe("The timeline_audio operation voicing the blocks; null when there was nothing to voice."),
  status: z.string().describe("queued, or completed when there was nothing to voice."),
  block_ids: z.array(z.string()).describe("The blocks the task voices, in order (2 credits each)."),
  skipped: z.array(z.string()).describe("Blocks of the scope left as they are: their audio already says their text, or they have no text."),
});

export default defineAction({
  name: "timeline.generate_audio",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input,
  price: {
    credits: 2,
    per: "item",
    note: "per block voiced; the service counts the blocks of the scope, skipping unchanged ones unless force_regenerate",
  },
  weight: 5,
  purpose: "voice-over of a block or group plus speech-recognition alignment",
  uses: ["speech"],
  output: taskOutput,
  async example(setup) {
    const video = await setup.create("videos", { video_name: "Example", blocks: [{ block_id: "b1", text: "Hello there." }] });
    return { video_id: video.video_id };
  },
  async units({ graphql }, values) {
    if (values.voice_settings_map) parseOrThrow(z.strictObject({ voice_settings_map: voiceSettingsMapShape }), { voice_settings_map: values.voice_settings_map });
    return (await planOf(graphql.prisma, graphql, values)).toVoice.length;
  },
  async run({ tx, graphql, queueOperation }, values) {
    const plan = await planOf(tx, graphql, values);
    if (plan.changed) await updateRecordIn(tx, graphql, videos, values.video_id, { blocks: plan.blocks, groups: plan.groups }, { select: { video_id: true } });
    const answer = { object: "timeline_audio" as const, video_id: values.video_id, block_ids: plan.toVoice, skipped: plan.skipped };
    if (plan.toVoice.length === 0) return { ...answer, task_id: null, status: "completed" };
    const operation = await queueOperation(timelineAudioOperation, {
      subjectId: values.video_id,
      input: {
        block_ids: plan.toVoice,
        voice_settings_map: (values.voice_settings_map) ?? null,
        language: values.video_lang ?? null,
        force: values.force_regenerate ?? false,
      },
    });
    return { ...answer, task_id: operation.operation_id, status: operation.status };
  },
});
