// videos.update (catalog 4.2): the videos resource's own validation and write (the same as
// PATCH /api/v1/videos/{video_id}), inside the action's transaction.
import { defineAction } from "../../actions/framework/action.js";
import { VIDEO_FIELDS } from "../../actions/catalog/define.js";
import { updateRecordIn } from "../../resources/service.js";
import { fullSelection, presentRecord } from "../../resources/selection.js";
import { recordSchema } from "../../resources/record-schema.js";
import { videos } from "../../video-model/index.js";

export default defineAction({
  name: "videos.update",
  method: "POST",
  scopes: ["videos:write"],
  credits: false,
  weight: 1,
  purpose: "validated update of a video, same validation as the editor",
  input: VIDEO_FIELDS,
  output: recordSchema(videos),
  async example(setup) {
    const video = await setup.create("videos", { video_name: "Example" });
    return { video_id: video.video_id, video_name: "Renamed" };
  },
  async run({ tx, graphql }, input) {
    const { video_id: videoId, ...fields } = input;
    return presentRecord(videos, await updateRecordIn(tx, graphql, videos, String(videoId), fields, { select: fullSelection(videos) }));
  },
});
