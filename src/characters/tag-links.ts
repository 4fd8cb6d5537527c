// A character's character_tags are rows of character_tag_links. Writing them replaces the set;
// every tag must exist in the caller's workspace.
import type { Tx } from "../db/transaction.js";
import { validationFailed } from "../validation/issues.js";

export async function writeCharacterTags(
  tx: Tx,
  args: { workspaceId: string; recordId: string; value: unknown; path: string },
): Promise<void> {
  const tagIds = [...new Set(args.value as string[])];
  if (tagIds.length > 0) {
    const found = await tx.characterTag.findMany({
      select: { tag_id: true },
      where: { tag_id: { in: tagIds }, workspace_id: args.workspaceId },
    });
    const known = new Set(found.map((tag) => tag.tag_id));
    const issues = tagIds.flatMap((id, index) =>
      known.has(id) ? [] : [{ path: `${args.path}.${index}`, message: `No character tag '${id}' in this workspace.`, type: "any.invalid" }],
    );
    if (issues.length > 0) throw validationFailed(issues);
  }
  await tx.characterTagLink.deleteMany({ where: { character_id: args.recordId } });
  if (tagIds.length > 0) {
    await tx.characterTagLink.createMany({
      data: tagIds.map((tagId, position) => ({ character_id: args.recordId, tag_id: tagId, position })),
    });
  }
}

/** Filters on character_tags, with the array semantics of docs/lists.md. */
export function characterTagsCondition(operator: string, value: unknown): Record<string, unknown> {
  switch (operator) {
    case "eq":
    case "contains":
      return { tag_links: { some: { tag_id: value } } };
    case "ne":
      return { tag_links: { none: { tag_id: value } } };
    case "in":
      return { tag_links: { some: { tag_id: { in: value } } } };
    case "nin":
      return { tag_links: { none: { tag_id: { in: value } } } };
    case "exists":
      return value ? { tag_links: { some: {} } } : { tag_links: { none: {} } };
    default:
      throw new Error(`operator ${operator} is not offered on character_tags`);
  }
}
