// A video's folder_ids are rows of video_folders. Writing them replaces the set; every folder must
// exist in the caller's workspace and hold videos (folder_scope 'video').
import type { Tx } from "../db/transaction.js";
import { validationFailed } from "../validation/issues.js";

export async function writeVideoFolders(
  tx: Tx,
  args: { workspaceId: string; recordId: string; value: unknown; path: string },
): Promise<void> {
  const folderIds = [...new Set(args.value as string[])];
  if (folderIds.length > 0) {
    const found = await tx.folder.findMany({
      select: { folder_id: true, folder_scope: true },
      where: { folder_id: { in: folderIds }, workspace_id: args.workspaceId },
    });
    const byId = new Map(found.map((folder) => [folder.folder_id, folder]));
    const issues = folderIds.flatMap((id, index) => {
      const folder = byId.get(id);
      if (!folder) return [{ path: `${args.path}.${index}`, message: `No folder '${id}' in this workspace.`, type: "any.invalid" }];
      if (folder.folder_scope !== "video") {
        return [{ path: `${args.path}.${index}`, message: `Folder '${id}' holds ${folder.folder_scope} items, not videos.`, type: "any.invalid" }];
      }
      return [];
    });
    if (issues.length > 0) throw validationFailed(issues);
  }
  await tx.videoFolder.deleteMany({ where: { video_id: args.recordId } });
  if (folderIds.length > 0) {
    await tx.videoFolder.createMany({
      data: folderIds.map((folderId, position) => ({ video_id: args.recordId, folder_id: folderId, position })),
    });
  }
}

/** Filters on folder_ids, with the array semantics of docs/lists.md. */
export function folderIdsCondition(operator: string, value: unknown): Record<string, unknown> {
  switch (operator) {
    case "eq":
    case "contains":
      return { folder_links: { some: { folder_id: value } } };
    case "ne":
      return { folder_links: { none: { folder_id: value } } };
    case "in":
      return { folder_links: { some: { folder_id: { in: value } } } };
    case "nin":
      return { folder_links: { none: { folder_id: { in: value } } } };
    case "exists":
      return value ? { folder_links: { some: {} } } : { folder_links: { none: {} } };
    default:
      throw new Error(`operator ${operator} is not offered on folder_ids`);
  }
}
