// The one setter behind the actions that set a field of paragraphs named by id (docs/scripts.md,
// "Write calls"): scripts.lock_paragraphs, set_paragraph_role, assign_speaker (several paragraphs)
// and annotate_paragraph, set_paragraph_text, set_paragraph_visual (one). Each opens the script
// for writing (lock, restore point), loads the paragraphs (404 naming the ids that are not in the
// script), writes the field where its value changes with one edit log entry per paragraph (what
// undo_change reverses), and ends the call: the revision moves on only when something changed.
// A direct edit by id reaches a locked paragraph too.
import { z } from "zod";
import type { Prisma } from "../generated/prisma/client.js";
import type { TransactionContext } from "../actions/framework/action.js";
import type { Tx } from "../db/transaction.js";
import { openForWrite } from "./document.js";
import { paragraphsOf, sameJson, type ParagraphRow } from "./paragraphs.js";
import { paragraphShape, presentParagraph } from "./present.js";
import { echoedRequest, paragraphOf } from "./summary.js";

/** What one action sets, and how. */
export interface ParagraphField<Value> {
  /** The edit log entry's kind: `paragraph.role`, `paragraph.text`, … */
  kind: string;
  /** The key the entry's before and after hold the value under. */
  key: string;
  /** The value a paragraph holds now. */
  current(this: void, row: ParagraphRow): Value;
  /** The value the call gives it (from the current one, for fields merged part by part). */
  next(this: void, current: Value): Value;
  /** The columns that hold a value. */
  data(this: void, value: Value): Prisma.ScriptParagraphUncheckedUpdateInput;
}

/** A field, or one found once the script is locked (assign_speaker's speaker). */
type FieldOf<Value> = ParagraphField<Value> | ((tx: Tx) => Promise<ParagraphField<Value>>);

interface Call {
  tx: Tx;
  graphql: TransactionContext["graphql"];
}

async function setField<Value>(call: Call, action: string, scriptId: string, load: (tx: Tx) => Promise<ParagraphRow[]>, field: FieldOf<Value>) {
  const { tx } = call;
  const write = await openForWrite(tx, call.graphql, scriptId, action);
  const spec = typeof field === "function" ? await field(tx) : field;
  const rows = await load(tx);
  const paragraphs = [];
  const changed: { paragraph_id: string; edit_id: string }[] = [];
  for (const row of rows) {
    const before = spec.current(row);
    const after = spec.next(before);
    if (sameJson(before, after)) {
      paragraphs.push(presentParagraph(row));
      continue;
    }
    const updated = await tx.scriptParagraph.update({ where: { paragraph_id: row.paragraph_id }, data: spec.data(after) });
    const editId = await write.edit({ paragraphId: row.paragraph_id, kind: spec.kind, before: { [spec.key]: before }, after: { [spec.key]: after } });
    changed.push({ paragraph_id: row.paragraph_id, edit_id: editId });
    paragraphs.push(presentParagraph(updated));
  }
  const script = changed.length ? await write.done() : await write.unchanged();
  return { paragraphs, changed, revision: script.revision };
}

/** Sets a field of the paragraphs named by `paragraph_ids`; the answer of the call. */
export async function setParagraphsField<Value, Request>(
  call: Call,
  action: string,
  input: { script_id: string; paragraph_ids: readonly string[]; request?: Request },
  field: FieldOf<Value>,
) {
  const done = await setField(call, action, input.script_id, (tx) => paragraphsOf(tx, input.script_id, input.paragraph_ids), field);
  return { object: "script_paragraphs" as const, script_id: input.script_id, ...done, request: input.request ?? null };
}

/** Sets a field of the paragraph named by `paragraph_id`; the answer of the call. */
export async function setParagraphField<Value, Request>(call: Call, action: string, input: { script_id: string; paragraph_id: string; request?: Request }, field: FieldOf<Value>) {
  const done = await setField(call, action, input.script_id, async (tx) => [await paragraphOf(tx, input.script_id, input.paragraph_id)], field);
  return {
    object: "script_paragraph" as const,
    script_id: input.script_id,
    paragraph: done.paragraphs[0]!,
    edit_id: done.changed[0]?.edit_id ?? null,
    revision: done.revision,
    request: input.request ?? null,
  };
}

/** The answer of a call on several paragraphs; `changedWhat` says what changed (`lock`, `role`). */
export function paragraphsAnswer<Extra extends z.ZodRawShape = Record<never, never>>(changedWhat: string, extra?: Extra) {
  return z.object({
    object: z.literal("script_paragraphs"),
    script_id: z.string(),
    ...(extra as Extra),
    paragraphs: z.array(paragraphShape).describe("The paragraphs named, in document order, as they are now."),
    changed: z.array(z.object({ paragraph_id: z.string(), edit_id: z.string() })).describe(`Those whose ${changedWhat} changed.`),
    revision: z.number().int(),
    request: echoedRequest,
  });
}

/** The answer of a call on one paragraph; `editId` describes its edit_id. */
export function paragraphAnswer(editId: string) {
  return z.object({
    object: z.literal("script_paragraph"),
    script_id: z.string(),
    paragraph: paragraphShape,
    edit_id: z.string().nullable().describe(editId),
    revision: z.number().int(),
    request: echoedRequest,
  });
}
