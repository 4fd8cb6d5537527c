// A flow node's action call, exactly once across attempts (docs/flows.md, "A worker lost mid-run").
// The node runs under the crash-safe mechanism of the HTTP Idempotency-Key
// (src/db/idempotent-steps.ts, src/db/transaction.ts), with a key of its own: the execution id
// and the node id. Each write transaction of the call — a transaction-mode action's one
// transaction; a model-mode action's hold, its final transaction that settles it, or the release
// of a failed call — is a step, committed together with its row in idempotency_steps. A retaken
// attempt runs the node again under the same key: the steps that committed are handed back instead
// of running (no second row, no second charge), only the rest runs. Once the call ends its answer
// (or its error, if it wrote anything) is stored on the key's record and given back as is.
//
// Why this and not the per-call `idempotency_key` of model actions (rule 4.1.9): that one covers
// only model-mode actions (transaction-mode inputs refuse the field), and a claim whose call died
// before its final transaction stays `running` for 15 minutes, failing the retaken node with
// idempotency_in_progress; the hold it took would be released by nobody. The steps cover both modes
// and resume a call that died half-way.
import { createHash } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client.js";
import { currentRequestContext, runInRequestContext } from "../context/request-context.js";
import type { IdempotentRun } from "../context/request-context.js";
import { ApiError } from "../errors/api-error.js";
import type { ErrorCode } from "../errors/codes.js";
import type { RequestMeter } from "../context/request-context.js";

export interface NodeCall {
  prisma: PrismaClient;
  /** The launching key: the record belongs to it as an HTTP key's does. */
  keyId: string;
  executionId: string;
  nodeId: string;
  action: string;
  input: Record<string, unknown>;
  /** Request id and base URL when the worker runs without a request context. */
  requestId: string;
  baseUrl: string;
  /** Counts the call's credits against the launching key's credits quota, when it has one. */
  meter?: RequestMeter;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The key's hash. An HTTP Idempotency-Key is hashed from the header's text, which cannot hold a
 * NUL byte: these never meet a client's key.
 */
export const nodeKeyHash = (executionId: string, nodeId: string) => sha256(`flow-node\0${executionId}\0${nodeId}`);

interface StoredError {
  error: { code: string; message: string };
}

function replay(status: number, body: string): Record<string, unknown> {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  if (status === 200) return parsed;
  const { error } = parsed as unknown as StoredError;
  throw new ApiError(error.code as ErrorCode, error.message);
}

/** Runs `call` (the node's runAction) exactly once for this execution's node, across attempts. */
export async function callNodeOnce(node: NodeCall, call: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
  const { prisma, keyId } = node;
  const keyHash = nodeKeyHash(node.executionId, node.nodeId);
  const fingerprint = sha256(`${node.action}\n${JSON.stringify(node.input)}`);
  const where = { key_id_key_hash: { key_id: keyId, key_hash: keyHash } };
  const record = await prisma.idempotencyRecord.findUnique({ where, select: { fingerprint: true, response_status: true, response_body: true } });
  if (record && record.fingerprint !== fingerprint) {
    // The node's input was resolved from the saved context; another input means parallel writes
    // to one variable raced differently. Running it would mix two calls' steps.
    throw new ApiError("idempotency_conflict", `Node ${node.nodeId} (${node.action}) got another input than in the attempt that began it; it is not run twice.`);
  }
  if (record?.response_status != null && record.response_body !== null) return replay(record.response_status, record.response_body);

  const steps = record ? await prisma.idempotencyStep.findMany({ where: { key_id: keyId, key_hash: keyHash }, select: { step: true, result: true } }) : [];
  const run: IdempotentRun = {
    keyId,
    keyHash,
    fingerprint,
    requestId: node.requestId,
    committed: new Map(steps.map((step) => [step.step, step.result])),
    nextStep: 0,
    wrote: steps.length > 0,
  };
  const outer = currentRequestContext();
  const context = { ...(outer ?? { requestId: node.requestId, baseUrl: node.baseUrl }), idempotency: run, ...(node.meter && { meter: node.meter }) };
  const store = async (status: number, body: Record<string, unknown>) => {
    const stored = { response_status: status, response_headers: {}, response_body: JSON.stringify(body), completed_at: new Date() };
    await prisma.idempotencyRecord.upsert({
      where,
      create: { key_id: keyId, key_hash: keyHash, fingerprint, request_id: node.requestId, ...stored },
      update: stored,
    });
  };
  let answer: Record<string, unknown>;
  try {
    answer = await runInRequestContext(context, call);
  } catch (error) {
    // A call that wrote before failing (a model call's hold and its release) failed for good: a
    // retaken attempt gets the same failure rather than replaying half of it. One that wrote
    // nothing may simply run again.
    if (run.wrote && error instanceof ApiError) await store(error.status, { error: { code: error.code, message: error.message } });
    throw error;
  }
  if (run.wrote) await store(200, answer);
  return answer;
}
