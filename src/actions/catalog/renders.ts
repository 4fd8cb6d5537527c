// Renders (catalog 4.2).
import { z } from "zod";
import { defineFamily, flag, id, label, limit, page, videoFormat } from "./define.js";

export const RENDERS_ACTIONS = defineFamily("renders", [
  {
    name: "renders.create",
    method: "POST",
    scopes: ["renders:execute", "renders:write"],
    credits: true,
    emits: ["render.started"],
    input: z.strictObject({
      video_id: id(),
      video_type_id: id().optional(),
      video_format: videoFormat().optional(),
    }),
    price: { credits: 10, per: "call" },
    weight: 5,
    purpose: "queue a render for a video; returns the render job",
  },
  {
    name: "renders.list",
    method: "GET",
    scopes: ["renders:read"],
    credits: false,
    input: z.strictObject({
      video_id: id().optional(),
      all_renders: flag().optional(),
      page: page().optional(),
      limit: limit().optional(),
      render_status: label().optional(),
    }),
    weight: 1,
    purpose: "render jobs with status and output URLs",
  },
  {
    name: "renders.delete",
    method: "POST",
    scopes: ["renders:delete"],
    credits: false,
    input: z.strictObject({ render_id: id() }),
    weight: 1,
    purpose: "delete a render job and its output reference",
  },
]);
