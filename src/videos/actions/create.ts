// videos.create (catalog 4.2): the videos resource's own validation and write (the same as
// POST /api/v1/videos), inside the action's transaction.
import { defineAction } from "../../actions/framework/action.js";
import { VIDEO_FIELDS } from "../../actions/catalog/define.js";
import { createRecordIn } from "../../resources/service.js";
import { fullSelection, presentRecord } from "../../resources/selection.js";
import { recordSchema } from "../../resources/record-schema.js";
import { videos } from "../../video-model/index.js";

export default defineAction({
  name: "videos.create",
  method: "POST",
  scopes: ["videos:write"],
  credits: false,
  weight: 1,
  purpose: "create a video; applies template, defaults and workspace stamping",
  input: VIDEO_FIELDS,
  output: recordSchema(videos),
  async run({ tx, graphql }, input) {
    return presentRecord(videos, await createRecordIn(tx, graphql, videos, input, { select: fullSelection(videos) }));
  },
});
