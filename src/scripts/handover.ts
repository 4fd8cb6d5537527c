// What scripts.to_video is handed besides the script (docs/scripts.md, "Hand-over"): its options
// (the `request` input, whose meaning is ours), and the kind of a picture a paragraph or the call
// names (`asset:`, `generation:`, `background:` references, or a URL), looked up in the caller's
// workspace so a reference to nothing is a 422 at its own path, not at the composition's.
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import { CAPTION_PRESETS } from "../scenes/index.js";
import { TRANSITION_TYPES, parseMediaReference } from "../video-model/index.js";
import { toIssues, validationFailed } from "../validation/issues.js";

const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|webm|mkv)(\?|#|$)/i;
const AUDIO_EXTENSIONS = /\.(mp3|wav|m4a|aac|ogg|opus|flac)(\?|#|$)/i;

/** A picture or sound a caller names: an http(s) URL, or a reference to the workspace's media. */
export const mediaRef = z
  .union(
    [
      z.url({ protocol: /^https?$/ }).max(2048),
      z.string().max(2048).regex(/^(asset|generation|background|take|render):[A-Za-z0-9_.-]{1,200}(\/\d{1,3})?$/),
    ],
    { error: "Expected asset:<id>, generation:<id>, background:<ref> or an http(s) URL." },
  )
  .refine((value) => /^https?:/i.test(value) || parseMediaReference(value) !== null, { message: "Expected asset:<id>, generation:<id>, background:<ref> or an http(s) URL." });

export const handoverOptions = z
  .strictObject({
    captions: z.enum(CAPTION_PRESETS).default("karaoke").describe("Caption style: karaoke (default), plain, word_pop, boxed_word, or none."),
    transition: z.enum([...TRANSITION_TYPES, "none"]).default("dissolve").describe("How paragraphs meet: dissolve (default), any transition type, or none (a cut)."),
    title_card: z.boolean().default(true).describe("The script's title over the first seconds (when it has one)."),
    closing_card: z.string().trim().min(1).max(200).optional().describe("Text shown for 2.5 s after the narration."),
    music_ref: mediaRef.optional().describe("A music bed: asset:<id>, generation:<id> (a music generation) or an http(s) URL; ducked under the voice, faded out."),
    music_volume: z.number().min(0).max(1).default(0.25).describe("Linear gain of the music bed before ducking."),
    generate_images: z.boolean().default(false).describe("Allow spending on an image per paragraph without a picture of its own, when an image model is configured (quoted first)."),
  })
  .describe("scripts.to_video options (docs/scripts.md, \"Hand-over\").");

export type HandoverOptions = z.output<typeof handoverOptions>;

/** The call's options from its `request`; 422 at `request.<field>` for what is not one. */
export function parseHandoverOptions(request: unknown): HandoverOptions {
  if (request !== undefined && request !== null && (typeof request !== "object" || Array.isArray(request))) {
    throw validationFailed([{ path: "request", message: "Must be an object of hand-over options (docs/scripts.md, \"Hand-over\").", type: "object.base" }]);
  }
  const input = request ?? {};
  const parsed = handoverOptions.safeParse(input);
  if (parsed.success) return parsed.data;
  // The contract's issues as every input gets them (allowed, did_you_mean), at `request.<field>`.
  throw validationFailed(toIssues(parsed.error, handoverOptions, input).map((issue) => ({ ...issue, path: issue.path ? `request.${issue.path}` : "request" })));
}

export type MediaKind = "image" | "video" | "audio";

/**
 * What a picture or sound the caller names is, or null when a reference names nothing in the
 * workspace (a background may be on the shared shelf). A URL is judged by its extension (a picture
 * unless it ends like a video or a sound); it is fetched through the URL guard when it renders.
 */
export async function mediaKindOf(client: PrismaClient | Tx, workspaceId: string, src: string): Promise<MediaKind | null> {
  const reference = parseMediaReference(src);
  if (!reference) return VIDEO_EXTENSIONS.test(src) ? "video" : AUDIO_EXTENSIONS.test(src) ? "audio" : "image";
  switch (reference.kind) {
    case "asset": {
      const row = await client.asset.findFirst({ where: { asset_id: reference.id, workspace_id: workspaceId }, select: { file_mime_type: true, provider_file_url: true } });
      if (!row) return null;
      const type = row.file_mime_type ?? "";
      return type.startsWith("video/") || VIDEO_EXTENSIONS.test(row.provider_file_url) ? "video" : type.startsWith("audio/") || AUDIO_EXTENSIONS.test(row.provider_file_url) ? "audio" : "image";
    }
    case "generation": {
      const row = await client.generation.findFirst({ where: { generation_id: reference.id, workspace_id: workspaceId }, select: { agent_type: true } });
      if (!row) return null;
      return row.agent_type === "video" ? "video" : row.agent_type === "audio" || row.agent_type === "music" ? "audio" : "image";
    }
    case "background": {
      const row = await client.background.findFirst({ where: { background_ref: reference.id, OR: [{ workspace_id: workspaceId }, { workspace_id: null }] }, select: { kind: true } });
      if (!row) return null;
      return row.kind === "video" ? "video" : "image";
    }
    case "take":
      return (await client.scriptTake.findFirst({ where: { take_id: reference.id, script: { workspace_id: workspaceId } }, select: { take_id: true } })) ? "audio" : null;
    case "render":
      return "video";
  }
}

/** 422 at `path` unless `src` names media of one of these kinds in the workspace. */
export async function requireMedia(client: PrismaClient | Tx, workspaceId: string, src: string, kinds: readonly MediaKind[], path: string): Promise<MediaKind> {
  const kind = await mediaKindOf(client, workspaceId, src);
  if (!kind) throw validationFailed([{ path, message: `'${src}' names nothing in this workspace.`, type: "any.invalid" }]);
  if (!kinds.includes(kind)) throw validationFailed([{ path, message: `'${src}' is ${kind === "audio" ? "a sound" : `a ${kind}`}; expected ${kinds.join(" or ")}.`, type: "any.invalid" }]);
  return kind;
}

/** A paragraph's words on one line, as captions speak them and as an image is drawn from them. */
export const flatText = (text: string) => text.replace(/\s+/gu, " ").trim();

/** What a hand-over reads of the script to choose its pictures. */
interface PlannedParagraph {
  paragraph_id: string;
  text: string;
  visual: unknown;
  chosen_clip_id: string | null;
}

export interface PicturePlan {
  /** Per paragraph, in order: the picture it names itself, when it names one. */
  own: ({ src: string; kind: "image" | "video" } | null)[];
  /** Paragraphs keeping the image drawn for their unchanged words at an earlier hand-over: its generation. */
  reused: Map<string, string>;
  /** Paragraphs an image is drawn for in this call, each at an image's price. */
  toDraw: string[];
  /** Why the others get no generated image (a shelf background instead). */
  noImage: string;
}

/**
 * Which paragraphs get which kind of picture, decided before anything is priced (the units hook)
 * and again when the call runs: a paragraph's own `visual`, else its chosen filmed clip, else, with
 * `generate_images`, the image drawn from its words at an earlier hand-over while they are
 * unchanged (free), else one drawn now when an image model is configured, else a shelf background.
 */
export async function planPictures(
  client: PrismaClient | Tx,
  workspaceId: string,
  script: { video_id: string | null },
  paragraphs: readonly PlannedParagraph[],
  clipIds: ReadonlySet<string>,
  options: Pick<HandoverOptions, "generate_images">,
  imageModel: boolean,
): Promise<PicturePlan> {
  const own = await Promise.all(paragraphs.map(async (paragraph) => {
    const src = (paragraph.visual as { src?: unknown } | null)?.src;
    if (typeof src !== "string") return null;
    const kind = await mediaKindOf(client, workspaceId, src);
    return kind === "image" || kind === "video" ? { src, kind } : null;
  }));
  const noImage = !imageModel ? "no image model configured" : !options.generate_images ? "image generation not asked for (request.generate_images)" : "";
  const reused = new Map<string, string>();
  const toDraw: string[] = [];
  if (!options.generate_images) return { own, reused, toDraw, noImage };
  const needing = paragraphs.filter((paragraph, index) => !own[index] && !(paragraph.chosen_clip_id && clipIds.has(paragraph.chosen_clip_id)));
  // The video's blocks remember, per paragraph, the image drawn for it and the words it was drawn from.
  const video = script.video_id ? await client.video.findFirst({ where: { video_id: script.video_id, workspace_id: workspaceId }, select: { blocks: true } }) : null;
  const blocks = new Map((Array.isArray(video?.blocks) ? (video.blocks as Record<string, unknown>[]) : []).map((block) => [block.block_id, block]));
  const earlier = new Map<string, string>();
  for (const paragraph of needing) {
    const block = blocks.get(paragraph.paragraph_id);
    const reference = typeof block?.visual_src === "string" ? parseMediaReference(block.visual_src) : null;
    if (block?.visual_from === "generated" && block.text === flatText(paragraph.text) && reference?.kind === "generation") earlier.set(paragraph.paragraph_id, reference.id);
  }
  const alive = new Set(
    (await client.generation.findMany({ where: { generation_id: { in: [...earlier.values()] }, workspace_id: workspaceId, status: "completed" }, select: { generation_id: true } })).map((row) => row.generation_id),
  );
  for (const paragraph of needing) {
    const generationId = earlier.get(paragraph.paragraph_id);
    if (generationId && alive.has(generationId)) reused.set(paragraph.paragraph_id, generationId);
    else if (imageModel) toDraw.push(paragraph.paragraph_id);
  }
  return { own, reused, toDraw, noImage };
}
