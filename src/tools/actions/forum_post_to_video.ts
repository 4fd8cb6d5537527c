// tools.forum_post_to_video (catalog 4.5): a public forum thread (read like tools.read_comments,
// src/tools/sites/) made into a video project renders.create can render: a portrait video whose
// composition has one scene per part — the post (title and the start of its text), then each of at
// most `comment_limit` comments (5 by default) — each scene showing its text over a voice-over
// spoken by the speech provider (local/espeak-ng offline by default) and lasting as long as it.
// Scenes stop before the composition's 600 s limit. The recordings are stored and linked for 30
// days. One write creates the video (video.created), the generations row and generation.completed;
// 3 credits. A speech failure records a failed generation and gives the credits back.
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { integer, url } from "../../actions/catalog/define.js";
import { storeMedia, billedGeneration } from "../../generations/index.js";
import { mediaFacts } from "../../providers/media-info.js";
import { ApiError } from "../../errors/api-error.js";
import { recordSchema } from "../../resources/record-schema.js";
import { videos } from "../../video-model/index.js";
import { siteFormat, sitePostShape } from "../schemas.js";
import { readForumThread, type ForumThread } from "../sites/index.js";
import { LINK_SECONDS, MAX_SECONDS, createVideoProject, ms, wrapText } from "../video-project.js";

const DEFAULT_COMMENTS = 5;
/** Characters spoken per scene: a long comment is cut at a word. */
const SPOKEN_CHARACTERS = 400;
const PAUSE_SECONDS = 0.4;

interface ScenePlan {
  kind: "post" | "comment";
  comment_id: string | null;
  author: string | null;
  spoken: string;
  shown: string;
}

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max);
  return `${head.slice(0, Math.max(head.lastIndexOf(" "), max * 0.6)).trimEnd()}…`;
}

function plan(thread: ForumThread): ScenePlan[] {
  const { post } = thread;
  const postText = cut(post.body ? `${post.title}. ${post.body}` : post.title, SPOKEN_CHARACTERS);
  const scenes: ScenePlan[] = [{ kind: "post", comment_id: null, author: post.author, spoken: postText, shown: wrapText(postText, 26, 12) }];
  for (const comment of thread.comments) {
    const spoken = cut(comment.body, SPOKEN_CHARACTERS);
    scenes.push({ kind: "comment", comment_id: comment.comment_id, author: comment.author, spoken, shown: wrapText(`${comment.author ?? "Someone"} wrote:\n${spoken}`, 26, 12) });
  }
  return scenes;
}

const sceneShape = z.object({
  scene_index: z.number().int(),
  kind: z.enum(["post", "comment"]),
  comment_id: z.string().nullable(),
  text: z.string(),
  start: z.number(),
  end: z.number(),
  audio_url: z.string().describe("The voice-over of the scene (a signed link valid 30 days)."),
});

export default defineAction({
  name: "tools.forum_post_to_video",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    forum_url: url(),
    comment_limit: integer(1, 100).optional(),
  }),
  price: { credits: 3, per: "call" },
  weight: 2,
  purpose: "fetch a forum post and turn it into a video project",
  mode: "model",
  uses: ["speech"],
  output: z.object({
    object: z.literal("forum_video"),
    generation_id: z.string().describe("The generations record of the voice-over."),
    video_id: z.string().describe("The video project; renders.create renders it."),
    format: siteFormat,
    post: sitePostShape,
    comment_ids: z.array(z.string()).describe("The comments voiced, in order."),
    comments_left_out: z.number().int().describe("Comments read but not voiced: the video would have passed 600 s."),
    scenes: z.array(sceneShape),
    duration_seconds: z.number(),
    video: recordSchema(videos),
    model: z.string().describe("`<provider>/<model id>` of the voice."),
  }),
  async example(setup) {
    return { forum_url: (await setup.site()).forum_url, comment_limit: 2 };
  },
  async run(context, input) {
    const { graphql, files, providers } = context;
    const { format, result: thread } = await readForumThread(graphql.services.outbound, input.forum_url, "forum_url", input.comment_limit ?? DEFAULT_COMMENTS);
    const model = graphql.services.providers.model("speech")!.ref;
    const workspaceId = graphql.auth.workspaceId;
    const planned = plan(thread);
    const spec = {
      action: "tools.forum_post_to_video",
      agentType: "video" as const,
      model,
      prompt: thread.post.title,
      metadata: { source_url: input.forum_url, site_format: format, post_id: thread.post.post_id },
    };
    return billedGeneration(
      context,
      spec,
      async (generationId) => {
        const speech = providers.get("speech");
        const scenes: z.input<typeof sceneShape>[] = [];
        const layers: Record<string, unknown>[] = [];
        const keys: string[] = [];
        let clock = 0;
        // A voice that fails midway leaves nothing behind: the recordings made so far are deleted.
        const forget = (error: unknown) => Promise.all(keys.map((key) => files.storage.delete(key).catch(() => undefined))).then(() => Promise.reject(error as Error));
        for (const [index, scene] of planned.entries()) {
          const spoken = await speech.synthesize({ text: scene.spoken, format: "wav" }).catch(forget);
          const seconds = spoken.audio.durationSeconds ?? (await mediaFacts(spoken.audio.data, spoken.audio.mediaType, path.join(os.tmpdir(), "cutroom-tools"))).durationSeconds;
          if (!seconds) return forget(new ApiError("upstream_error", "The speech provider answered audio of unknown length.", { details: { provider: spoken.meta.provider, reason: "invalid_answer" } }));
          const length = ms(seconds + PAUSE_SECONDS);
          if (clock + length > MAX_SECONDS) break;
          const stored = await storeMedia(files, { folder: "generations", workspaceId, recordId: generationId, index }, spoken.audio);
          keys.push(stored.key);
          const audioUrl = files.signedUrl(stored.key, LINK_SECONDS);
          const start = ms(clock);
          const end = ms(clock + length);
          layers.push({ type: "text", start, end, text: scene.shown, font_size: scene.kind === "post" ? 64 : 56, color: "#FFFFFF", box_color: "#00000099", box_padding: 24 });
          layers.push({ type: "audio", start, end: ms(Math.min(end, start + seconds)), src: audioUrl });
          scenes.push({ scene_index: index, kind: scene.kind, comment_id: scene.comment_id, text: scene.spoken, start, end, audio_url: audioUrl });
          clock += length;
        }
        const composition = { duration: ms(clock), fps: 30, background_color: "#1A1A2E", layers };
        return { outputUrls: scenes.map((scene) => scene.audio_url), metadata: { scenes: scenes.length, files: keys.map((key) => ({ key })) }, value: { scenes, composition } };
      },
      async (tx, generation, made) => {
        const commentIds = made.scenes.flatMap((scene) => (scene.comment_id ? [scene.comment_id] : []));
        const video = await createVideoProject(tx, context, {
          video_name: thread.post.title.slice(0, 500),
          video_format: "portrait",
          composition: made.composition,
          video_script: made.scenes.map((scene) => scene.text).join("\n\n"),
          web_infos: { source_url: input.forum_url, site_format: format, post_id: thread.post.post_id, comment_ids: commentIds, generation_id: generation.generation_id },
        });
        await tx.generation.update({ where: { generation_id: generation.generation_id }, data: { generation_metadata: { ...(generation.generation_metadata as Record<string, unknown>), video_id: video.video_id } } });
        return {
          object: "forum_video" as const,
          generation_id: generation.generation_id,
          video_id: video.video_id,
          format,
          post: thread.post,
          comment_ids: commentIds,
          comments_left_out: thread.comments.length - commentIds.length,
          scenes: made.scenes,
          duration_seconds: made.composition.duration,
          video: video.record,
          model,
        };
      },
    );
  },
});
