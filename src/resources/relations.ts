// GraphQL fields that follow a record's relations, both loaded with the parent's own Prisma query
// (Pothos `select` with `nestedSelection`), so a page of 100 records with their relations costs
// the same few SQL statements as a page of 3, and both guarded by the related resource's read
// scope and the caller's workspace:
// - references (Render.video, Script.video, ScheduledPost.video): the one record a column names;
// - child lists (Video.renders, Folder.videos, Character.tags, Agent.executions,
//   Flow.executions): a page of the child resource in its usual list shape ({data, has_more,
//   next_cursor}), taking limit, cursor and order.
import type { GraphQLContext } from "../graphql/context.js";
import { ApiError } from "../errors/api-error.js";
import type { ResourceChildren, ResourceDefinition, ResourceReference } from "../registry/resource.js";
import { resourceByName } from "../registry/resources.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../contract.js";
import { relationPage, relationPageQuery, type RelationPageArgs } from "./list.js";
import { withColumns, type PrismaQuery } from "./selection.js";
import { columnByName, typeNameOf } from "./fields.js";
import { isVisible } from "./visibility.js";

type AnyFieldBuilder = any;
type NestedSelection = (query?: Record<string, unknown> | true, path?: string[]) => unknown;
type Row = Record<string, unknown>;

const listTypes = new Map<string, unknown>();

/** Each resource's `<Type>List` object, as the children fields of other resources return it. */
export function registerListType(resource: ResourceDefinition, ref: unknown): void {
  listTypes.set(resource.name, ref);
}

function plannedQuery(nestedSelection: NestedSelection, columns: readonly string[], path: string[] = ["data"]): PrismaQuery {
  const planned = nestedSelection(true, path);
  return withColumns(planned && typeof planned === "object" ? planned : {}, columns);
}

export function childListField(t: AnyFieldBuilder, parent: ResourceDefinition, name: string, child: ResourceChildren) {
  const target = resourceByName(child.resource);
  if (!target) throw new Error(`${parent.name}.${name} lists unknown resource ${child.resource}`);
  const type = listTypes.get(target.name);
  if (!type) throw new Error(`${parent.name}.${name}: ${target.name} has no list type`);
  const through = child.through;
  return t.field({
    type,
    nullable: true,
    description: `The ${target.name} of this ${parent.kind}, newest first: one page, in the shape of the ${target.name} list.`,
    authScopes: { scopes: [`${target.scopeGroup}:read`] },
    args: {
      limit: t.arg.int({ description: `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` }),
      cursor: t.arg.string({ description: "Opaque cursor from next_cursor." }),
      order: t.arg.string({ description: "desc (newest first, the default) or asc." }),
    },
    select: (args: RelationPageArgs, context: GraphQLContext, nestedSelection: NestedSelection) => {
      const page = relationPageQuery(target, context.auth.workspaceId, args);
      const records = plannedQuery(nestedSelection, page.columns);
      if (!through) return { [child.relation]: { ...records, where: page.where, orderBy: page.orderBy, take: page.take } };
      // Through a link table: page the links by their child's columns and select the child.
      return {
        [child.relation]: {
          where: { [through]: page.where },
          orderBy: page.orderBy.map((order) => ({ [through]: order })),
          take: page.take,
          select: { [through]: records },
        },
      };
    },
    resolve: (row: Row, args: RelationPageArgs) => {
      const loaded = (row[child.relation] ?? []) as Row[];
      return relationPage(target, through ? loaded.map((link) => link[through] as Row) : loaded, args);
    },
  });
}

/**
 * The record a column names (a render's video). Writes already refuse a reference to another
 * workspace; reads check again, so a nested record the key cannot see is never shown: null when
 * the column may be empty, a workspace_mismatch error when it may not.
 */
export function referenceField(t: AnyFieldBuilder, resource: ResourceDefinition, column: string, reference: ResourceReference) {
  const target = resourceByName(reference.resource);
  if (!target) throw new Error(`${resource.name}.${column} references unknown resource ${reference.resource}`);
  const required = columnByName(resource, column)?.isRequired ?? false;
  return t.field({
    type: typeNameOf(target),
    nullable: !required,
    description: `The ${target.kind} named by ${column}.`,
    authScopes: { scopes: [`${target.scopeGroup}:read`] },
    select: (_args: unknown, _context: GraphQLContext, nestedSelection: NestedSelection) => ({
      [reference.relation]: plannedQuery(nestedSelection, ["workspace_id"], []),
    }),
    resolve: (row: Row, _args: unknown, context: GraphQLContext) => {
      const record = row[reference.relation] as Row | null | undefined;
      if (!record || isVisible(target, record.workspace_id, context.auth.workspaceId)) return record ?? null;
      if (!required) return null;
      throw new ApiError("workspace_mismatch", `The ${target.kind} named by ${column} belongs to another workspace.`, { param: column });
    },
  });
}
