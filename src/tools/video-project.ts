// The video projects the site tools make (tools.forum_post_to_video, tools.video_site_to_karaoke):
// a `videos` row whose composition is in the renderer's format (src/renders/composition.ts), so
// renders.create can render it. Media it names are stored by us and linked with signed links that
// outlive the call (a render may come much later).
import type { ModelContext } from "../actions/framework/action.js";
import type { Tx } from "../db/transaction.js";
import { fullSelection, presentRecord } from "../resources/selection.js";
import { createRecordIn } from "../resources/service.js";
import { videos } from "../video-model/index.js";

/** How long the links a composition holds stay valid (as scripts.to_video's). */
export const LINK_SECONDS = 30 * 24 * 3600;
/** The composition format's longest video. */
export const MAX_SECONDS = 600;

/** Word-wraps text to lines of at most `width` characters, at most `maxLines` (the last ends with … when cut). */
export function wrapText(text: string, width: number, maxLines: number): string {
  const lines: string[] = [];
  let line = "";
  const words = text.replace(/\s+/g, " ").trim().split(" ");
  for (const [index, word] of words.entries()) {
    const piece = word.length > width ? `${word.slice(0, width - 1)}…` : word;
    if (line && line.length + 1 + piece.length > width) {
      lines.push(line);
      line = "";
      if (lines.length === maxLines) {
        lines[maxLines - 1] = `${lines[maxLines - 1]!.slice(0, width - 1).trimEnd()}…`;
        return lines.join("\n");
      }
    }
    line = line ? `${line} ${piece}` : piece;
    if (index === words.length - 1) lines.push(line);
  }
  return lines.join("\n") || " ";
}

/** Seconds rounded to milliseconds, as compositions hold them. */
export const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Creates the video (video.created) in the call's write; its record as the API shows it. */
export async function createVideoProject(tx: Tx, context: ModelContext, fields: Record<string, unknown>): Promise<{ video_id: string; record: Record<string, unknown> }> {
  const video = await createRecordIn(tx, context.graphql, videos, fields, { select: fullSelection(videos) });
  return { video_id: video.video_id as string, record: presentRecord(videos, video) };
}
