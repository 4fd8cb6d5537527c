// videos.create and videos.update as actions: the videos resource's own validation and writes
// (the same as POST/PATCH /api/v1/videos), inside the action's transaction.
import { defineActionHandler } from "../actions/framework/handler.js";
import { createRecordIn, updateRecordIn } from "../resources/service.js";
import { fullSelection, presentRecord } from "../resources/selection.js";
import { videos } from "./resource.js";

const everything = { select: fullSelection(videos) };

defineActionHandler("videos.create", {
  async run({ tx, graphql }, input) {
    return presentRecord(videos, await createRecordIn(tx, graphql, videos, input, everything));
  },
});

defineActionHandler("videos.update", {
  async run({ tx, graphql }, input) {
    const { video_id: videoId, ...fields } = input;
    return presentRecord(videos, await updateRecordIn(tx, graphql, videos, String(videoId), fields, everything));
  },
});
