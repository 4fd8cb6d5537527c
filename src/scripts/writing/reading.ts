// What the passes that read share (docs/scripts.md, "Passes that read"): scripts.check_flow,
// analyze, suggest_hooks, suggest_titles and write_variants read the document, ask the text model
// for a judgement and answer it. They change nothing: no commit, so the revision, the paragraphs,
// the edit log and the restore points stay as they were. Every prompt opens with the kernel's
// brief (tone, audience, language, the house style) and shows the margin notes as instructions.
import { z } from "zod";
import type { ModelContext, PricingContext } from "../../actions/framework/action.js";
import { ApiError } from "../../errors/api-error.js";
import { readScript } from "../document.js";
import { echoedRequest } from "../summary.js";
import { documentBlock, passBrief, passModel, type PassDocument } from "./pass.js";

/** Suggestions asked for when the call sends no `count` (hooks, titles). */
export const DEFAULT_SUGGESTIONS = 5;
/** Versions of one paragraph asked for when the call sends no `count`. */
export const DEFAULT_VARIANTS = 3;

/** The fields every reading pass answers besides its own. */
export const readingFields = {
  script_id: z.string(),
  revision: z.number().int().describe("The revision read: the answer is about the document as it was then."),
  model: z.string().describe("The text model that judged (provider/model)."),
  request: echoedRequest,
};

/**
 * 400 before anything is held or quoted when the script has fewer paragraphs than the pass needs
 * (a test key learns it too): nothing to judge is the caller's to fix, not a charge.
 */
export async function requireParagraphs(context: PricingContext, scriptId: string, minimum: number, what: string): Promise<void> {
  const db = context.graphql.prisma;
  await readScript(db, context.graphql, scriptId);
  enoughParagraphs(await db.scriptParagraph.count({ where: { script_id: scriptId } }), minimum, what);
}

/** The same refusal on the document as the pass read it (paragraphs deleted since the check). */
export function enoughParagraphs(paragraphs: number, minimum: number, what: string): void {
  if (paragraphs >= minimum) return;
  throw new ApiError("invalid_request", `${what} needs at least ${minimum} paragraph${minimum === 1 ? "" : "s"}; this script has ${paragraphs}.`, {
    param: "script_id",
    details: { paragraphs, required: minimum },
    hint: "Write the script first (scripts.insert_paragraph, scripts.draft_paragraphs).",
  });
}

export interface PassPrompt {
  system: string;
  prompt: string;
}

/**
 * A pass's prompt: the brief first, then the task, then the document (each paragraph with its id,
 * role and margin note). `focus` replaces the whole document when the pass is about one part.
 */
export function passPrompt(document: PassDocument, system: string, task: string, focus?: string): PassPrompt {
  return {
    system,
    prompt: [passBrief(document), `Task: ${task}`, focus ?? `The script, paragraph by paragraph:\n${documentBlock(document.paragraphs)}`].join("\n\n"),
  };
}

/** Asks the pass's text model for a structured answer; the answer and the model that gave it. */
export async function askModel<Schema extends z.ZodType>(
  context: ModelContext,
  document: PassDocument,
  pass: "document" | "quick",
  request: PassPrompt & { schema: Schema; schemaName: string },
): Promise<{ object: z.output<Schema>; model: string }> {
  const ref = passModel(context.graphql, document.script, pass);
  const text = ref ? context.providers.getModel("text", ref) : context.providers.get("text");
  const answer = await text.generateObject({ system: request.system, prompt: request.prompt, schema: request.schema, schemaName: request.schemaName });
  return { object: answer.object, model: `${answer.meta.provider}/${answer.meta.model}` };
}

/** A zod enum of the ids a model may name; the model cannot answer an id the document lacks. */
export function idsOf(ids: readonly string[]): z.ZodType<string> {
  return ids.length ? z.enum(ids as [string, ...string[]]) : z.never();
}
