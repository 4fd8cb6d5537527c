// What every writing pass shares (docs/scripts.md, "Writing passes"): the document as read before
// the model call, the brief every prompt carries (tone, audience, language, the style guide's
// `banned` and `preferred` rules, each paragraph's margin note), the text model the pass runs on,
// and the write that refuses with 409 when the document changed while the model was thinking.
// `spoken` rules are not here on purpose: they act only on what the voice is handed.
import type { Tx } from "../../db/transaction.js";
import { ApiError } from "../../errors/api-error.js";
import type { PrismaClient } from "../../generated/prisma/client.js";
import type { GraphQLContext } from "../../graphql/context.js";
import { openForWrite, readScript, type ScriptRow, type ScriptWrite } from "../document.js";
import type { ParagraphRow } from "../paragraphs.js";
import { modelFor } from "../refs.js";
import type { CallProviders } from "../../actions/framework/action.js";
import type { TextProvider } from "../../providers/types.js";
import { workspaceRules, type StyleRuleRow } from "../style-rules.js";

export interface PassDocument {
  script: ScriptRow;
  /** In order. */
  paragraphs: ParagraphRow[];
  /** The workspace's `banned` and `preferred` rules. */
  rules: StyleRuleRow[];
  /** The revision read: the write refuses if the document moved on since. */
  revision: number;
}

/** Reads a script for a pass, outside any transaction (the model call comes next). */
export async function readForPass(db: PrismaClient, context: GraphQLContext, scriptId: string): Promise<PassDocument> {
  const script = await readScript(db, context, scriptId);
  const [paragraphs, rules] = await Promise.all([
    db.scriptParagraph.findMany({ where: { script_id: scriptId }, orderBy: [{ position: "asc" }, { paragraph_id: "asc" }] }),
    workspaceRules(db, script.workspace_id),
  ]);
  return { script, paragraphs, rules: rules.filter((rule) => rule.kind !== "spoken"), revision: script.revision };
}

/**
 * The brief every writing prompt starts with: what the script is, for whom, in which language,
 * and the house style. Lines with nothing to say are left out.
 */
export function passBrief(document: PassDocument, options: { language?: string } = {}): string {
  const { script, rules } = document;
  const lines: string[] = [];
  if (script.title) lines.push(`Script title: ${script.title}`);
  if (script.topic) lines.push(`Topic: ${script.topic}`);
  if (script.format) lines.push(`Format: ${script.format}`);
  if (script.tone) lines.push(`Tone: ${script.tone}`);
  if (script.audience) lines.push(`Audience: ${script.audience}`);
  lines.push(`Language: ${options.language ?? script.language ?? "en"}`);
  const banned = rules.filter((rule) => rule.kind === "banned");
  const preferred = rules.filter((rule) => rule.kind === "preferred");
  if (banned.length || preferred.length) {
    lines.push("House style (always follow):");
    for (const rule of banned) lines.push(`- Never write "${rule.term}"${rule.replacement ? `; write "${rule.replacement}" instead` : ""}.${rule.brief ? ` ${rule.brief}` : ""}`);
    for (const rule of preferred) lines.push(`- Prefer "${rule.replacement ?? rule.term}"${rule.replacement ? ` over "${rule.term}"` : ""}.${rule.brief ? ` ${rule.brief}` : ""}`);
  }
  return lines.join("\n");
}

/**
 * One paragraph as a prompt shows it: its id (so the model can answer per paragraph), its role,
 * its words, and its margin note as an instruction for this pass.
 */
export function paragraphBlock(paragraph: ParagraphRow): string {
  const head = `[${paragraph.paragraph_id}] (${paragraph.role}${paragraph.locked ? ", locked: do not change" : ""})`;
  const note = paragraph.note?.trim() ? `\nInstruction for this paragraph: ${paragraph.note.trim()}` : "";
  return `${head}\n${paragraph.text}${note}`;
}

/** The whole document as a prompt shows it. */
export function documentBlock(paragraphs: readonly ParagraphRow[]): string {
  return paragraphs.length ? paragraphs.map(paragraphBlock).join("\n\n") : "(no paragraphs yet)";
}

/** The text model a pass runs on: the script's own choice for its kind of pass, else the deployment's. */
export function passModel(context: GraphQLContext, script: ScriptRow, pass: "document" | "quick"): string | null {
  return modelFor(script, pass, context.services.providers);
}

/**
 * The text model a pass runs on, ready to call: the script's `model_ref` (whole-document passes)
 * or `quick_model_ref` (per-paragraph edits), else the deployment's default for that kind.
 */
export function passText(providers: CallProviders, context: GraphQLContext, script: ScriptRow, pass: "document" | "quick"): { model: string | null; text: TextProvider } {
  const model = passModel(context, script, pass);
  return { model, text: model ? providers.getModel("text", model) : providers.get("text") };
}

/**
 * Opens the script for the pass's one write, refusing with 409 `conflict` when it changed since
 * it was read (another write moved its revision on during the model call): nothing is applied and
 * the hold is released, so the caller can run the pass again on the document as it now is.
 */
export async function openIfUnchanged(tx: Tx, context: GraphQLContext, document: PassDocument, action: string): Promise<ScriptWrite> {
  const write = await openForWrite(tx, context, document.script.script_id, action);
  if (write.script.revision !== document.revision) {
    throw new ApiError("conflict", "The script changed while the model was working on it; nothing was applied. Run the pass again.", {
      param: "script_id",
      details: { revision_read: document.revision, revision_now: write.script.revision },
    });
  }
  return write;
}
