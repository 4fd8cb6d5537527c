// The `smart_groups` field of a video: generated sections (quiz, ranking, dialogue) that
// smart_groups.* builds (src/smart_groups owns their content). Here only what the timeline relies on
// is checked: an id, a type and the blocks it made; the rest is kept as the family writes it.
import { z } from "zod";

export const smartGroup = z
  .looseObject({
    group_id: z.string().min(1).max(100).optional(),
    type: z.string().min(1).max(64).optional(),
    topic: z.string().max(2000).optional(),
    block_ids: z.array(z.string().min(1).max(100)).max(2000).optional(),
  })
  .describe("A smart group of the timeline; unknown keys are kept (owned by smart_groups.*).");

export const smartGroupsShape = z.array(smartGroup).max(500);
