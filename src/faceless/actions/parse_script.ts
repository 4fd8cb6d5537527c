// faceless.parse_script (catalog 4.4): splits a script into scenes (src/faceless/split.ts, no
// model: a scene per paragraph, long ones cut at sentence ends) and writes them as the video's
// `faceless_scenes`, replacing any it had, with the composition they make (silent placeholders
// until voiced). Without `video_id` a new faceless video is created (video.created); with one, the
// video is updated (video.updated). One transaction; a test key's is rolled back.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { LONG_TEXT, id, text } from "../../actions/catalog/define.js";
import { createRecordIn, updateRecordIn } from "../../resources/service.js";
import { validationFailed } from "../../validation/issues.js";
import { videos } from "../../video-model/index.js";
import { sceneTimings } from "../composition.js";
import { scenesOutput } from "../present.js";
import { MAX_SCENES, splitScript } from "../split.js";
import { loadFacelessVideo, newScenes, scenesData } from "../video.js";

export default defineAction({
  name: "faceless.parse_script",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    script: text(LONG_TEXT).min(1),
    video_id: id().optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "split a script into scenes",
  output: z.object({
    object: z.literal("faceless_scenes"),
    video_id: z.string(),
    created: z.boolean().describe("true when the call created the video (no video_id was given)."),
    faceless_status: z.string(),
    runtime_ms: z.number().int().describe("The composition's length: each scene its voice-over, or a 3 s placeholder until voiced."),
    scenes: scenesOutput,
  }),
  async example() {
    return { script: "The tide comes in.\n\nThe tide goes out." };
  },
  async run({ tx, graphql, reference }, input) {
    const files = graphql.services.files;
    const split = splitScript(input.script);
    if (split.length === 0) throw validationFailed([{ path: "script", message: "The script holds no narration (only headings or directions).", type: "string.empty" }]);
    if (split.length > MAX_SCENES) {
      throw validationFailed([{ path: "script", message: `The script makes ${split.length} scenes; a faceless video holds at most ${MAX_SCENES}.`, type: "array.max" }]);
    }
    const existing = input.video_id ? await loadFacelessVideo(tx, graphql, input.video_id) : undefined;
    const scenes = newScenes(split, existing?.faceless_style ?? null);
    const data = scenesData(scenes, existing?.video_format ?? "landscape", files);
    const fields = { faceless_script: input.script, faceless_scenes: data.faceless_scenes, composition: data.composition, faceless_status: data.faceless_status };
    const select = { select: { video_id: true } };
    const video = existing
      ? await updateRecordIn(tx, graphql, videos, existing.video_id, fields, select)
      : await createRecordIn(tx, graphql, videos, { video_name: split[0]!.text.slice(0, 80), video_format: "landscape", ...fields }, select);
    reference(video.video_id as string);
    return {
      object: "faceless_scenes" as const,
      video_id: video.video_id as string,
      created: !existing,
      faceless_status: data.faceless_status,
      runtime_ms: sceneTimings(data.faceless_scenes).at(-1)!.end_ms,
      scenes: data.faceless_scenes,
    };
  },
});
