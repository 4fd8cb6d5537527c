// compactQuery (src/resources/selection.ts) respells a wide Prisma select as "every column but
// these": the rows must come back exactly as the select would have loaded them, relations included.
import { expect, it } from "vitest";
import { useService } from "./support/service.js";
import { compactQuery } from "../src/resources/selection.js";
import { delegateFor } from "../src/resources/delegate.js";
import { scalarFields } from "../src/graphql/datamodel.js";
import { createWorkspace } from "../src/workspaces/workspace-service.js";
import { newId } from "../src/ids.js";

const service = useService();

it("loads the same row from a wide select and from its compact spelling, and leaves a narrow select alone", async () => {
  const prisma = service.service.database.prisma;
  const workspaceId = await createWorkspace(prisma, "Compact query");
  const videoId = newId("video");
  const folderIds = [newId("folder"), newId("folder")];
  await prisma.video.create({ data: { video_id: videoId, workspace_id: workspaceId, video_name: "Wide", video_comment: null, published: true } });
  for (const [position, folderId] of folderIds.entries()) {
    await prisma.folder.create({ data: { folder_id: folderId, workspace_id: workspaceId, folder_name: `F${position}` } });
    await prisma.videoFolder.create({ data: { video_id: videoId, folder_id: folderId, position } });
  }

  // Every column but two, and the folder links in order.
  const columns = scalarFields("Video").map((field) => field.name);
  const left = columns.filter((name) => name !== "video_comment" && name !== "config");
  const select = { ...Object.fromEntries(left.map((name) => [name, true])), folder_links: { select: { folder_id: true }, orderBy: { position: "asc" } } };
  const compact = compactQuery("Video", { select });
  expect(compact).toEqual({ include: { folder_links: select.folder_links }, omit: { video_comment: true, config: true } });

  const delegate = delegateFor(prisma, "Video");
  const selected = await delegate.findUnique({ select, where: { video_id: videoId } });
  const compacted = await delegate.findUnique({ ...compact, where: { video_id: videoId } });
  expect(compacted).toEqual(selected);
  expect(Object.keys(compacted!).sort()).toEqual([...left, "folder_links"].sort());
  expect(compacted!.folder_links).toEqual(folderIds.map((folder_id) => ({ folder_id })));

  // A narrow selection is already the cheap spelling.
  const narrow = { select: { video_id: true, video_name: true } };
  expect(compactQuery("Video", narrow)).toBe(narrow);
});
