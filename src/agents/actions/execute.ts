// agents.execute (catalog 4.3): runs an agent's prompt template with the call's variables through
// the text model and keeps the run in `agent_executions`, emitting agent_execution.completed in
// the same transaction. Model mode: 4 credits are held, the model answers, then the row, the
// event, the spend and action.completed commit together; a failed model call gives the hold back
// and writes no row. The run is also a completed `generations` row (agent_type text), as every
// billed generation is. `stream: true` on REST answers Server-Sent Events (`start`, `delta`, then
// `done` with this record); on GraphQL the whole record. A test key gets a quote (after the agent
// and its variables were checked).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, jsonObject, prompt } from "../../actions/catalog/define.js";
import { openAnswerStream } from "../../actions/framework/stream.js";
import type { Prisma } from "../../generated/prisma/client.js";
import { newId } from "../../ids.js";
import { recordEvent } from "../../outbox/record-event.js";
import { presentRecord } from "../../resources/selection.js";
import { recordSchema } from "../../resources/record-schema.js";
import { agentExecutions } from "../resource.js";
import { EXECUTION_PRICE, prepareRun } from "../run.js";

export default defineAction({
  name: "agents.execute",
  method: "POST",
  scopes: ["agents:execute"],
  credits: true,
  emits: ["agent_execution.completed"],
  input: z.strictObject({
    agent_id: id(),
    variables: jsonObject().optional(),
    custom_prompt: prompt().optional(),
    stream: flag().optional(),
    metadata: jsonObject().optional(),
  }),
  price: { credits: EXECUTION_PRICE, per: "call", note: "one run of an image or video agent, priced as one image" },
  weight: 5,
  purpose: "run any configured agent with its prompt template and variables",
  mode: "model",
  uses: ["text"],
  streams: true,
  output: recordSchema(agentExecutions),
  async example(setup) {
    const agent = await setup.create("agents", { agent_name: "Tagline writer", agent_type: "image", agent_prompt_template: "Write a poster tagline about {{ subject }}." });
    return { agent_id: agent.agent_id, variables: { subject: "a lighthouse" }, metadata: { campaign: "spring" } };
  },
  async check({ graphql }, input) {
    await prepareRun(graphql, input);
  },
  async run({ graphql, providers, reference, commit }, input) {
    const run = await prepareRun(graphql, input);
    const workspaceId = graphql.auth.workspaceId;
    const executionId = newId("agent_execution");
    reference(executionId);
    const text = providers.get("text");
    const stream = input.stream ? openAnswerStream() : undefined;
    stream?.send("start", { object: "agent_execution", execution_id: executionId, agent_id: run.agentId });
    const answer = stream
      ? await text.streamText({ system: run.system, prompt: run.prompt }, (delta) => stream.send("delta", { text: delta }))
      : await text.generateText({ system: run.system, prompt: run.prompt });
    return commit(async (tx) => {
      const row = await tx.agentExecution.create({
        data: {
          execution_id: executionId,
          workspace_id: workspaceId,
          agent_id: run.agentId,
          status: "completed",
          prompt_used: run.prompt,
          credits_consumed: EXECUTION_PRICE,
          result: { text: answer.text },
          variables_used: input.variables ?? {},
          execution_metadata: {
            metadata: input.metadata ?? null,
            streamed: stream !== undefined,
            provider: answer.meta.provider,
            model: answer.meta.model,
            usage: answer.meta.usage,
          } as unknown as Prisma.InputJsonValue,
          completed_at: new Date(),
        },
      });
      // Billed like every AI generation: a completed `generations` row of the run (text, no files).
      await tx.generation.create({
        data: {
          generation_id: newId("generation"),
          workspace_id: workspaceId,
          agent_type: "text",
          agent_model: `${answer.meta.provider}/${answer.meta.model}`,
          agent_id: run.agentId,
          status: "completed",
          prompt: run.prompt,
          credits_consumed: EXECUTION_PRICE,
          variables: input.variables ?? undefined,
          completed_at: new Date(),
          generation_metadata: { action: "agents.execute", execution_id: executionId, text: answer.text },
        },
      });
      const record = presentRecord(agentExecutions, row);
      await recordEvent(tx, { workspaceId, type: "agent_execution.completed", livemode: true, data: { object: record } });
      return record;
    });
  },
});
