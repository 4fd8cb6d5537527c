// Smart groups (catalog 4.4): what lives here. A smart group is an interactive block of a video —
// a quiz, a multiple-choice set (qcm), a ranking or a dialogue — kept in the video's
// `smart_groups` column in the timeline model's shape (src/video-model/timeline/smart-groups.ts, which
// the videos resource checks on every write). smart_groups.generate writes one from the text
// model, smart_groups.create_qcm from the caller's questions, smart_groups.action runs one of the
// actions a group declares (`actions`). src/smart_groups/groups.ts reads and writes them.
import type { SMART_GROUP_TYPES } from "../video-model/index.js";

export { questionItem, rankingItem, dialogueItem, smartGroups, type SmartGroup } from "../video-model/index.js";

/** The types smart_groups.generate writes (a qcm comes from the caller's questions). */
export const GENERATED_TYPES = ["quiz", "ranking", "dialogue"] as const;

/** What each type may do with smart_groups.action. */
export const DECLARED_ACTIONS = {
  quiz: ["regenerate", "extend", "shuffle"],
  qcm: ["extend", "shuffle"],
  ranking: ["regenerate", "extend", "reverse"],
  dialogue: ["regenerate", "extend"],
} as const satisfies Record<(typeof SMART_GROUP_TYPES)[number], readonly string[]>;
