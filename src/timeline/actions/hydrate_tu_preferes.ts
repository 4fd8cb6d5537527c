// timeline.hydrate_tu_preferes (catalog 4.2): fills a "would you rather" ("tu préfères") timeline.
// The text model writes `count` dilemmas on the video's subject (its video_keyword, else its name),
// in its video_lang, each with two options and a picture prompt per option (structured output);
// the image model draws each option's picture (stored through the file service, signed links).
// Each dilemma becomes a group (`type: "would_you_rather"`) of three blocks — the question, then
// option A and option B, each option carrying its picture (`image_url`, `image_key`) — written in
// the timeline model's shape. A new hydration replaces the would_you_rather groups (and their
// blocks) a previous one wrote; other blocks and groups are kept, before them. Blocks carry no audio
// yet: timeline.generate_audio voices them. 5 credits per dilemma asked for (`count`, 1–20,
// default 5); a failure gives the hold back. A test key gets a quote.
import { eachSideBySide } from "../../side-by-side.js";
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { count, id } from "../../actions/catalog/define.js";
import { drawStill } from "../../faceless/index.js";
import { updateRecordIn } from "../../resources/service.js";
import { videos, blocksShape, type Block, groupsShape, type Group } from "../../video-model/index.js";
import { lockVideo, readVideo } from "../../subtitles/index.js";
import { storedArray } from "../scope.js";

export const WOULD_YOU_RATHER = "would_you_rather";
const PARALLEL = 4;

const dilemmas = (count: number) =>
  z.object({
    questions: z
      .array(z.object({
        question: z.string().min(1).max(500).describe("The full question, e.g. 'Would you rather fly or be invisible?'"),
        options: z.array(z.object({ text: z.string().min(1).max(200), image_prompt: z.string().min(1).max(1000) })).length(2),
      }))
      .length(count),
  });

const optionShape = z.object({ text: z.string(), image_url: z.string(), block_id: z.string() });

export default defineAction({
  name: "timeline.hydrate_tu_preferes",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    video_id: id(),
    count: count().default(5),
  }),
  price: { credits: 5, per: "item", unit_field: "count", note: "per question, with its media" },
  weight: 5,
  purpose: "fill a would-you-rather timeline with generated questions and media",
  mode: "model",
  uses: ["text", "image"],
  output: z.object({
    object: z.literal("would_you_rather_timeline"),
    video_id: z.string(),
    topic: z.string(),
    questions: z.array(z.object({ group_id: z.string(), question: z.string(), block_id: z.string(), options: z.array(optionShape) })),
    blocks: z.array(z.record(z.string(), z.json())).describe("The video's blocks as written."),
    groups: z.array(z.record(z.string(), z.json())).describe("The video's groups as written."),
  }),
  async example(setup) {
    const video = await setup.create("videos", { video_name: "Summer dilemmas" });
    return { video_id: video.video_id, count: 1 };
  },
  async check({ graphql }, values) {
    await readVideo(graphql.prisma, graphql, values.video_id);
  },
  async run({ db, graphql, providers, files, commit }, values) {
    const video = await readVideo(db, graphql, values.video_id);
    const named = await db.video.findUniqueOrThrow({ where: { video_id: values.video_id }, select: { video_name: true, video_keyword: true } });
    const topic = named.video_keyword?.trim() || named.video_name?.trim() || "everyday life";
    const { object } = await providers.get("text").generateObject({
      system: "You write 'would you rather' dilemmas for short vertical videos: two options of similar appeal, each short enough to read on screen, and a picture prompt for each option.",
      prompt: `Write exactly ${values.count} "would you rather" questions about: ${topic}.${video.video_lang ? ` Write in the language with code "${video.video_lang}".` : ""}`,
      schema: dilemmas(values.count),
      schemaName: "would_you_rather",
    });
    const format = video.video_format ?? "portrait";
    const jobs = object.questions.flatMap((question, n) => question.options.map((option, side) => ({ n, side, prompt: option.image_prompt })));
    const pictures = new Map<string, { key: string; url: string }>();
    const stamp = Date.now().toString(36);
    await eachSideBySide(jobs, PARALLEL, async (job) => {
      const image = await drawStill(providers, files, `timeline/${graphql.auth.workspaceId}/${values.video_id}/wyr-${stamp}-${job.n + 1}-${job.side ? "b" : "a"}`, job.prompt, format);
      pictures.set(`${job.n}:${job.side}`, image);
    });
    const questions = object.questions.map((question, n) => {
      const groupId = `wyr_${n + 1}`;
      return {
        group_id: groupId,
        question: question.question,
        block_id: `${groupId}_q`,
        options: question.options.map((option, side) => ({ text: option.text, image_url: pictures.get(`${n}:${side}`)!.url, image_key: pictures.get(`${n}:${side}`)!.key, block_id: `${groupId}_${side ? "b" : "a"}` })),
      };
    });
    const newBlocks: Block[] = questions.flatMap((question) => [
      { block_id: question.block_id, group_id: question.group_id, type: "question", text: question.question },
      ...question.options.map((option, side) => ({ block_id: option.block_id, group_id: question.group_id, type: side ? "option_b" : "option_a", text: option.text, image_url: option.image_url, image_key: option.image_key })),
    ]);
    const newGroups: Group[] = questions.map((question, n) => ({ group_id: question.group_id, name: `Question ${n + 1}`, type: WOULD_YOU_RATHER, block_ids: [question.block_id, ...question.options.map((option) => option.block_id)] }));
    return commit(async (tx) => {
      const locked = await lockVideo(tx, graphql, values.video_id);
      const oldGroups = storedArray(groupsShape, locked.groups);
      const replaced = new Set(oldGroups.filter((group) => group.type === WOULD_YOU_RATHER).map((group) => group.group_id));
      const taken = new Set(newGroups.map((group) => group.group_id));
      const keptGroups = oldGroups.filter((group) => !replaced.has(group.group_id) && !taken.has(group.group_id));
      const keptBlocks = storedArray(blocksShape, locked.blocks).filter((block) => !(block.group_id && (replaced.has(block.group_id) || taken.has(block.group_id))));
      const blocks = [...keptBlocks, ...newBlocks];
      const groups = [...keptGroups, ...newGroups];
      await updateRecordIn(tx, graphql, videos, values.video_id, { blocks, groups }, { select: { video_id: true } });
      return {
        object: "would_you_rather_timeline" as const,
        video_id: values.video_id,
        topic,
        questions: questions.map((question) => ({ ...question, options: question.options.map(({ image_key: _key, ...option }) => option) })),
        blocks: blocks as Record<string, z.infer<ReturnType<typeof z.json>>>[],
        groups: groups as Record<string, z.infer<ReturnType<typeof z.json>>>[],
      };
    });
  },
});
