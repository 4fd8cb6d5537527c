// Generic record operations for any declared resource: ownership checks, validated writes in one
// transaction with their record events, and test-mode simulation (src/db/transaction.ts).
import { Prisma } from "../generated/prisma/client.js";
import { ApiError, notFound } from "../errors/api-error.js";
import type { RecordWrite, ResourceDefinition } from "../registry/resource.js";
import type { GraphQLContext } from "../graphql/context.js";
import { inWriteTransaction, type Tx } from "../db/transaction.js";
import { recordEvent } from "../outbox/record-event.js";
import { newId } from "../ids.js";
import { delegateFor } from "./delegate.js";
import { columnByName, idColumn } from "./fields.js";
import { parseRecordInput, type RecordInput } from "./input-schema.js";
import { compactQuery, fullSelection, presentRecord, type PrismaQuery } from "./selection.js";
import { isVisible } from "./visibility.js";
import { resourceByName } from "../registry/resources.js";
import { validationFailed, type ValidationIssue } from "../validation/issues.js";
import { logger } from "../logger.js";

type Row = Record<string, unknown>;

/**
 * How a write inside an open transaction reaches its caller: the action writing it (createRecordIn
 * from an action's run) and where work after commit goes (the action's afterCommit).
 */
export interface WriteCaller {
  action?: string;
  afterCommit(this: void, work: () => Promise<unknown>): void;
}

/** A caller for a resource route's own transaction: its follow-ups run once it committed. */
function routeCaller(): WriteCaller & { followUps: (() => Promise<unknown>)[] } {
  const followUps: (() => Promise<unknown>)[] = [];
  return { followUps, afterCommit: (work) => followUps.push(work) };
}

/** Work after commit cannot undo the write; a failure is logged (sweeps heal lost jobs). */
async function runFollowUps(context: GraphQLContext, followUps: (() => Promise<unknown>)[]): Promise<void> {
  if (!context.auth.livemode) return;
  for (const work of followUps) {
    try {
      await work();
    } catch (error) {
      logger.error({ err: error, request_id: context.requestId }, "follow-up after a record write failed");
    }
  }
}

function hookWrite(context: GraphQLContext, caller: WriteCaller | undefined, write: Omit<RecordWrite, "context" | "action" | "afterCommit">): RecordWrite {
  return {
    ...write,
    context,
    action: caller?.action,
    afterCommit: caller?.afterCommit ?? (() => {
      throw new Error("this record write needs work after commit: pass the caller's afterCommit (WriteCaller)");
    }),
  };
}

/**
 * What loadOwned needs of a record's kind: a resource, or a workspace-owned table that only
 * actions serve (app-screenshot and voice projects), named the same way.
 */
export type OwnedTarget = Pick<ResourceDefinition, "model" | "kind" | "idField" | "idColumn" | "visibility">;

/**
 * Loads a record by id, enforcing that the caller's workspace may see it (reads) or owns it
 * (writes). A record of another workspace is 403 workspace_mismatch (contract 5.7).
 */
export async function loadOwned(
  client: GraphQLContext["prisma"] | Tx,
  context: GraphQLContext,
  resource: OwnedTarget,
  id: string,
  query: PrismaQuery,
  purpose: "read" | "write" = "write",
): Promise<Row> {
  const row = await delegateFor(client, resource.model).findUnique({
    ...compactQuery(resource.model, query, ["workspace_id"]),
    where: { [idColumn(resource)]: id },
  });
  // A row of no workspace is public only on a shared shelf; otherwise it is nobody's to see.
  if (!row || (row.workspace_id === null && resource.visibility !== "shared")) throw notFound(resource.kind, id, resource.idField);
  const allowed = purpose === "read" ? isVisible(resource, row.workspace_id, context.auth.workspaceId) : row.workspace_id === context.auth.workspaceId;
  if (!allowed) {
    const message = row.workspace_id === null
      ? `The ${resource.kind} '${id}' is on the shared shelf and cannot be changed.`
      : `The ${resource.kind} '${id}' belongs to another workspace.`;
    throw new ApiError("workspace_mismatch", message, { param: resource.idField });
  }
  return row;
}

export function getRecord(context: GraphQLContext, resource: ResourceDefinition, id: string, query: PrismaQuery): Promise<Row> {
  return loadOwned(context.prisma, context, resource, id, query, "read");
}

/** Every referenced record must be one the caller's workspace can see. */
async function checkReferences(tx: Tx, context: GraphQLContext, resource: ResourceDefinition, input: RecordInput): Promise<void> {
  const issues: ValidationIssue[] = [];
  for (const [column, reference] of Object.entries(resource.references ?? {})) {
    // A reference column holds a record id (a string) once the input schema has parsed it.
    const id = input[column] as string | null | undefined;
    if (id === undefined || id === null) continue;
    const target = resourceByName(reference.resource);
    if (!target) throw new Error(`${resource.name}.${column} references unknown resource ${reference.resource}`);
    const row = await delegateFor(tx, target.model).findUnique({
      select: { workspace_id: true, ...Object.fromEntries(Object.keys(reference.where ?? {}).map((key) => [key, true])) },
      where: { [idColumn(target)]: id },
    });
    if (!row || !isVisible(target, row.workspace_id, context.auth.workspaceId)) {
      issues.push({ path: column, message: `No ${target.kind} '${String(id)}' in this workspace.`, type: "any.invalid" });
    } else {
      const mismatch = Object.entries(reference.where ?? {}).find(([key, value]) => row[key] !== value);
      if (mismatch) {
        issues.push({ path: column, message: `The ${target.kind} '${String(id)}' has ${mismatch[0]} '${String(row[mismatch[0]])}', not '${String(mismatch[1])}'.`, type: "any.invalid" });
      }
    }
  }
  if (issues.length > 0) throw validationFailed(issues);
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

/** `<kind>.<action>` with the record as the API shows it, in the writing transaction. */
async function emitRecordEvent(tx: Tx, owner: { workspaceId: string; livemode: boolean }, resource: ResourceDefinition, action: "created" | "updated" | "deleted", snapshot: Row): Promise<void> {
  await recordEvent(tx, {
    workspaceId: owner.workspaceId,
    type: `${resource.kind}.${action}`,
    livemode: owner.livemode,
    data: { object: presentRecord(resource, snapshot) },
  });
}

/**
 * `<kind>.updated` with the whole record, for a change made outside the resource routes — an
 * operation writing its results onto the record (faceless scenes, slides, timeline audio). Runs
 * in the writing transaction, so the event commits with the change. A record deleted meanwhile
 * has nothing to report.
 */
export async function recordUpdatedIn(tx: Tx, resource: ResourceDefinition, id: string, livemode = true): Promise<void> {
  const row = await delegateFor(tx, resource.model).findUnique({ select: { ...fullSelection(resource), workspace_id: true }, where: { [idColumn(resource)]: id } });
  if (row) await emitRecordEvent(tx, { workspaceId: row.workspace_id as string, livemode }, resource, "updated", row);
}

/** Reads back a record this transaction has just written or checked: no second ownership check. */
async function readBack(tx: Tx, resource: ResourceDefinition, id: string, query: PrismaQuery): Promise<Row> {
  const row = await delegateFor(tx, resource.model).findUnique({ ...query, where: { [idColumn(resource)]: id } });
  if (!row) throw new Error(`${resource.kind} ${id} vanished inside its own transaction`);
  return row;
}

/** The whole record, as record events carry it. */
function snapshot(tx: Tx, resource: ResourceDefinition, id: string): Promise<Row> {
  return readBack(tx, resource, id, { select: fullSelection(resource) });
}

async function insertRecord(tx: Tx, context: GraphQLContext, resource: ResourceDefinition, input: RecordInput, query: PrismaQuery, caller?: WriteCaller): Promise<Row> {
  const id = newId(resource.idPrefix);
  // The hook first: its own ownership checks (403/404) come before the generic 422.
  const stamped = await resource.beforeWrite?.(tx, hookWrite(context, caller, { mode: "create", id, input }));
  await checkReferences(tx, context, resource, input);
  await delegateFor(tx, resource.model).create({
    select: { [idColumn(resource)]: true },
    data: {
      ...columnData(resource, input),
      ...resource.stampOnCreate?.(context.auth),
      ...stamped,
      [idColumn(resource)]: id,
      workspace_id: context.auth.workspaceId,
    },
  });
  await writeVirtualFields(tx, context, resource, id, input);
  await emitRecordEvent(tx, context.auth, resource, "created", await snapshot(tx, resource, id));
  return readBack(tx, resource, id, query);
}

/** Creates a record inside an open transaction (an action's, or createRecord's own). */
export function createRecordIn(tx: Tx, context: GraphQLContext, resource: ResourceDefinition, rawInput: unknown, query: PrismaQuery, caller?: WriteCaller): Promise<Row> {
  return insertRecord(tx, context, resource, parseRecordInput(resource, "create", rawInput), query, caller);
}

export async function createRecord(context: GraphQLContext, resource: ResourceDefinition, rawInput: unknown, query: PrismaQuery): Promise<Row> {
  // Validation runs before the transaction opens, so a 422 costs no database round trip.
  const input = parseRecordInput(resource, "create", rawInput);
  const caller = routeCaller();
  const row = await inWriteTransaction(context.prisma, context.auth, (tx) => insertRecord(tx, context, resource, input, query, caller));
  await runFollowUps(context, caller.followUps);
  return row;
}

/** Updates a record inside an open transaction (an action's, or updateRecord's own). */
export async function updateRecordIn(tx: Tx, context: GraphQLContext, resource: ResourceDefinition, id: string, rawInput: unknown, query: PrismaQuery, caller?: WriteCaller): Promise<Row> {
  const existing = await loadOwned(tx, context, resource, id, resource.beforeWrite ? { select: fullSelection(resource) } : { select: { [idColumn(resource)]: true } });
  const input = parseRecordInput(resource, "update", rawInput);
  const stamped = await resource.beforeWrite?.(tx, hookWrite(context, caller, { mode: "update", id, input, existing }));
  await checkReferences(tx, context, resource, input);
  await delegateFor(tx, resource.model).update({
    select: { [idColumn(resource)]: true },
    where: { [idColumn(resource)]: id },
    // Always touch the row so @updatedAt moves even when only a relation changed.
    data: { ...columnData(resource, input), ...stamped, [idColumn(resource)]: id },
  });
  await writeVirtualFields(tx, context, resource, id, input);
  await emitRecordEvent(tx, context.auth, resource, "updated", await snapshot(tx, resource, id));
  return readBack(tx, resource, id, query);
}

export async function updateRecord(context: GraphQLContext, resource: ResourceDefinition, id: string, rawInput: unknown, query: PrismaQuery): Promise<Row> {
  // updateRecordIn checks ownership before the body, so another workspace's id is 403/404 whatever the body says.
  const caller = routeCaller();
  const row = await inWriteTransaction(context.prisma, context.auth, (tx) => updateRecordIn(tx, context, resource, id, rawInput, query, caller));
  await runFollowUps(context, caller.followUps);
  return row;
}

export interface Deletion {
  object: string;
  id: string;
  deleted: true;
}

/** Deletes a record inside an open transaction (an action's, or deleteRecord's own). */
export async function deleteRecordIn(tx: Tx, context: GraphQLContext, resource: ResourceDefinition, id: string, caller?: WriteCaller): Promise<Deletion> {
  const before = await loadOwned(tx, context, resource, id, { select: fullSelection(resource) });
  await resource.beforeWrite?.(tx, hookWrite(context, caller, { mode: "delete", id, existing: before }));
  await delegateFor(tx, resource.model).delete({ select: { [idColumn(resource)]: true }, where: { [idColumn(resource)]: id } });
  await emitRecordEvent(tx, context.auth, resource, "deleted", before);
  return { object: resource.kind, id, deleted: true as const };
}

export function deleteRecord(context: GraphQLContext, resource: ResourceDefinition, id: string): Promise<Deletion> {
  return inWriteTransaction(context.prisma, context.auth, (tx) => deleteRecordIn(tx, context, resource, id));
}
