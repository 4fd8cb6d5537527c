// The `voice_settings_map` field of a video: the voice of each speaker key a block names
// (`voice_key`, `default` when absent).
import { z } from "zod";

export const voiceSettings = z
  .looseObject({
    voice_ref: z.string().min(1).max(200).optional().describe("A voice of the voices library or a provider voice (`local/en-us`, `openai/alloy`)."),
    voice_id: z.string().min(1).max(200).optional().describe("A provider voice id."),
    language: z.string().min(2).max(35).optional(),
    speed: z.number().min(0.5).max(2).optional(),
  })
  .describe("How a speaker key is voiced; unknown keys are kept.");

export const voiceSettingsMapShape = z.record(z.string().min(1).max(100), voiceSettings);
export type VoiceSettingsMap = z.output<typeof voiceSettingsMapShape>;
