// The faceless_pipeline operation of videos.launch_flow: the end-to-end generation of a faceless
// video, in steps that each skip what is already done, so a retaken attempt resumes where the
// last one stopped:
//   1. script — when the video has no scenes: a story from the text model (video_keyword and
//      keywords_search), split into scenes (src/faceless/split.ts);
//   2. voice  — every scene without audio, through the speech provider (ffprobe-measured);
//   3. visuals — every scene without a visual, a still from the image provider at the video's format.
// With `section_id` steps 2 and 3 cover that scene only. Each scene is written as soon as it is
// made; faceless_status is `generating` while it runs, then ready (or draft), failed on failure.
// The price is flat (25 credits): kept when the pipeline completes, released when it fails.
import { z } from "zod";
import { defineOperationKind, OperationFailure } from "../operations/kind.js";
import { statusMoves } from "./operations.js";
import { drawStill, voiceSettingsOf, voiceText } from "./media.js";
import { MAX_SCENES, splitScript } from "./split.js";
import { DEFAULT_STORY_SECONDS, writeStory } from "./story.js";
import { changeScenes, jsonColumn, newScenes, parseScenes, scenesData, setFacelessStatus } from "./video.js";
import { recordUpdatedIn } from "../resources/service.js";
import { videos } from "../video-model/index.js";

export const pipelineInput = z.strictObject({
  section_id: z.string().nullable(),
  keywords_search: z.string().nullable(),
  video_keyword: z.string().nullable(),
  video_flow_type: z.string(),
});

export const facelessPipelineOperation = defineOperationKind({
  kind: "faceless_pipeline",
  queue: "pipeline",
  input: pipelineInput,
  maxAttempts: 2,
  ...statusMoves(setFacelessStatus, "generating"),
  async run(context, input) {
    const { prisma, files, operation, signal } = context;
    const videoId = operation.subject_id;
    const read = async () => {
      const row = await prisma.video.findUnique({ where: { video_id: videoId } });
      if (!row) throw new OperationFailure("not_found", "The video was deleted while it was generated.");
      return { row, scenes: parseScenes(row.faceless_scenes) };
    };
    let { row, scenes } = await read();
    const language = row.video_lang ?? row.faceless_language ?? "en";
    const generating = () => "generating";
    const done: Record<string, number> = { scenes_written: 0, scenes_voiced: 0, scenes_drawn: 0 };

    if (scenes.length === 0) {
      const subject = input.video_keyword ?? row.video_keyword ?? row.faceless_story_prompt ?? row.video_name;
      if (!subject) throw new OperationFailure("invalid_request", "The video has no subject: give video_keyword, or set the video's video_keyword.");
      const story = await writeStory(context.providers, { prompt: subject, language, seconds: row.faceless_target_duration ?? DEFAULT_STORY_SECONDS, keywords: input.keywords_search ?? undefined }, signal);
      const split = splitScript(story.script).slice(0, MAX_SCENES);
      if (split.length === 0) throw new OperationFailure("upstream_error", "The text model wrote no narration.");
      const data = scenesData(newScenes(split, row.faceless_style), row.video_format, files, "generating");
      await prisma.$transaction(async (tx) => {
        await tx.video.update({ where: { video_id: videoId }, data: { faceless_script: story.script, video_name: row.video_name ?? story.title, faceless_scenes: jsonColumn(data.faceless_scenes), composition: jsonColumn(data.composition) } });
        await recordUpdatedIn(tx, videos, videoId);
      });
      done.scenes_written = split.length;
      ({ row, scenes } = await read());
    }
    if (input.section_id && !scenes.some((scene) => scene.scene_id === input.section_id)) {
      throw new OperationFailure("not_found", `The video has no scene '${input.section_id}'.`);
    }
    const inScope = scenes.filter((scene) => !input.section_id || scene.scene_id === input.section_id);
    const settings = voiceSettingsOf({ language }, row.faceless_voice_settings);
    const steps = inScope.filter((scene) => !scene.audio).length + inScope.filter((scene) => !scene.visual).length;
    let step = 0;
    const advance = () => context.progress((++step / Math.max(1, steps)) * 100);
    const base = (sceneId: string, what: string) => `faceless/${operation.workspace_id}/${videoId}/${sceneId}-${what}-${operation.operation_id}`;
    for (const scene of inScope.filter((item) => !item.audio)) {
      const audio = await voiceText(context.providers, files, base(scene.scene_id, "voice"), scene.text, settings, signal);
      await changeScenes(prisma, videoId, files, (item) => (item.scene_id === scene.scene_id ? { ...item, audio } : item), generating);
      done.scenes_voiced! += 1;
      advance();
    }
    for (const scene of inScope.filter((item) => !item.visual)) {
      const visual = await drawStill(context.providers, files, base(scene.scene_id, "still"), scene.visual_prompt || scene.text, row.video_format, signal);
      await changeScenes(prisma, videoId, files, (item) => (item.scene_id === scene.scene_id ? { ...item, visual } : item), generating);
      done.scenes_drawn! += 1;
      advance();
    }
    const final = await changeScenes(prisma, videoId, files, (item) => item);
    return { result: { ...done, scene_count: final.length, video_flow_type: input.video_flow_type } };
  },
});
