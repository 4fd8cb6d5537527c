// Faceless videos (catalog 4.4).
import { z } from "zod";
import { LONG_TEXT, defineFamily, id, integer, jsonObject, language, prompt, requireOneOf, text, url } from "./define.js";

export const FACELESS_ACTIONS = defineFamily("faceless", [
  {
    name: "faceless.generate_story",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      prompt: prompt().min(1),
      language: language().optional(),
      target_duration: integer(5, 3600).optional(),
    }),
    price: { credits: 2, per: "call" },
    weight: 2,
    purpose: "write the script of a faceless video",
  },
  {
    name: "faceless.generate_outline",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      prompt: prompt().min(1),
      language: language().optional(),
    }),
    price: { credits: 1, per: "call" },
    weight: 2,
    purpose: "act and scene outline before the full script",
  },
  {
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
  },
  {
    name: "faceless.generate_audio",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      video_id: id(),
      scene_id: id().optional(),
      voice_settings: jsonObject().optional(),
    }),
    price: { credits: 2, per: "item", note: "per scene voiced: the one scene_id, or every scene of the video without it" },
    weight: 5,
    purpose: "voice-over of one or more scenes",
  },
  {
    name: "faceless.generate_video",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({
      video_id: id(),
      scene_id: id(),
      prompt: prompt().optional(),
    }),
    price: { credits: 20, per: "call", note: "the visual of one scene, a short generated clip" },
    weight: 5,
    purpose: "visual of a faceless scene",
  },
  {
    name: "faceless.check_status",
    method: "POST",
    scopes: ["videos:read"],
    credits: false,
    input: requireOneOf(
      z.strictObject({
        task_id: id().optional(),
        video_id: id().optional(),
      }),
      ["task_id", "video_id"],
    ),
    weight: 1,
    purpose: "status of a running scene generation",
  },
  {
    name: "faceless.analyze_url",
    method: "POST",
    scopes: ["videos:execute"],
    credits: true,
    input: z.strictObject({ url: url() }),
    price: { credits: 2, per: "call" },
    weight: 2,
    purpose: "extract a brief from an article or video URL",
  },
  {
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
  },
]);
