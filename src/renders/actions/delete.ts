// renders.delete (catalog 4.2): removes a render and its output file. A queued render's operation
// is canceled and its credits come back; a running one cannot be deleted (409).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { loadOwned } from "../../resources/service.js";
import { cancelOperation, operationOf } from "../../operations/store.js";
import { renderOperation } from "../render-operation.js";
import { renders } from "../resource.js";

export default defineAction({
  name: "renders.delete",
  method: "POST",
  scopes: ["renders:delete"],
  credits: false,
  weight: 1,
  purpose: "delete a render job and its output reference",
  input: z.strictObject({ render_id: id() }),
  output: z.object({
    object: z.literal("render"),
    render_id: z.string(),
    deleted: z.literal(true),
    credits_refunded: z.number().int().describe("Credits given back: a queued render's whole hold, otherwise 0."),
  }),
  async example(setup) {
    const video = await setup.create("videos", { video_name: "Example", composition: { duration: 1, fps: 10, layers: [] } });
    const render = await setup.action("renders.create", { video_id: video.video_id });
    return { render_id: render.render_id };
  },
  async run({ tx, graphql, afterCommit }, input) {
    const render = await loadOwned(tx, graphql, renders, input.render_id, { select: { render_status: true, output_key: true, output_keys: true } });
    if (render.render_status === "rendering") {
      throw new ApiError("conflict", "The render is running; delete it once it has completed or failed.", { param: "render_id" });
    }
    let refunded = 0;
    const operation = render.render_status === "queued" ? await operationOf(tx, renderOperation, input.render_id) : null;
    if (operation) {
      // The cancel is conditional on the operation still being queued: a worker claiming it at
      // the same moment wins or loses cleanly on the operation's row.
      if (!(await cancelOperation(tx, operation.operation_id, renderOperation))) {
        throw new ApiError("conflict", "The render has just started; delete it once it has completed or failed.", { param: "render_id" });
      }
      refunded = operation.credits_held;
    }
    await tx.render.delete({ where: { render_id: input.render_id } });
    // The main file and its poster, thumbnail and contact sheet.
    const keys = new Set([render.output_key, ...(Array.isArray(render.output_keys) ? (render.output_keys as unknown[]) : [])].filter((key): key is string => typeof key === "string"));
    for (const key of keys) afterCommit(() => graphql.services.files.storage.delete(key));
    return { object: "render" as const, render_id: input.render_id, deleted: true as const, credits_refunded: refunded };
  },
});
