import type { PrismaClient } from "../generated/prisma/client.js";
import { newId } from "../ids.js";

export async function createWorkspace(prisma: PrismaClient, name: string): Promise<string> {
  const workspaceId = newId("workspace");
  await prisma.workspace.create({ data: { workspace_id: workspaceId, name } });
  return workspaceId;
}

/** The workspace a fresh installation works in: the oldest one, created on first use. */
export async function defaultWorkspace(prisma: PrismaClient): Promise<string> {
  const existing = await prisma.workspace.findFirst({ orderBy: [{ created_at: "asc" }, { workspace_id: "asc" }] });
  return existing?.workspace_id ?? createWorkspace(prisma, "Default workspace");
}
