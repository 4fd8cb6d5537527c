// Input fields several script actions share, declared once so their bounds agree everywhere.
// (They lived beside the scripts' pending catalog declarations until every script action was live.)
import { z } from "zod";
import { PROMPT_TEXT, id, integer, text } from "../actions/catalog/define.js";

/** Words of one paragraph. */
export const paragraphText = () => text(PROMPT_TEXT);
/** A voice of the catalog (`scripts.voices`). */
export const voiceRef = () => z.string().min(1).max(128);
/** Target runtime of a script, up to 4 hours. */
export const targetDurationMs = () => integer(1_000, 14_400_000);
/** Paragraphs a model is asked to write. */
export const paragraphCount = () => integer(1, 200);
/** A paragraph addressed by id or by its 0-based position (`scripts.read` from / to). */
export const paragraphBound = () => z.union([id(), z.number().int().min(0).max(100_000)]);
