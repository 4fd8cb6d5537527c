// The blocks a timeline call works on (timeline.sync_voice, timeline.generate_audio): the call's own
// `blocks` / `groups` (checked with the timeline model) or else the video's, and the scope — the
// whole video (default), one group (`group_id`: its block_ids, else the blocks naming it) or one
// block (`block_id`). A scope naming what is not there is a 422 at that field.
import { z } from "zod";
import { parseOrThrow, validationFailed } from "../validation/issues.js";
import { blocksShape, type Block, groupsShape, type Group } from "../video-model/index.js";

export const SCOPES = ["video", "group", "block"] as const;

export interface ScopeValues {
  scope?: (typeof SCOPES)[number] | undefined;
  group_id?: string | undefined;
  block_id?: string | undefined;
  blocks?: unknown;
  groups?: unknown;
}

/** A stored field in the model's shape, or empty when it is not (an old row). */
export function storedArray<T>(shape: z.ZodType<T[]>, value: unknown): T[] {
  const parsed = shape.safeParse(value ?? []);
  return parsed.success ? parsed.data : [];
}

/** The blocks and groups a call works on: the call's own, checked, else the video's. */
export function timelineOf(values: ScopeValues, video: { blocks: unknown; groups: unknown }): { blocks: Block[]; groups: Group[] } {
  const checked = parseOrThrow(z.strictObject({ blocks: blocksShape.optional(), groups: groupsShape.optional() }), {
    ...(values.blocks !== undefined && { blocks: values.blocks }),
    ...(values.groups !== undefined && { groups: values.groups }),
  });
  return { blocks: checked.blocks ?? storedArray(blocksShape, video.blocks), groups: checked.groups ?? storedArray(groupsShape, video.groups) };
}

/** Indexes of the blocks in the scope; 422 when the scope names what is not there. */
export function inScope(values: ScopeValues, blocks: readonly Block[], groups: readonly Group[]): number[] {
  const scope = values.scope ?? (values.block_id ? "block" : values.group_id ? "group" : "video");
  const all = blocks.map((_block, index) => index);
  if (scope === "video") return all;
  if (scope === "block") {
    const index = blocks.findIndex((block) => block.block_id === values.block_id);
    if (!values.block_id || index < 0) throw validationFailed([{ path: "block_id", message: values.block_id ? `No block '${values.block_id}' in the timeline.` : "This field is required with scope 'block'.", type: values.block_id ? "any.invalid" : "any.required" }]);
    return [index];
  }
  const group = groups.find((item) => item.group_id === values.group_id);
  if (!values.group_id || !group) throw validationFailed([{ path: "group_id", message: values.group_id ? `No group '${values.group_id}' in the timeline.` : "This field is required with scope 'group'.", type: values.group_id ? "any.invalid" : "any.required" }]);
  return all.filter((index) => {
    const block = blocks[index]!;
    return group.block_ids ? block.block_id !== undefined && group.block_ids.includes(block.block_id) : block.group_id === group.group_id;
  });
}
