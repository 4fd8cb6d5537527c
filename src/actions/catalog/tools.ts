// Tools (catalog 4.5). `forum` and `video_site` stand in for third-party site names (rule 4.1.10).
import { z } from "zod";
import { BASE64_TEXT, defineFamily, flag, id, integer, json, label, language, modelRef, prompt, requireOneOf, url } from "./define.js";

/** A MIME type such as `image/png`. */
export const mediaType = () => z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/i).max(100);
export const base64 = () => z.string().min(1).max(BASE64_TEXT);

export const TOOLS_ACTIONS = defineFamily("tools", [
  {
    name: "tools.remove_background",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      image_url: url(),
      source_generation_id: id().optional(),
      folder_id: id().optional(),
      action_type: label().optional(),
    }),
    price: { credits: 2, per: "call" },
    weight: 5,
    purpose: "cut-out version of an image",
  },
  {
    name: "tools.image_modification",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: requireOneOf(
      z.strictObject({
        image_base64: base64().optional(),
        image_url: url().optional(),
        media_type: mediaType().optional(),
        prompt: prompt().min(1),
        size: label().optional(),
        quality: label().optional(),
        input_fidelity: label().optional(),
        agent_id: id().optional(),
      }),
      ["image_base64", "image_url"],
    ),
    price: { credits: 4, per: "call" },
    weight: 5,
    purpose: "instruction-based image edit",
  },
  {
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
  },
  {
    name: "tools.video_site_to_karaoke",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({ video_site_url: url() }),
    price: { credits: 5, per: "call" },
    weight: 5,
    purpose: "build a karaoke video composition from a video-sharing-site URL",
  },
  {
    name: "tools.read_comments",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      post_url: url(),
      comment_limit: integer(1, 100).optional(),
    }),
    price: { credits: 1, per: "call" },
    weight: 2,
    purpose: "fetch the comments of a social-network post",
  },
  {
    name: "tools.write_lyrics",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      post: json().optional(),
      comments: z.array(json()).min(1).max(500),
      genre: label().optional(),
      language: language().optional(),
      target_seconds: integer(10, 600).optional(),
      extra_direction: prompt().optional(),
      clean: flag().optional(),
      ai_model_id: modelRef().optional(),
      model_ref: modelRef().optional(),
      workspace_id: id().optional(),
    }),
    price: { credits: 2, per: "call" },
    weight: 2,
    purpose: "turn comments into song lyrics, each line keeping its comment id",
  },
  {
    name: "tools.variant_analyze",
    method: "POST",
    scopes: ["generations:execute"],
    credits: true,
    input: z.strictObject({
      image_url: url(),
      original_prompt: prompt().optional(),
    }),
    price: { credits: 1, per: "call" },
    weight: 2,
    purpose: "analyse a media variant and report its content",
  },
]);
