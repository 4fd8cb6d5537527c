// Which rows a workspace sees: its own, plus the global shelf (rows without a workspace) for
// shared resources such as backgrounds and voices.
import type { ResourceDefinition } from "../registry/resource.js";

export function visibleWhere(resource: ResourceDefinition, workspaceId: string): Record<string, unknown> {
  return resource.visibility === "shared"
    ? { OR: [{ workspace_id: workspaceId }, { workspace_id: null }] }
    : { workspace_id: workspaceId };
}

export function isVisible(resource: Pick<ResourceDefinition, "visibility">, rowWorkspaceId: unknown, workspaceId: string): boolean {
  return rowWorkspaceId === workspaceId || (resource.visibility === "shared" && rowWorkspaceId === null);
}
