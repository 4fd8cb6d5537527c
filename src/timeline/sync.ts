// Block timing from real audio (timeline.sync_voice; docs/timeline.md): a block with a voice-over
// lasts as long as its audio, measured with ffprobe, and the blocks follow one another — each
// starts where the previous one ended, plus that one's pause_after. A group starts at its first
// block and lasts until its last block ends (pauses included).
import type { Block, Group } from "../video-model/index.js";

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Blocks with `duration` (and `audio_duration`) set from `measured` (block index → seconds) and `start` laid out in order. */
export function retimeBlocks(blocks: readonly Block[], measured: ReadonlyMap<number, number>): Block[] {
  let cursor = 0;
  return blocks.map((block, index) => {
    const seconds = measured.get(index);
    const next: Block = seconds === undefined ? { ...block } : { ...block, duration: round(seconds), audio_duration: round(seconds) };
    next.start = round(cursor);
    cursor += (next.duration ?? 0) + (next.pause_after ?? 0);
    return next;
  });
}

/** Groups with start and duration from their blocks (by block_ids, else by the blocks' group_id). */
export function retimeGroups(groups: readonly Group[], blocks: readonly Block[]): Group[] {
  return groups.map((group) => {
    const members = blocks.filter((block) => (group.block_ids ? block.block_id !== undefined && group.block_ids.includes(block.block_id) : block.group_id !== undefined && block.group_id === group.group_id));
    if (members.length === 0) return { ...group };
    const start = Math.min(...members.map((block) => block.start ?? 0));
    const end = Math.max(...members.map((block) => (block.start ?? 0) + (block.duration ?? 0) + (block.pause_after ?? 0)));
    return { ...group, start: round(start), duration: round(end - start) };
  });
}
