// Checks each answer against the action's declared output where configured (tests and
// development: CUTROOM_CHECK_OUTPUTS), so a handler can never drift from its published type.
import type { GraphQLContext } from "../../graphql/context.js";
import { logger } from "../../logger.js";
import type { LiveAction } from "./action.js";
import { answerSchema } from "./result-schema.js";

export function checkedOutput(context: GraphQLContext, action: LiveAction, body: Record<string, unknown>): Record<string, unknown> {
  if (!context.services.checkOutputs) return body;
  const checked = answerSchema(action).safeParse(body);
  if (!checked.success) {
    logger.error({ action: action.name, issues: checked.error.issues }, "action answer does not match its declared output");
    throw new Error(`${action.name} answered outside its declared output: ${checked.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  }
  return body;
}
