// Reading and writing a faceless video's scenes. Writes lock the video row (SELECT … FOR UPDATE)
// and change only the scenes they were given, so the audio and visual operations of one video,
// running side by side, never overwrite each other; each write rebuilds the composition.
import type { Tx } from "../db/transaction.js";
import type { Prisma, PrismaClient } from "../generated/prisma/client.js";
import type { GraphQLContext } from "../graphql/context.js";
import { ApiError } from "../errors/api-error.js";
import { newId } from "../ids.js";
import { loadOwned, recordUpdatedIn } from "../resources/service.js";
import type { FileService } from "../storage/from-config.js";
import { videos } from "../video-model/index.js";
import { validationFailed } from "../validation/issues.js";
import { facelessComposition } from "./composition.js";
import { facelessScenes, sceneStatus, type FacelessScene } from "./scene-shape.js";

/** A JSON value for a Prisma Json column (objects built here are plain JSON). */
export const jsonColumn = (value: unknown) => value as Prisma.InputJsonValue;

/** Links held by a composition must outlive the render that reads them later. */
export const LINK_SECONDS = 30 * 24 * 3600;

export interface FacelessVideo {
  video_id: string;
  workspace_id: string;
  video_name: string | null;
  video_format: string;
  video_lang: string | null;
  faceless_style: string | null;
  faceless_voice_settings: unknown;
  faceless_status: string | null;
  faceless_script: unknown;
  scenes: FacelessScene[];
}

const SELECT = {
  video_id: true, workspace_id: true, video_name: true, video_format: true, video_lang: true, faceless_style: true,
  faceless_voice_settings: true, faceless_status: true, faceless_script: true, faceless_scenes: true,
} as const;

/** The stored scenes; a value written by hand that is not scenes is refused (422 at faceless_scenes). */
export function parseScenes(value: unknown): FacelessScene[] {
  if (value === null || value === undefined) return [];
  const parsed = facelessScenes.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw validationFailed([{ path: ["faceless_scenes", ...(first?.path ?? [])].join("."), message: first?.message ?? "Not scenes.", type: "any.invalid" }], "The video's faceless_scenes are not scenes.");
  }
  return parsed.data;
}

function present(row: Record<string, unknown>): FacelessVideo {
  const { faceless_scenes: stored, ...rest } = row as Record<string, unknown> & { faceless_scenes: unknown };
  return { ...(rest as Omit<FacelessVideo, "scenes">), scenes: parseScenes(stored) };
}

/** The caller's video with its scenes: 404 / 403 otherwise. */
export async function loadFacelessVideo(client: PrismaClient | Tx, context: GraphQLContext, videoId: string, purpose: "read" | "write" = "write"): Promise<FacelessVideo> {
  return present(await loadOwned(client, context, videos, videoId, { select: SELECT }, purpose));
}

/** The video with at least one scene; 400 otherwise (parse a script first). */
export async function loadScenedVideo(client: PrismaClient | Tx, context: GraphQLContext, videoId: string): Promise<FacelessVideo> {
  const video = await loadFacelessVideo(client, context, videoId);
  if (video.scenes.length === 0) throw new ApiError("invalid_request", "The video has no faceless scenes: split a script into scenes with faceless.parse_script first.", { param: "video_id" });
  return video;
}

/** One scene of the video, or 404 at scene_id. */
export function sceneOf(video: FacelessVideo, sceneId: string, param = "scene_id"): FacelessScene {
  const scene = video.scenes.find((item) => item.scene_id === sceneId);
  if (!scene) throw new ApiError("not_found", `The video '${video.video_id}' has no scene '${sceneId}'.`, { param });
  return scene;
}

/** The columns a write of these scenes sets: the scenes, their composition and the faceless status. */
export function scenesData(scenes: FacelessScene[], format: string | null, files: FileService, status?: string) {
  const normalised = scenes.map((scene, index) => ({ ...scene, index, status: sceneStatus(scene) }));
  const composition = facelessComposition(normalised, format, (key) => files.signedUrl(key, LINK_SECONDS));
  const ready = normalised.length > 0 && normalised.every((scene) => scene.status === "ready");
  return {
    faceless_scenes: normalised,
    composition: composition ?? undefined,
    faceless_status: status ?? (ready ? "ready" : "draft"),
  };
}

/** Locks the video row and reads its scenes and format (null when the video is gone). */
export async function lockScenes(tx: Tx, videoId: string): Promise<{ scenes: FacelessScene[]; format: string } | null> {
  await tx.$queryRaw`SELECT video_id FROM videos WHERE video_id = ${videoId} FOR UPDATE`;
  const row = await tx.video.findUnique({ where: { video_id: videoId }, select: { faceless_scenes: true, video_format: true } });
  return row ? { scenes: parseScenes(row.faceless_scenes), format: row.video_format } : null;
}

/**
 * Changes some scenes of a video under a row lock: `change` gets each stored scene and answers it
 * changed (or as it is). Scenes deleted meanwhile stay deleted. Answers the scenes written.
 */
export async function changeScenes(prisma: PrismaClient, videoId: string, files: FileService, change: (scene: FacelessScene) => FacelessScene, status?: (scenes: FacelessScene[]) => string | undefined): Promise<FacelessScene[]> {
  return prisma.$transaction(async (tx) => {
    const locked = await lockScenes(tx, videoId);
    if (!locked) return [];
    const scenes = locked.scenes.map(change);
    const data = scenesData(scenes, locked.format, files, status?.(scenes));
    await tx.video.update({ where: { video_id: videoId }, data: { ...data, faceless_scenes: jsonColumn(data.faceless_scenes), composition: data.composition && jsonColumn(data.composition) } });
    await recordUpdatedIn(tx, videos, videoId);
    return data.faceless_scenes;
  });
}

/** New pending scenes from split narration; a direction (or the narration) is what the visual shows. */
export function newScenes(split: readonly { text: string; direction: string | null }[], style: string | null): FacelessScene[] {
  const prefix = style ? `${style}. ` : "";
  return split.map((scene, index) => ({
    scene_id: newId("faceless_scene"),
    index,
    name: `Scene ${index + 1}`,
    text: scene.text,
    visual_prompt: `${prefix}${scene.direction ?? scene.text}`.slice(0, 5_000),
    status: "pending",
    audio: null,
    visual: null,
  }));
}

/** Sets the faceless status alone (an operation starting, failing). */
export async function setFacelessStatus(tx: Tx, videoId: string, status: string): Promise<void> {
  const { count } = await tx.video.updateMany({ where: { video_id: videoId }, data: { faceless_status: status } });
  if (count) await recordUpdatedIn(tx, videos, videoId);
}
