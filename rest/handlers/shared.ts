// What every /api/v1 route module shares: the operation runner it is handed, the route name in
// the request log, record bodies, and the envelope of an operation's answer.
import { ApiError } from "../../src/errors/api-error.js";
import { validationFailed } from "../../src/validation/issues.js";
import type { GraphQLContext } from "../../src/graphql/context.js";
import { currentRequestContext } from "../../src/context/request-context.js";
import { printWithEnvelope } from "../../src/web/responses.js";
import { Response } from "../../src/response.js";
import { readJsonBody } from "../body.js";
import { API_BASE_PATH, type OperationAnswer, type OperationTarget } from "../sofa.js";
import type { RecordSelection } from "../selection.js";

/** Runs one matched operation; failures come back as the error envelope with their status. */
export type CallOperation = (
  context: GraphQLContext,
  target: OperationTarget,
  url: URL,
  selection: RecordSelection | undefined,
  body?: Record<string, unknown>,
  wholeResult?: boolean,
) => Promise<OperationAnswer>;

/** Names the route in the request log (`/api/v1/videos/{video_id}`). */
export function logRoute(pattern: string): void {
  const context = currentRequestContext();
  if (context) context.route = `${API_BASE_PATH}${pattern}`;
}

/** A record body: an empty body is an empty object; anything but an object is a 422. */
export async function readRecordBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readJsonBody(request);
  if (body === undefined) return {};
  if (!isRecordBody(body)) throw notAnObject();
  return body;
}

export function isRecordBody(body: unknown): body is Record<string, unknown> {
  return body !== null && typeof body === "object" && !Array.isArray(body);
}

export function notAnObject(): ApiError {
  return validationFailed([{ path: "", message: "The body must be a JSON object.", type: "object.base" }]);
}

/** The operation's value with the envelope's members, printed once. */
export function envelope(answer: OperationAnswer, headOnly: boolean): Response {
  if (!answer.ok) return answer.response;
  const body = printWithEnvelope(answer.data);
  const headers = { "content-type": "application/json; charset=utf-8" };
  return new Response(headOnly ? null : body, { status: answer.status, headers });
}
