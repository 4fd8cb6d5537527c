// The timeline model: the documented, validated shape of each heavy field of a video (docs/timeline.md).
// The videos resource checks them on every write (create, update, bulk) through its fieldRules.
import type { z } from "zod";
import { blocksShape } from "./blocks.js";
import { compositionShape } from "./composition.js";
import { facelessScenes } from "./faceless-scenes.js";
import { groupsShape } from "./groups.js";
import { smartGroups } from "./smart-groups.js";
import { videoCaptionsShape } from "./video-captions.js";
import { voiceSettingsMapShape } from "./voice-settings-map.js";

export const TIMELINE_FIELD_RULES: Readonly<Record<string, z.ZodType>> = {
  composition: compositionShape,
  blocks: blocksShape,
  groups: groupsShape,
  smart_groups: smartGroups,
  faceless_scenes: facelessScenes,
  voice_settings_map: voiceSettingsMapShape,
  video_captions: videoCaptionsShape,
};
