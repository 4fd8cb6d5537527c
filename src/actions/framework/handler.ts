// An action's behaviour, beside its catalog entry (src/actions/catalog). An action is live — routed
// and in the schema — once a handler is registered for it; declared actions without one answer
// 404 "not available" and are counted by a test.
import type { Tx } from "../../db/transaction.js";
import type { GraphQLContext } from "../../graphql/context.js";

interface ActionRunContext {
  /**
   * The action's transaction: its records, its credit spend and its events commit together.
   * Every query of the handler goes through it — on embedded PGlite (one connection) a query
   * beside an open transaction would wait for it for ever.
   */
  tx: Tx;
  graphql: GraphQLContext;
  /** false for sk_test_ keys: the transaction is rolled back and nothing after commit runs. */
  livemode: boolean;
  /** Work to do once the transaction committed (enqueue a job, ...); skipped in test mode. */
  afterCommit(work: () => Promise<unknown>): void;
  /** Credits this call costs (0 for free actions). */
  cost: number;
  /** Names the record the credits pay for (the ledger row's reference_id). */
  reference(id: string): void;
}

interface ActionHandler<Input = Record<string, unknown>> {
  /**
   * Price units the records decide, for prices without a unit field (paragraphs to voice,
   * seconds of clip). Read before anything is written.
   */
  units?(context: Omit<ActionRunContext, "tx" | "afterCommit" | "cost" | "reference">, input: Input): Promise<number>;
  /** Does the work and returns the answer's body (an object with its own `object`). */
  run(context: ActionRunContext, input: Input): Promise<Record<string, unknown>>;
}

const handlers = new Map<string, ActionHandler<never>>();

export function defineActionHandler<Input = Record<string, unknown>>(name: string, handler: ActionHandler<Input>): void {
  if (handlers.has(name)) throw new Error(`Action ${name} has two handlers`);
  handlers.set(name, handler as ActionHandler<never>);
}

export function actionHandler(name: string): ActionHandler<Record<string, unknown>> | undefined {
  return handlers.get(name) as ActionHandler<Record<string, unknown>> | undefined;
}

export function liveActionNames(): string[] {
  return [...handlers.keys()];
}
