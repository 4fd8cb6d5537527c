// Starting an image agent's generation, shared by images.generate and image_agents.generate: the
// agent's prompt filled (src/agents/prompt.ts), the records the call names checked, the
// `generations` row written pending and the image generation operation queued with the call's
// credits held, all in the call's transaction (src/images/image-generation.ts draws and settles).
import type { TransactionContext } from "../actions/framework/action.js";
import type { Prisma } from "../generated/prisma/client.js";
import { newId } from "../ids.js";
import { loadOwned } from "../resources/service.js";
import { presentRecord } from "../resources/selection.js";
import { validationFailed } from "../validation/issues.js";
import { agentPrompt, agents } from "../agents/index.js";
import { folders } from "../folders/index.js";
import { generations } from "../generations/index.js";
import { videos } from "../video-model/index.js";
import { imageGenerationOperation } from "./image-generation.js";

export const IMAGE_PRICE = 4;

export interface AgentImagesRequest {
  agent_id: string;
  variables?: Record<string, unknown>;
  custom_prompt?: string;
  preprompt_context?: string;
  video_id?: string;
  folder_id?: string;
  count: number;
  reference_image_url?: string;
  additional_reference_image_urls?: string[];
  source_generation_id?: string;
  source_image_url?: string;
  /** The call's own settings, over the agent's (size, quality). */
  settings_overrides?: Record<string, unknown>;
  optimize?: boolean;
  /** Kept on the generation's metadata as sent. */
  metadata: Record<string, unknown>;
  /** The action's answer when the agent is not an image agent. */
  notImageAgent(agentType: string): Error;
}

/** A setting of the agent (or the call's overrides) that is a short text, or undefined. */
function textSetting(settings: Record<string, unknown>, name: string): string | undefined {
  const value = settings[name];
  return typeof value === "string" && value.length > 0 && value.length <= 64 ? value : undefined;
}

export function oneReference(input: { reference_image_url?: string; source_image_url?: string; source_generation_id?: string }): void {
  if (input.reference_image_url && (input.source_image_url || input.source_generation_id)) {
    throw validationFailed([{ path: "reference_image_url", message: "Send one reference: reference_image_url, source_image_url or source_generation_id.", type: "object.xor" }]);
  }
}

/** Writes the pending generation and queues its operation; the generation record. */
export async function startAgentImages({ tx, graphql, cost, queueOperation }: TransactionContext, input: AgentImagesRequest) {
  const workspaceId = graphql.auth.workspaceId;
  const agent = await loadOwned(tx, graphql, agents, input.agent_id, { select: { agent_id: true, agent_type: true, agent_prompt_template: true, agent_settings: true } });
  if (agent.agent_type !== "image") throw input.notImageAgent(String(agent.agent_type));
  if (input.video_id) await loadOwned(tx, graphql, videos, input.video_id, { select: { video_id: true } }, "read");
  if (input.folder_id) await loadOwned(tx, graphql, folders, input.folder_id, { select: { folder_id: true } }, "read");
  let referenceKey: string | undefined;
  if (input.source_generation_id) {
    const source = await loadOwned(tx, graphql, generations, input.source_generation_id, { select: { generation_metadata: true, status: true } }, "read");
    referenceKey = ((source.generation_metadata as { files?: { key: string }[] } | null)?.files ?? [])[0]?.key;
    if (!referenceKey) throw validationFailed([{ path: "source_generation_id", message: "That generation has no stored image to start from.", type: "any.invalid" }]);
  }
  const prompt = agentPrompt({
    template: agent.agent_prompt_template as string | null,
    variables: input.variables ?? {},
    customPrompt: input.custom_prompt,
    context: input.preprompt_context,
  });
  const settings = { ...((agent.agent_settings as Record<string, unknown> | null) ?? {}), ...(input.settings_overrides ?? {}) };
  const generationId = newId("generation");
  const model = graphql.services.providers.model("image")!;
  const reference = input.reference_image_url ?? input.source_image_url;
  const row = await tx.generation.create({
    data: {
      generation_id: generationId,
      workspace_id: workspaceId,
      agent_type: "image",
      agent_model: model.ref,
      agent_id: input.agent_id,
      folder_id: input.folder_id ?? null,
      status: "pending",
      prompt,
      credits_consumed: cost,
      variables: (input.variables as Prisma.InputJsonValue | undefined) ?? undefined,
      generation_metadata: {
        ...input.metadata,
        count: input.count,
        video_id: input.video_id ?? null,
        reference_image_url: reference ?? null,
        additional_reference_image_urls: input.additional_reference_image_urls ?? [],
        source_generation_id: input.source_generation_id ?? null,
        settings,
      } as Prisma.InputJsonValue,
    },
  });
  await queueOperation(imageGenerationOperation, {
    subjectId: generationId,
    input: {
      prompt,
      count: input.count,
      credits_per_image: IMAGE_PRICE,
      size: textSetting(settings, "size"),
      quality: textSetting(settings, "quality"),
      optimize: input.optimize ?? false,
      reference_url: reference,
      ...(input.additional_reference_image_urls?.length && { more_reference_urls: input.additional_reference_image_urls }),
      reference_key: referenceKey,
    },
  });
  return presentRecord(generations, row);
}
