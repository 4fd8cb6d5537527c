// Binary answers (docs/actions.md, "Binary answers"): an action that produces a file (audio to
// listen to, a cropped image) answers REST with the bytes themselves and their content type, and
// GraphQL (or REST asked for JSON, or a batch member) with a signed link to them. The handler
// hands its bytes to `binaryAnswer`, which decides which: REST leaves a slot in the request
// context for the bytes; otherwise a live call stores them under `answers/<day>/…` for a link that
// lasts an hour (the day's folder is pruned after two days), and a test key, which writes nothing,
// gets the bytes as a data: link.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { GraphQLContext } from "../../graphql/context.js";
import { currentRequestContext } from "../../context/request-context.js";
import { putBytes } from "../../storage/storage.js";

/** How long the link of a binary answer lasts. */
export const ANSWER_LINK_SECONDS = 3600;
/** Folder of stored binary answers, one subfolder per UTC day. */
export const ANSWERS_FOLDER = "answers";

export const binaryFileOutput = z
  .object({
    object: z.literal("file"),
    filename: z.string(),
    content_type: z.string(),
    size_bytes: z.number().int(),
    width: z.number().int().nullable().describe("Pixels, for an image."),
    height: z.number().int().nullable().describe("Pixels, for an image."),
    duration_seconds: z.number().nullable().describe("For audio or video."),
    url: z
      .string()
      .nullable()
      .describe("A link to the bytes: signed, for an hour (a data: link with a test key). Null when REST answered the bytes themselves."),
    expires_at: z.iso.datetime().nullable().describe("When the signed link stops working."),
  })
  .meta({ id: "BinaryFile", description: "A file an action answers. REST sends the bytes themselves unless asked for JSON." });

export type BinaryFile = z.output<typeof binaryFileOutput>;

export interface FileBytes {
  data: Uint8Array;
  contentType: string;
  /** A plain file name with its extension (`crop.png`). */
  filename: string;
  width?: number;
  height?: number;
  durationSeconds?: number;
}

/** The answer of an action that produces a file; see the head of this file for where the bytes go. */
export async function binaryAnswer(context: GraphQLContext, file: FileBytes): Promise<BinaryFile> {
  const record = {
    object: "file" as const,
    filename: file.filename,
    content_type: file.contentType,
    size_bytes: file.data.byteLength,
    width: file.width ?? null,
    height: file.height ?? null,
    duration_seconds: file.durationSeconds ?? null,
  };
  const slot = currentRequestContext()?.binaryAnswer;
  if (slot) {
    slot.file = { data: file.data, contentType: file.contentType, filename: file.filename };
    return { ...record, url: null, expires_at: null };
  }
  if (!context.auth.livemode) return { ...record, url: `data:${file.contentType};base64,${Buffer.from(file.data).toString("base64")}`, expires_at: null };
  const day = new Date().toISOString().slice(0, 10);
  const key = `${ANSWERS_FOLDER}/${day}/${context.auth.workspaceId}/${randomBytes(12).toString("hex")}/${file.filename}`;
  await putBytes(context.services.files.storage, key, file.data, file.contentType);
  return { ...record, url: context.services.files.signedUrl(key, ANSWER_LINK_SECONDS), expires_at: new Date(Date.now() + ANSWER_LINK_SECONDS * 1000).toISOString() };
}

/** Does the client ask for the answer as JSON (a link) rather than the bytes? */
export function wantsJson(accept: string | null): boolean {
  return (accept ?? "").split(",").some((part) => part.trim().toLowerCase().startsWith("application/json"));
}
