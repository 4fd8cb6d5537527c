// What a family declares to run long work as an operation (docs/operations.md): its queue, its
// input, the work, and what each state move does to the family's own record in the same
// transaction (render_status, render.completed, music.failed, ...). The mechanism around it —
// claiming, leases, progress, credit settlement, retaking a dead worker's work — is src/operations.
import type { z } from "zod";
import type { Config } from "../config.js";
import type { Tx } from "../db/transaction.js";
import type { Operation, PrismaClient } from "../generated/prisma/client.js";
import type { OutboundGuard } from "../outbound/url-guard.js";
import type { FileService } from "../storage/from-config.js";
import type { ProviderRegistry } from "../providers/registry.js";
import type { ProviderAccess } from "../providers/recording.js";
import type { CallMeta } from "../providers/types.js";
import type { JobDependencies } from "../jobs/job.js";

export type OperationRow = Operation;

/** A failure the work reports with a stable code (`media_unreachable`, `upstream_error`, ...). */
export class OperationFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = "OperationFailure";
  }
}

/** What the work hands back: a result kept on the operation, and the credits it used. */
export interface OperationOutcome {
  result?: Record<string, unknown>;
  /** Credits of the hold the work used; the rest comes back. Defaults to the whole hold. */
  creditsSpent?: number;
}

/** Services a running operation may use. */
export interface OperationServices {
  prisma: PrismaClient;
  config: Config;
  outbound: OutboundGuard;
  files: FileService;
  providers: ProviderRegistry;
}

export interface OperationRunContext extends Omit<OperationServices, "providers"> {
  /** Models and local tools; every call's usage is booked on the hold's ledger row. */
  providers: ProviderAccess;
  operation: OperationRow;
  /** Aborted when the worker lost its lease (the operation was retaken or failed) or stops. */
  signal: AbortSignal;
  /** 0–100; written at most every half second, never backwards. */
  progress(percent: number): void;
  /** Saves what a retaken attempt needs to resume (e.g. a provider's request id). */
  checkpoint(data: Record<string, unknown>): Promise<void>;
  /** Records the credits of the hold used so far: a failure later keeps these and releases the rest. */
  spent(credits: number): Promise<void>;
  /** A private working directory, removed once the attempt ends. */
  workDir(): Promise<string>;
  /**
   * What work that makes action calls of its own needs (a flow's nodes, src/flows): the provider
   * registry itself, and the job queues their operations go to.
   */
  registry: ProviderRegistry;
  enqueue: JobDependencies["enqueue"];
  quotas: JobDependencies["quotas"];
}

/** What the providers' calls of an attempt used, booked on the hold's ledger row when it ends. */
export type ProviderUsage = readonly CallMeta[];

/** The ledger's side of an ending: what the operation kept, and what came back. */
export interface Settlement {
  creditsSpent: number;
  creditsRefunded: number;
}

export interface OperationKind<Input = unknown> {
  /** Stored on the operation (`render`, `music`, `image_generation`). */
  kind: string;
  /** The queue (one per capability) whose workers run it, with that queue's concurrency. */
  queue: string;
  /** Checked when queued and again when run. */
  input: z.ZodType<Input>;
  /** Attempts before a lost worker's operation is failed instead of retaken (default 2). */
  maxAttempts?: number;
  run(context: OperationRunContext, input: Input): Promise<OperationOutcome>;
  /** queued → running (the claim). */
  onStart?(tx: Tx, operation: OperationRow): Promise<void>;
  /** Progress written to the operation; the family mirrors it on its record if it shows one. */
  onProgress?(prisma: PrismaClient, operation: OperationRow, percent: number): Promise<void>;
  /** running → completed. */
  onComplete(tx: Tx, operation: OperationRow, settlement: Settlement, services: OperationServices): Promise<void>;
  /** running (or queued) → failed. */
  onFail(tx: Tx, operation: OperationRow, failure: OperationFailure, settlement: Settlement, services: OperationServices): Promise<void>;
  /** running → queued again, when a dead worker's lease ran out. */
  onRetake?(tx: Tx, operation: OperationRow): Promise<void>;
  /** queued → canceled. */
  onCancel?(tx: Tx, operation: OperationRow, settlement: Settlement): Promise<void>;
}

export function defineOperationKind<Input>(kind: OperationKind<Input>): OperationKind<Input> {
  return kind;
}

/** A kind's input type matters only inside the kind; lists of kinds (the workers') handle them alike. */
export const anyKind = <Input>(kind: OperationKind<Input>) => kind as unknown as OperationKind<unknown>;
