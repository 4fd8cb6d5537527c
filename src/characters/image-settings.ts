// Characters: the resource (./resource.ts), their image actions (./actions), what keeps a
// character consistent (./consistency.ts), and here the image settings a call may pass.
import { z } from "zod";
import { validationFailed } from "../validation/issues.js";

const SIZES = ["256x256", "512x512", "1024x1024", "1024x1536", "1536x1024", "1024x1792", "1792x1024"] as const;
const QUALITIES = ["auto", "low", "medium", "high", "standard", "hd"] as const;
const settingsShape = z.object({ size: z.enum(SIZES).optional(), quality: z.enum(QUALITIES).optional() });

/** `size` and `quality` of `settings` (other keys are kept on the record only); 422 on a bad value. */
export function imageSettings(settings: Record<string, unknown> | undefined): { size?: string; quality?: string } {
  const parsed = settingsShape.safeParse(settings ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0]);
    const allowed = field === "size" ? [...SIZES] : [...QUALITIES];
    throw validationFailed([{ path: `settings.${field}`, message: `Must be one of: ${allowed.join(", ")}.`, type: "any.only", allowed }]);
  }
  return parsed.data;
}
