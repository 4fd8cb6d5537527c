// scripts.check_flow (catalog 4.9): the text model reads the seams between paragraphs — does each
// one lead into the next — and answers a score with the seams that break. Changes nothing; one
// credit per call. Each issue names a real seam: the paragraph before it (an id of the document,
// never the last) and the one after, which the service fills in from the document as read.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, request } from "../../actions/catalog/define.js";
import { readForPass } from "../writing/pass.js";
import { askModel, enoughParagraphs, idsOf, passPrompt, readingFields, requireParagraphs } from "../writing/reading.js";

const SEVERITIES = ["low", "medium", "high"] as const;

export default defineAction({
  name: "scripts.check_flow",
  method: "GET",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 1, per: "call" },
  weight: 2,
  purpose: "reads the seams between paragraphs; returns a score and issues; changes nothing",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("script_flow"),
    ...readingFields,
    score: z.number().int().min(0).max(100).describe("How well the script flows, 0 to 100."),
    summary: z.string(),
    seams: z.number().int().describe("Seams read: paragraphs minus one."),
    issues: z.array(
      z.object({
        paragraph_id: z.string().describe("The paragraph before the seam."),
        next_paragraph_id: z.string().describe("The paragraph after it."),
        severity: z.enum(SEVERITIES),
        problem: z.string(),
        suggestion: z.string(),
      }).meta({ id: "ScriptFlowIssue" }),
    ),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Flow example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Coffee beans start green." });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Roasting turns them brown in minutes." });
    return { script_id: script.script_id };
  },
  async check(context, input) {
    await requireParagraphs(context, input.script_id, 2, "Checking the flow");
  },
  async run(context, input) {
    const document = await readForPass(context.db, context.graphql, input.script_id);
    enoughParagraphs(document.paragraphs.length, 2, "Checking the flow");
    const next = new Map(document.paragraphs.slice(0, -1).map((paragraph, index) => [paragraph.paragraph_id, document.paragraphs[index + 1]!.paragraph_id]));
    const schema = z.object({
      score: z.number().int().min(0).max(100),
      summary: z.string().min(1).max(2000),
      issues: z.array(z.object({ paragraph_id: idsOf([...next.keys()]), severity: z.enum(SEVERITIES), problem: z.string().min(1).max(1000), suggestion: z.string().min(1).max(1000) })).max(200),
    });
    const { object, model } = await askModel(context, document, "document", {
      ...passPrompt(
        document,
        "You are a script editor. You read only the seams between paragraphs: whether each paragraph leads into the next for a listener. You judge; you rewrite nothing.",
        "Score the script's flow from 0 (no thread) to 100 (every paragraph leads into the next), sum it up in one or two sentences, and list each seam that breaks: name the paragraph before it by its id, how bad it is (low, medium, high), what breaks and how to bridge it. Follow each paragraph's instruction and the house style in your suggestions.",
      ),
      schema,
      schemaName: "script_flow",
    });
    return {
      object: "script_flow" as const,
      script_id: input.script_id,
      revision: document.revision,
      model,
      request: input.request ?? null,
      score: object.score,
      summary: object.summary,
      seams: next.size,
      issues: object.issues.map((issue) => ({ ...issue, next_paragraph_id: next.get(issue.paragraph_id)! })),
    };
  },
});
