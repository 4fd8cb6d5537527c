// Test-only crash points: with CUTROOM_FAULT_POINT=<name>[:<n>] set, the process kills itself
// with SIGKILL — no cleanup, no flush, as a power cut would — when it reaches the named point
// (with :n, only at a request's n-th write transaction). The crash tests
// (test/idempotency-crash.test.ts) use it to prove that a retry after a crash at any point writes
// nothing twice. Unset, every call is a no-op.
export type FaultPoint =
  /** inside a write transaction of an idempotent request, after its work, before COMMIT */
  | "idempotency.before_commit"
  /** after an idempotent request's write transaction committed, before anything else */
  | "idempotency.after_commit"
  /** after an idempotent request's answer was stored, before it is sent */
  | "idempotency.after_response_stored";

let armed: { point: string; step?: number } | undefined;

/** Arms the point named by the configuration (`name` or `name:n`); nothing when unset. */
export function armFaultPoint(spec: string | undefined): void {
  if (!spec) {
    armed = undefined;
    return;
  }
  const [point, step] = spec.split(":");
  const position = step === undefined ? undefined : Number(step);
  if (!point || (position !== undefined && (!Number.isInteger(position) || position < 1))) throw new Error(`Bad fault point '${spec}': expected name or name:n`);
  armed = { point, step: position };
}

/** `step`: the 1-based position of the write transaction that reached the point, if any. */
export function reachFaultPoint(point: FaultPoint, step?: number): void {
  if (armed?.point !== point || (armed.step !== undefined && armed.step !== step)) return;
  process.kill(process.pid, "SIGKILL");
}
