// What every queued media generation action does in its transaction (videos_ai, generations.launch,
// characters): check a model the caller picked is usable here, write the `generations` record
// pending, and queue its media operation (src/generations/media-generation.ts) with the call's
// credits as its hold. With a test key the same runs and is rolled back: nothing is queued.
import type { TransactionContext } from "../actions/framework/action.js";
import type { GraphQLContext } from "../graphql/context.js";
import type { Prisma } from "../generated/prisma/client.js";
import { newId } from "../ids.js";
import { loadOwned } from "../resources/service.js";
import { validationFailed } from "../validation/issues.js";
import { folders } from "../folders/index.js";
import { imageMediaOperation, mediaGenerationInput, videoMediaOperation, type MediaGenerationInput } from "./media-generation.js";

export type MediaCapability = "image" | "video";

/** Refuses (422 on `param`) a model ref that is not a usable model of the capability here. */
export function checkModelRef(graphql: GraphQLContext, capability: MediaCapability, ref: string | undefined, param: string): void {
  if (ref === undefined) return;
  const usable = graphql.services.providers.catalog().filter((model) => model.capability === capability).map((model) => model.ref);
  if (!usable.includes(ref)) throw validationFailed([{ path: param, message: `Must be one of the ${capability} models usable here: ${usable.join(", ")}.`, type: "any.only", allowed: usable }]);
}

/** A playground folder of the workspace, when one is named. */
export async function checkFolder(context: TransactionContext, folderId: string | undefined): Promise<void> {
  if (folderId) await loadOwned(context.tx, context.graphql, folders, folderId, { select: { folder_id: true } }, "read");
}

export interface QueuedGeneration {
  capability: MediaCapability;
  /** The action, kept in generation_metadata. */
  action: string;
  /** The prompt the record shows (the first output's). */
  prompt: string;
  agentId?: string | null;
  folderId?: string | null;
  variables?: Record<string, unknown>;
  metadata: Record<string, unknown>;
  operation: MediaGenerationInput;
  /** Written in the same transaction, before the operation is queued (playground records). */
  beforeQueue?(generationId: string): Promise<void>;
}

/** Writes the pending `generations` record and queues its operation; the record row. */
export async function queueGeneration(context: TransactionContext, queued: QueuedGeneration) {
  const { tx, graphql, cost, queueOperation } = context;
  const generationId = newId("generation");
  const model = queued.operation.model ?? graphql.services.providers.model(queued.capability)!.ref;
  const row = await tx.generation.create({
    data: {
      generation_id: generationId,
      workspace_id: graphql.auth.workspaceId,
      agent_type: queued.capability,
      agent_model: model,
      agent_id: queued.agentId ?? null,
      folder_id: queued.folderId ?? null,
      status: "pending",
      prompt: queued.prompt,
      credits_consumed: cost,
      variables: (queued.variables as Prisma.InputJsonValue | undefined) ?? undefined,
      generation_metadata: { action: queued.action, ...queued.metadata },
    },
  });
  await queued.beforeQueue?.(generationId);
  await queueOperation(queued.capability === "video" ? videoMediaOperation : imageMediaOperation, { subjectId: generationId, input: mediaGenerationInput.parse(queued.operation) });
  return row;
}
