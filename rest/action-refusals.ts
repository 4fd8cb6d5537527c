// action.failed of an /api/v1/actions/* call answered with an error before it reached its action:
// a wrong verb (405), a body that is not JSON (400 invalid_json), a spent rate window (429), a
// reused Idempotency-Key (409), an action the catalog lacks (404). Contract 6 counts every action
// call that returned an error; the runner records the ones that reached the action itself.
import type { PrismaClient } from "../src/generated/prisma/client.js";
import type { RequestContext } from "../src/context/request-context.js";
import { recordRefusedCall, type RefusalSummary } from "../src/actions/framework/runner.js";
import type { Response } from "../src/response.js";
import { API_BASE_PATH } from "./sofa.js";

const ACTION_PATH = new RegExp(`^${API_BASE_PATH.replace(/\//g, "\\/")}/actions/([^/]+)/*$`);
/** An unknown name is kept as sent, within reason. */
const MAX_NAME = 200;

/**
 * The write recording a refused action call, or undefined when there is none to record: not an
 * action path, no verified key, the action ran (and recorded its own outcome), or a replayed answer.
 */
export function recordRefusedActionCall(prisma: PrismaClient, context: RequestContext, path: string, response: Response): Promise<void> | undefined {
  const name = ACTION_PATH.exec(path)?.[1];
  if (!name || response.status < 400 || response.status === 499 || !context.auth || context.actionReached || context.idempotentReplay) return undefined;
  const auth = context.auth;
  return (async () => {
    const body = (await response.clone().json().catch(() => undefined)) as { error?: Partial<RefusalSummary> } | undefined;
    const error = body?.error;
    const summary: RefusalSummary = {
      code: error?.code ?? "internal_error",
      type: error?.type ?? "api_error",
      status: error?.status ?? response.status,
      message: error?.message ?? "",
    };
    let action = name;
    try {
      action = decodeURIComponent(name);
    } catch {
      // kept as sent
    }
    await recordRefusedCall({ prisma, auth, requestId: context.requestId }, action.slice(0, MAX_NAME), summary);
  })();
}
