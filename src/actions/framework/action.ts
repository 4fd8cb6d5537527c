// One action, one file (docs/actions.md, "Writing an action"): `src/<family>/actions/<name>.ts`
// default-exports defineAction({...}) — the catalog entry (method, scopes, price, emits, weight,
// test mode, purpose), the typed input and output, an example call, and the handler. The GraphQL
// field and its result type, the REST route, OpenAPI, scope checks, discovery, the docs tables and
// the shared security suite are all derived from it.
//
// Two ways to run:
// - "transaction" (default): `run` works inside the call's one transaction, with its credit spend
//   and events; a test key runs it for real and the transaction is rolled back.
// - "model": the handler calls providers, which never happens inside a transaction. The runner
//   holds the credits first, the handler reads, calls, then writes through `write` (one
//   transaction that also settles the hold to what ran). A test key gets a quote: validated,
//   priced, nothing held, spent or called.
import type { z } from "zod";
import type { Tx } from "../../db/transaction.js";
import type { GraphQLContext } from "../../graphql/context.js";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { OperationKind, OperationRow } from "../../operations/kind.js";
import type { Capability } from "../../providers/types.js";
import type { ProviderAccess } from "../../providers/recording.js";
import type { FileService } from "../../storage/from-config.js";
import type { ActionDefinition } from "../catalog/define.js";
import type { VIDEO_FIELDS } from "../catalog/define.js";

interface CallContext {
  graphql: GraphQLContext;
  /** false for sk_test_ keys. */
  livemode: boolean;
  /** Credits this call costs (0 for free actions); for model calls and operations, the hold. */
  cost: number;
  /** Names the record the credits pay for (the ledger row's reference_id). */
  reference(this: void, id: string): void;
}

export interface TransactionContext extends CallContext {
  /**
   * The call's transaction: its records, its credit spend and its events commit together. Every
   * query of the handler goes through it — on embedded PGlite (one connection) a query beside an
   * open transaction would wait for it for ever.
   */
  tx: Tx;
  /** Work to do once the transaction committed (enqueue a job, delete a file); skipped in test mode. */
  afterCommit(this: void, work: () => Promise<unknown>): void;
  /**
   * Queues long work as an operation (src/operations): the call's credits become its hold, settled
   * when it ends. Its job is enqueued once the transaction commits.
   */
  queueOperation<Input>(this: void, kind: OperationKind<Input>, operation: { subjectId: string; input: Input }): Promise<OperationRow>;
}

/** The providers as a model call sees them: each call's usage is recorded on the ledger entry. */
export type CallProviders = ProviderAccess;

export interface ModelContext extends CallContext {
  /** Reads, outside any transaction. */
  db: PrismaClient;
  providers: CallProviders;
  files: FileService;
  /** Units that ran, when fewer than were priced (locked paragraphs skipped): the spend follows. */
  ran(this: void, units: number): void;
  /**
   * The call's one write, at most once, as its last step: a transaction that also settles the hold,
   * books the providers' usage, records action.completed and stores the answer of an
   * idempotency_key. Check inside it that what you read did not change during the model call
   * (409 conflict). The handler answers with what the work returned.
   */
  commit<T>(this: void, work: (tx: Tx) => Promise<T>): Promise<T>;
}

/** What a units hook may use: reads only, before anything is held or written. */
export interface PricingContext {
  graphql: GraphQLContext;
  livemode: boolean;
}

/**
 * Sets up a valid call of an action for the shared security suite (and shows one in the docs):
 * records it refers to are created through the API as the caller.
 */
export interface ExampleSetup {
  /** POST /api/v1/{resource} with this body; the created record. */
  create(resource: string, body: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Calls another action; its answer. */
  action(name: string, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A tiny real PNG (base64) and a URL serving it, for actions that take an image. */
  image(): Promise<{ base64: string; url: string }>;
  /** A short article page and a URL serving it, for actions that read a page; `passage` is a sentence of it. */
  page(): Promise<{ url: string; passage: string }>;
  /** A URL serving two seconds of audio (WAV), for actions that transcribe media (set up by the security suite). */
  audio?(): Promise<{ url: string }>;
  /** Public pages of the site formats the tools read (src/tools/sites/): a forum thread and a video page with captions. */
  site(): Promise<{ forum_url: string; video_site_url: string }>;
  /**
   * A social account connected in the caller's workspace (accounts are connected outside the API,
   * `npm run account -- connect`): its account_id. For publishing actions.
   */
  account?(platform: string): Promise<{ account_id: string }>;
}

type InputSchema = z.ZodObject | typeof VIDEO_FIELDS;
type InputOf<I extends InputSchema> = I extends z.ZodObject ? z.output<I> : Record<string, unknown>;

type Declaration<I extends InputSchema, O extends z.ZodObject> = Omit<ActionDefinition, "family" | "input" | "emits" | "testMode"> & {
  readonly input: I;
  /** The answer's shape: a zod object with a literal `object`; credit actions also carry `credits`. */
  readonly output: O;
  readonly emits?: readonly string[];
  readonly testMode?: ActionDefinition["testMode"];
  /** Provider capabilities the call uses: without a model for one, the call is refused before anything. */
  readonly uses?: readonly Capability[];
  /**
   * The answer is a file (output `binaryFileOutput`, made with `binaryAnswer`): REST sends the
   * bytes themselves with their content type, GraphQL a signed link (docs/actions.md).
   */
  readonly binary?: boolean;
  /**
   * With `stream: true` in the input, REST answers Server-Sent Events the handler writes through
   * openAnswerStream (src/actions/framework/stream.ts); GraphQL answers the whole result.
   */
  readonly streams?: boolean;
  /**
   * Checks the input can run here before anything is priced, held or written, in both modes (a
   * test key learns the call is well formed): what the schema cannot say (the deployment's model,
   * a record's state). Throws the refusal.
   */
  check?(context: PricingContext, input: InputOf<I>): Promise<void>;
  /** Price units the records decide (paragraphs to voice), counted before anything is written. */
  units?(context: PricingContext, input: InputOf<I>): Promise<number>;
  /** A valid call, built in the caller's workspace (required when the input has required fields). */
  example?(setup: ExampleSetup): Promise<Record<string, unknown>>;
};

export type ActionSpec<I extends InputSchema, O extends z.ZodObject> =
  | (Declaration<I, O> & { readonly mode?: "transaction"; run(context: TransactionContext, input: InputOf<I>): Promise<z.input<O>> })
  | (Declaration<I, O> & { readonly mode: "model"; run(context: ModelContext, input: InputOf<I>): Promise<z.input<O>> });

type AnyRun =
  | { readonly mode: "transaction"; run(context: TransactionContext, input: Record<string, unknown>): Promise<Record<string, unknown>> }
  | { readonly mode: "model"; run(context: ModelContext, input: Record<string, unknown>): Promise<Record<string, unknown>> };

/** A live action: its catalog entry and what runs it. */
export type LiveAction = ActionDefinition &
  AnyRun & {
    readonly output: z.ZodObject;
    readonly uses?: readonly Capability[];
    readonly binary?: boolean;
    readonly streams?: boolean;
    check?(context: PricingContext, input: Record<string, unknown>): Promise<void>;
    units?(context: PricingContext, input: Record<string, unknown>): Promise<number>;
    example?(setup: ExampleSetup): Promise<Record<string, unknown>>;
  };

export function defineAction<I extends InputSchema, O extends z.ZodObject>(spec: ActionSpec<I, O>): LiveAction {
  const [family] = spec.name.split(".");
  if (!("object" in spec.output.shape)) throw new Error(`Action ${spec.name}: its output needs an \`object\` field`);
  if ("credits" in spec.output.shape) throw new Error(`Action ${spec.name}: \`credits\` is added to the output by the runner`);
  if (spec.binary && (spec.credits || !("url" in spec.output.shape))) throw new Error(`Action ${spec.name}: a binary answer is a free BinaryFile`);
  return Object.freeze({
    ...spec,
    family: family!,
    emits: Object.freeze([...(spec.emits ?? [])]),
    testMode: spec.testMode ?? "simulate",
    mode: spec.mode ?? "transaction",
  }) as unknown as LiveAction;
}

export function isLiveAction(action: ActionDefinition): action is LiveAction {
  return "run" in action;
}
