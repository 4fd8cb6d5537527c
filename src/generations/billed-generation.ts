// The generations record of a billed model call — a tool, an app screenshot (docs/generation.md,
// "Tools"). The model call runs outside any transaction; then one transaction writes the
// `generations` row (completed, the credits it cost, the prompt, what was made and by which model),
// emits generation.completed and whatever else the action writes, and settles the call's hold.
// When the model work fails, the runner gives the hold back, and a row with status `failed` and
// generation.failed (credits already spent: 0, refunded: the hold) are written in a transaction of
// their own before the error goes on.
import type { ModelContext } from "../actions/framework/action.js";
import { inWriteTransaction, type Tx } from "../db/transaction.js";
import { toApiError } from "../errors/envelope.js";
import { generations } from "./resource.js";
import { newId } from "../ids.js";
import { logger } from "../logger.js";
import { recordEvent } from "../outbox/record-event.js";
import { presentRecord } from "../resources/selection.js";

export interface GenerationSpec {
  /** The action (`tools.remove_background`), kept in the metadata. */
  action: string;
  /** image, video, audio or text. */
  agentType: "image" | "video" | "audio" | "text";
  /** `<provider>/<model id>` that does the work; null when no model does (a composition built here). */
  model: string | null;
  prompt: string | null;
  agentId?: string | null;
  folderId?: string | null;
  /** Facts of the request, kept in the metadata whatever happens. */
  metadata?: Record<string, unknown>;
}

/** What the model work made: links to stored outputs, facts for the metadata, and what the answer needs. */
export interface Made<Value> {
  outputUrls: string[];
  metadata: Record<string, unknown>;
  value: Value;
}

type Row = Awaited<ReturnType<Tx["generation"]["create"]>>;

async function emit(tx: Tx, type: "generation.completed" | "generation.failed", row: Row, extra: Record<string, unknown> = {}) {
  await recordEvent(tx, { workspaceId: row.workspace_id, type, livemode: true, data: { object: presentRecord(generations, row), ...extra } });
}

function baseData(context: ModelContext, generationId: string, spec: GenerationSpec) {
  return {
    generation_id: generationId,
    workspace_id: context.graphql.auth.workspaceId,
    agent_type: spec.agentType,
    agent_model: spec.model,
    agent_id: spec.agentId ?? null,
    folder_id: spec.folderId ?? null,
    prompt: spec.prompt,
    completed_at: new Date(),
  };
}

/**
 * Runs a tool's model work as a billed generation: `make` calls the providers (and stores what they
 * made); `answer` runs in the call's one write, after the completed row, and returns the answer.
 */
export async function billedGeneration<Value, T>(
  context: ModelContext,
  spec: GenerationSpec,
  make: (generationId: string) => Promise<Made<Value>>,
  answer: (tx: Tx, generation: Row, made: Value) => Promise<T>,
): Promise<T> {
  const generationId = newId("generation");
  context.reference(generationId);
  let made: Made<Value>;
  try {
    made = await make(generationId);
  } catch (error) {
    await recordFailure(context, spec, generationId, error).catch((failure: unknown) => logger.error({ err: failure, action: spec.action }, "failed generation not recorded"));
    throw error;
  }
  return context.commit(async (tx) => answer(tx, await completedGeneration(tx, context, spec, generationId, made, context.cost), made.value));
}

/**
 * The completed `generations` row of model work done outside the transaction, with
 * generation.completed, in the call's write: one per billed generation, or one per image of a call
 * that draws several (scripts.to_video), each with the credits it cost.
 */
export async function completedGeneration(tx: Tx, context: ModelContext, spec: GenerationSpec, generationId: string, made: Omit<Made<unknown>, "value">, credits: number): Promise<Row> {
  const row = await tx.generation.create({
    data: {
      ...baseData(context, generationId, spec),
      status: "completed",
      credits_consumed: credits,
      output_urls: made.outputUrls,
      thumbnail_url: made.outputUrls[0] ?? null,
      generation_metadata: { action: spec.action, ...spec.metadata, ...made.metadata },
    },
  });
  await emit(tx, "generation.completed", row);
  return row;
}

async function recordFailure(context: ModelContext, spec: GenerationSpec, generationId: string, error: unknown) {
  const failure = toApiError(error);
  await inWriteTransaction(context.db, context.graphql.auth, async (tx) => {
    const row = await tx.generation.create({
      data: {
        ...baseData(context, generationId, spec),
        status: "failed",
        credits_consumed: 0,
        error_message: `${failure.code}: ${failure.message}`.slice(0, 2000),
        generation_metadata: { action: spec.action, ...spec.metadata },
      },
    });
    // The runner gives the whole hold back once this returns: nothing of it was spent.
    await emit(tx, "generation.failed", row, { error_code: failure.code, credits_consumed: 0, credits_refunded: context.cost });
  });
}
