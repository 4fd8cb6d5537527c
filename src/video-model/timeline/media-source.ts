// Where a layer's media comes from (`src` of image, video and audio layers, a text layer's
// `font_url`): an http(s) URL, fetched through the outbound URL guard when the video renders; a
// reference to the workspace's own media (`asset:<_id>`, `background:<ref>`, `take:<take_id>`,
// `render:<render_id>`, `generation:<generation_id>` or `generation:<generation_id>/<n>` for its
// n-th output), or this service's own signed `/files/…` link, both read from storage directly
// (src/renders/media.ts); or a string holding a `{{name}}` merge field, checked once filled.
import { z } from "zod";
import { didYouMean } from "../../validation/did-you-mean.js";
import { holdsMergeField } from "./merge-fields.js";

export const mediaUrl = z.url({ protocol: /^https?$/, error: "Expected an http or https URL." }).max(2048);

export const MEDIA_REFERENCE_KINDS = ["asset", "background", "take", "render", "generation"] as const;
export type MediaReferenceKind = (typeof MEDIA_REFERENCE_KINDS)[number];

export interface MediaReference {
  kind: MediaReferenceKind;
  id: string;
  /** The n-th output of a generation (0 first). */
  index: number;
}

const REFERENCE = /^([a-z_]+):([A-Za-z0-9_.-]{1,200})(?:\/(\d{1,3}))?$/;

/** A reference to the workspace's own media, or null when `src` is not one. */
export function parseMediaReference(src: string): MediaReference | null {
  const match = REFERENCE.exec(src);
  if (!match || !(MEDIA_REFERENCE_KINDS as readonly string[]).includes(match[1]!)) return null;
  const kind = match[1] as MediaReferenceKind;
  if (match[3] !== undefined && kind !== "generation") return null;
  return { kind, id: match[2]!, index: Number(match[3] ?? 0) };
}

const URL_OK = (value: string) => mediaUrl.safeParse(value).success;
const EXPECTED = `Expected an http or https URL, or a reference: ${MEDIA_REFERENCE_KINDS.map((kind) => `${kind}:<id>`).join(", ")}.`;

export const mediaSource = z
  .string()
  .max(2048)
  .superRefine((value, context) => {
    if (holdsMergeField(value) || parseMediaReference(value) || URL_OK(value)) return;
    const prefix = /^([A-Za-z_]+):(?!\/\/)/.exec(value)?.[1];
    const kind = prefix ? didYouMean(prefix, MEDIA_REFERENCE_KINDS) : undefined;
    const suggestion = kind ? `${kind}:${value.slice(prefix!.length + 1)}` : undefined;
    context.addIssue({
      code: "custom",
      message: `${EXPECTED}${suggestion ? ` Did you mean '${suggestion}'?` : ""}`,
      params: { type: "string.uri", ...(suggestion && { did_you_mean: suggestion, allowed: MEDIA_REFERENCE_KINDS.map((name) => `${name}:`) }) },
    });
  })
  .describe(`An http(s) URL, this service's own signed /files/ link, or a reference to the workspace's media: ${MEDIA_REFERENCE_KINDS.map((kind) => `${kind}:<id>`).join(", ")} (generation:<id>/<n> for its n-th output).`);
