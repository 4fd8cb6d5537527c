// A virtual field holding the ids of records linked through a join table (a video's folder_ids,
// a character's character_tags): read in the given order, written as a whole set after checking
// every id names a suitable record of the caller's workspace, and filtered with array semantics.
import { z } from "zod";
import type { VirtualField } from "../registry/resource.js";
import { validationFailed } from "../validation/issues.js";
import { delegateFor } from "./delegate.js";

export interface LinkedIdsOptions {
  description: string;
  /** Relation on the owner model to its join rows (`folder_links`). */
  links: string;
  /** The join model and its two columns. */
  linkModel: string;
  ownerColumn: string;
  targetColumn: string;
  /** The linked records' model, its kind for messages, and a condition they must meet. */
  targetModel: string;
  targetKind: string;
  targetWhere?: Record<string, unknown>;
  /** Explains a target failing targetWhere. */
  targetMismatch?: (target: Record<string, unknown>) => string;
  max?: number;
}

export function linkedIdsField(options: LinkedIdsOptions): VirtualField {
  const { links, targetColumn } = options;
  const condition = (filter: Record<string, unknown>, some: boolean) => ({ [links]: { [some ? "some" : "none"]: filter } });
  return {
    graphqlType: "StringList",
    description: options.description,
    select: { [links]: { select: { [targetColumn]: true }, orderBy: { position: "asc" } } },
    resolve: (row) => ((row[links] as Record<string, string>[] | undefined) ?? []).map((link) => link[targetColumn]!),
    input: z.array(z.string().max(64)).max(options.max ?? 100),

    async write(tx, { workspaceId, recordId, value, path }) {
      const ids = [...new Set(value as string[])];
      if (ids.length > 0) {
        const whereKeys = Object.keys(options.targetWhere ?? {});
        const found = await delegateFor(tx, options.targetModel).findMany({
          select: { [targetColumn]: true, ...Object.fromEntries(whereKeys.map((key) => [key, true])) },
          where: { [targetColumn]: { in: ids }, workspace_id: workspaceId },
        });
        const byId = new Map(found.map((target) => [target[targetColumn] as string, target]));
        const issues = ids.flatMap((id, index) => {
          const target = byId.get(id);
          const at = `${path}.${index}`;
          if (!target) return [{ path: at, message: `No ${options.targetKind} '${id}' in this workspace.`, type: "any.invalid" }];
          const fits = whereKeys.every((key) => target[key] === options.targetWhere![key]);
          return fits ? [] : [{ path: at, message: options.targetMismatch?.(target) ?? `The ${options.targetKind} '${id}' cannot be linked here.`, type: "any.invalid" }];
        });
        if (issues.length > 0) throw validationFailed(issues);
      }
      const linkDelegate = delegateFor(tx, options.linkModel);
      await linkDelegate.deleteMany({ where: { [options.ownerColumn]: recordId } });
      if (ids.length > 0) {
        await linkDelegate.createMany({ data: ids.map((id, position) => ({ [options.ownerColumn]: recordId, [targetColumn]: id, position })) });
      }
    },

    filter(operator, value) {
      switch (operator) {
        case "eq":
        case "contains":
          return condition({ [targetColumn]: value }, true);
        case "ne":
          return condition({ [targetColumn]: value }, false);
        case "in":
          return condition({ [targetColumn]: { in: value } }, true);
        case "nin":
          return condition({ [targetColumn]: { in: value } }, false);
        case "exists":
          return condition({}, Boolean(value));
        default:
          throw new Error(`operator ${operator} is not offered on linked ids`);
      }
    },
  };
}
