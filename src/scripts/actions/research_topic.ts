// scripts.research_topic (catalog 4.9): one web search on `question` (else the script's topic,
// else its title), then the text model picks the facts the results state that serve the script,
// each tied to the result it comes from; they are filed as the script's sources (kind `research`).
// The facts come from the web, not from the paragraphs, so a document edited meanwhile does not
// refuse the write (unlike scripts.research_all). Two credits per call: one search, one model call.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, prompt, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { openForWrite, readScript, type ScriptRow } from "../document.js";
import { sourceShape } from "../present.js";
import { readForPass } from "../writing/pass.js";
import { askModel, passPrompt, readingFields } from "../writing/reading.js";
import { FACTS_PER_TOPIC, fileFacts, resultsBlock, webSearch } from "../writing/research.js";

/** What is searched: the question sent, else the script's topic, else its title. */
function subjectOf(script: ScriptRow, question: string | undefined): string | null {
  return question?.trim() || script.topic?.trim() || script.title?.trim() || null;
}

export default defineAction({
  name: "scripts.research_topic",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    question: prompt().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 2, per: "call", note: "one web search plus one model call" },
  weight: 2,
  purpose: "stores facts as sources on the document",
  mode: "model",
  uses: ["search", "text"],
  output: z.object({
    object: z.literal("script_research"),
    ...readingFields,
    revision: z.number().int().describe("The script's revision after the call (unchanged when nothing new was filed)."),
    question: z.string().describe("What was searched."),
    results: z.number().int().describe("Results the search found."),
    facts: z.array(
      z.object({
        source: sourceShape,
        created: z.boolean().describe("false when the same fact from the same address was filed already."),
      }).meta({ id: "ScriptResearchFact" }),
    ),
    edit_ids: z.array(z.string()).describe("The log entries of the sources filed (`source.add`), one per new fact."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Research example", topic: "Why cats purr" });
    return { script_id: script.script_id, question: "At what frequency do cats purr?" };
  },
  async check({ graphql }, input) {
    const script = await readScript(graphql.prisma, graphql, input.script_id);
    if (subjectOf(script, input.question)) return;
    throw new ApiError("invalid_request", "Nothing to research: send `question`, or give the script a topic or a title.", { param: "question" });
  },
  async run(context, input) {
    const document = await readForPass(context.db, context.graphql, input.script_id);
    const question = subjectOf(document.script, input.question)!;
    const hits = await webSearch(context, document, question);
    const urls = hits.map((hit) => hit.url);
    const { object, model } = await askModel(context, document, "document", {
      ...passPrompt(
        document,
        "You are a researcher for a video script. You keep only facts the search results state, each tied to the result that states it; you never add what the results do not say.",
        `Research: ${question}\nFrom the search results below, pick at most ${FACTS_PER_TOPIC} facts that would serve this script, each as one plain sentence in the script's language, with the number of the result it comes from. Keep figures, dates and names exactly as the result gives them. Pick none if the results state nothing useful.\n\nSearch results:\n${resultsBlock(hits)}`,
      ),
      schema: z.object({ facts: z.array(z.object({ fact: z.string().min(1).max(1000), result: z.number().int().min(1).max(Math.max(1, urls.length)) })).max(FACTS_PER_TOPIC) }),
      schemaName: "script_research",
    });
    const facts = hits.length ? object.facts.slice(0, FACTS_PER_TOPIC).map((fact) => ({ hit: hits[fact.result - 1]!, text: fact.fact.trim() })) : [];
    const base = { object: "script_research" as const, script_id: input.script_id, model, request: input.request ?? null, question, results: hits.length };
    if (facts.length === 0) return { ...base, revision: document.revision, facts: [], edit_ids: [] };
    return context.commit(async (tx) => {
      const write = await openForWrite(tx, context.graphql, input.script_id, "scripts.research_topic");
      const filed = await fileFacts(tx, write, input.script_id, facts);
      const script = filed.editIds.length ? await write.done() : await write.unchanged();
      return { ...base, revision: script.revision, facts: filed.facts, edit_ids: filed.editIds };
    });
  },
});
