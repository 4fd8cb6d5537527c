// music.get_task (catalog 4.3): where a music generation stands: its status, its progress while it
// runs, and its tracks with fresh signed links once they are hosted.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id } from "../../actions/catalog/define.js";
import { loadOwned } from "../../resources/service.js";
import { fullSelection, presentRecord } from "../../resources/selection.js";
import { recordSchema } from "../../resources/record-schema.js";
import { operationOf } from "../../operations/store.js";
import { musicOperation, tracksOf } from "../music-operation.js";
import { music } from "../resource.js";

export default defineAction({
  name: "music.get_task",
  method: "GET",
  scopes: ["music:read"],
  credits: false,
  input: z.strictObject({ generation_id: id() }),
  weight: 1,
  purpose: "status and tracks of a music generation",
  output: recordSchema(music).extend({
    progress: z.number().describe("Percent done, 0 to 100 (100 once completed)."),
  }),
  async example(setup) {
    const song = await setup.action("music.generate", { prompt: "A calm piano loop" });
    return { generation_id: song.generation_id };
  },
  async run({ tx, graphql }, input) {
    const row = await loadOwned(tx, graphql, music, input.generation_id, { select: fullSelection(music) }, "read");
    const operation = await operationOf(tx, musicOperation, input.generation_id);
    const record = presentRecord(music, row);
    // Links expire: a finished song's tracks are signed afresh on every read.
    if (operation?.status === "completed") record.tracks = tracksOf(graphql.services.files, operation.result);
    return { ...record, progress: operation?.status === "completed" ? 100 : (operation?.progress ?? 0) };
  },
});
