// faceless.detect_characters (catalog 4.4): the recurring characters of a script (`script`, or the
// video's own script and scenes with `video_id`), each with a prompt that keeps it looking the same
// from scene to scene, from the text model (structured output). With `video_id` the answer is
// stored as the video's `faceless_detected_characters` (video.updated), in the call's one write.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { LONG_TEXT, id, requireOneOf, text } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { updateRecordIn } from "../../resources/service.js";
import { videos } from "../../video-model/index.js";
import { loadFacelessVideo } from "../video.js";

const SCRIPT_CHARACTERS = 40_000;

const character = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(1_000).describe("Who they are in the story."),
  appearance_prompt: z.string().min(1).max(1_000).describe("A visual description to repeat in every scene prompt that shows them."),
});

/** The script of a video: its faceless_script, else its scenes' narration. */
function scriptOf(video: { faceless_script: unknown; scenes: { text: string }[] }): string {
  if (typeof video.faceless_script === "string" && video.faceless_script.trim()) return video.faceless_script;
  return video.scenes.map((scene) => scene.text).join("\n\n");
}

export default defineAction({
  name: "faceless.detect_characters",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: requireOneOf(
    z.strictObject({
      script: text(LONG_TEXT).optional(),
      video_id: id().optional(),
    }),
    ["script", "video_id"],
  ),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "find recurring characters and propose consistent prompts",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("faceless_characters"),
    video_id: z.string().nullable(),
    characters: z.array(character),
  }),
  async example() {
    return { script: "Mara the fisher rows out at dawn. Her brother Tomas waits on the pier. Mara returns with an empty net." };
  },
  async check({ graphql }, input) {
    if (input.video_id && !input.script?.trim() && !scriptOf(await loadFacelessVideo(graphql.prisma, graphql, input.video_id)).trim()) {
      throw new ApiError("invalid_request", "The video has no script: send `script`, or parse one into the video first.", { param: "video_id" });
    }
  },
  async run({ db, graphql, providers, commit }, input) {
    const script = input.script?.trim() || scriptOf(await loadFacelessVideo(db, graphql, input.video_id!));
    const answer = await providers.get("text").generateObject({
      system: "You find the characters who recur in a story for a faceless video and describe how each looks, so every scene's picture shows them the same way. Only characters the script names or clearly describes; none when there are none.",
      prompt: `Script:\n${script.slice(0, SCRIPT_CHARACTERS)}`,
      schema: z.object({ characters: z.array(character).max(20) }),
      schemaName: "faceless_characters",
    });
    const characters = answer.object.characters.map((item) => ({ name: item.name.trim(), description: item.description.trim(), appearance_prompt: item.appearance_prompt.trim() }));
    const answerOf = (videoId: string | null) => ({ object: "faceless_characters" as const, video_id: videoId, characters });
    if (!input.video_id) return answerOf(null);
    const videoId = input.video_id;
    return commit(async (tx) => {
      await updateRecordIn(tx, graphql, videos, videoId, { faceless_detected_characters: characters }, { select: { video_id: true } });
      return answerOf(videoId);
    });
  },
});
