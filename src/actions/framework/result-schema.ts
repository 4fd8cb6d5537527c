// The answer of an action, derived from its declared output: credit actions also carry `credits`,
// and a model call answered to a test key is a quote instead.
import { z } from "zod";
import type { LiveAction } from "./action.js";
import { actionQuote, creditReport } from "./outputs.js";

const results = new WeakMap<LiveAction, z.ZodObject>();

/** What a live call answers: the output, plus `credits` on a credit action. */
export function resultSchema(action: LiveAction): z.ZodObject {
  let schema = results.get(action);
  if (!schema) {
    schema = action.credits ? action.output.extend({ credits: creditReport }) : action.output;
    results.set(action, schema);
  }
  return schema;
}

/** Does a test key get a quote instead of the result? (Model calls never run with a test key.) */
export function answersWithQuote(action: LiveAction): boolean {
  return action.mode === "model";
}

/** Every shape the action may answer with. */
export function answerSchema(action: LiveAction): z.ZodType {
  return answersWithQuote(action) ? z.union([resultSchema(action), actionQuote]) : resultSchema(action);
}

/** The `object` values the result may carry (to tell it from a quote). */
export function resultObjects(action: LiveAction): readonly string[] {
  const object = action.output.shape.object as z.ZodType;
  return object instanceof z.ZodLiteral ? ([...object.values] as string[]) : [];
}
