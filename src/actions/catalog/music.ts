// Music (catalog 4.3).
import { z } from "zod";
import { defineFamily, flag, id, name, prompt, requireOneOf, text } from "./define.js";

export const MUSIC_ACTIONS = defineFamily("music", [
  {
    name: "music.generate",
    method: "POST",
    scopes: ["music:execute"],
    credits: true,
    input: requireOneOf(
      z.strictObject({
        prompt: prompt().optional(),
        lyrics: prompt().optional(),
        style: text(1000).optional(),
        title: name().optional(),
        instrumental: flag().optional(),
      }),
      ["prompt", "lyrics", "style"],
    ),
    price: { credits: 10, per: "call" },
    weight: 5,
    purpose: "create a song from a prompt, lyrics or style brief",
  },
  {
    name: "music.get_task",
    method: "GET",
    scopes: ["music:read"],
    credits: false,
    input: z.strictObject({ generation_id: id() }),
    weight: 1,
    purpose: "status and tracks of a music generation",
  },
]);
