// Generic record operations for any declared resource: ownership checks, validated writes in one
// transaction with their record events, and test-mode simulation (src/db/transaction.ts).
import { Prisma } from "../generated/prisma/client.js";
import { ApiError, notFound } from "../errors/api-error.js";
import type { ResourceDefinition } from "../registry/resource.js";
import type { GraphQLContext } from "../graphql/context.js";
import { inWriteTransaction, type Tx } from "../db/transaction.js";
import { recordEvent } from "../outbox/record-event.js";
import { newId } from "../ids.js";
import { delegateFor } from "./delegate.js";
import { columnByName } from "./fields.js";
import { parseRecordInput, type RecordInput } from "./input-schema.js";
import { fullSelection, presentRecord, withColumns, type PrismaQuery } from "./selection.js";

type Row = Record<string, unknown>;

/** Loads a record by id, enforcing that it belongs to the caller's workspace. */
async function loadOwned(
  client: GraphQLContext["prisma"] | Tx,
  context: GraphQLContext,
  resource: ResourceDefinition,
  id: string,
  query: PrismaQuery,
): Promise<Row> {
  const row = await delegateFor(client, resource.model).findUnique({
    ...withColumns(query, ["workspace_id"]),
    where: { [resource.idField]: id },
  });
  if (!row) throw notFound(resource.kind, id, resource.idField);
  if (row.workspace_id !== context.auth.workspaceId) {
    throw new ApiError("workspace_mismatch", `The ${resource.kind} '${id}' belongs to another workspace.`, {
      param: resource.idField,
    });
  }
  return row;
}

export function getRecord(context: GraphQLContext, resource: ResourceDefinition, id: string, query: PrismaQuery): Promise<Row> {
  return loadOwned(context.prisma, context, resource, id, query);
}

/** Column values ready for Prisma: JSON nulls become SQL NULL. */
function columnData(resource: ResourceDefinition, input: RecordInput): Row {
  const data: Row = {};
  for (const [name, value] of Object.entries(input)) {
    if (resource.virtualFields?.[name]) continue;
    const column = columnByName(resource, name);
    data[name] = value === null && column?.type === "Json" ? Prisma.DbNull : value;
  }
  return data;
}

async function writeVirtualFields(tx: Tx, context: GraphQLContext, resource: ResourceDefinition, recordId: string, input: RecordInput): Promise<void> {
  for (const [name, field] of Object.entries(resource.virtualFields ?? {})) {
    if (input[name] === undefined || !field.write) continue;
    await field.write(tx, { workspaceId: context.auth.workspaceId, recordId, value: input[name], path: name });
  }
}

async function emitRecordEvent(tx: Tx, context: GraphQLContext, resource: ResourceDefinition, action: "created" | "updated" | "deleted", snapshot: Row): Promise<void> {
  await recordEvent(tx, {
    workspaceId: context.auth.workspaceId,
    type: `${resource.kind}.${action}`,
    livemode: context.auth.livemode,
    data: { object: presentRecord(resource, snapshot) },
  });
}

async function snapshot(tx: Tx, resource: ResourceDefinition, id: string): Promise<Row> {
  const row = await delegateFor(tx, resource.model).findUnique({ select: fullSelection(resource), where: { [resource.idField]: id } });
  if (!row) throw new Error(`${resource.kind} ${id} vanished inside its own transaction`);
  return row;
}

export async function createRecord(context: GraphQLContext, resource: ResourceDefinition, rawInput: unknown, query: PrismaQuery): Promise<Row> {
  const input = parseRecordInput(resource, "create", rawInput);
  const id = newId(resource.idPrefix);
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    await delegateFor(tx, resource.model).create({
      select: { [resource.idField]: true },
      data: {
        ...columnData(resource, input),
        ...resource.stampOnCreate?.(context.auth),
        [resource.idField]: id,
        workspace_id: context.auth.workspaceId,
      },
    });
    await writeVirtualFields(tx, context, resource, id, input);
    await emitRecordEvent(tx, context, resource, "created", await snapshot(tx, resource, id));
    return loadOwned(tx, context, resource, id, query);
  });
}

export async function updateRecord(context: GraphQLContext, resource: ResourceDefinition, id: string, rawInput: unknown, query: PrismaQuery): Promise<Row> {
  // Ownership first: another workspace's id is 403/404 whatever the body says.
  await loadOwned(context.prisma, context, resource, id, { select: { [resource.idField]: true } });
  const input = parseRecordInput(resource, "update", rawInput);
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    await loadOwned(tx, context, resource, id, { select: { [resource.idField]: true } });
    await delegateFor(tx, resource.model).update({
      select: { [resource.idField]: true },
      where: { [resource.idField]: id },
      // Always touch the row so @updatedAt moves even when only a relation changed.
      data: { ...columnData(resource, input), [resource.idField]: id },
    });
    await writeVirtualFields(tx, context, resource, id, input);
    await emitRecordEvent(tx, context, resource, "updated", await snapshot(tx, resource, id));
    return loadOwned(tx, context, resource, id, query);
  });
}

export interface Deletion {
  object: string;
  id: string;
  deleted: true;
}

export async function deleteRecord(context: GraphQLContext, resource: ResourceDefinition, id: string): Promise<Deletion> {
  await loadOwned(context.prisma, context, resource, id, { select: { [resource.idField]: true } });
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    await loadOwned(tx, context, resource, id, { select: { [resource.idField]: true } });
    const before = await snapshot(tx, resource, id);
    await delegateFor(tx, resource.model).delete({ select: { [resource.idField]: true }, where: { [resource.idField]: id } });
    await emitRecordEvent(tx, context, resource, "deleted", before);
    return { object: resource.kind, id, deleted: true as const };
  });
}
