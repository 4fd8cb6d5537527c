// Prefixed random identifiers (vid_..., fld_...): the prefix tells a reader what an id names,
// and 22 base62 characters (~131 bits) make ids unguessable.
import { customAlphabet } from "nanoid";

const randomPart = customAlphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 22);

export const ID_PREFIXES = {
  workspace: "ws",
  api_key: "key",
  video: "vid",
  folder: "fld",
  event: "evt",
  request: "req",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomPart()}`;
}
