// Waiting in tests for what the service does in the background (a worker, the webhook dispatcher,
// a live subscription): the one poll loop every test file uses.

/** A condition's answer: something truthy when it holds (and that is what waitFor answers). */
type Probe<T> = () => Promise<T | undefined | null | false> | T | undefined | null | false;

/**
 * Polls `check` every `intervalMs` until it returns something truthy, and answers that. After
 * `timeoutMs` it fails naming what it waited for: `what` is the text, or a function giving it from
 * the last state the check saw.
 */
export async function waitFor<T>(what: string | (() => string), check: Probe<T>, timeoutMs = 15_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Polls `read` until the status `statusOf` finds in its answer is one of `ends` (a render completed
 * or failed, an operation ended), and answers that; fails naming `what` and the last status seen.
 */
export async function waitForStatus<T>(what: string, read: () => Promise<T>, statusOf: (value: T) => string | undefined, ends: readonly string[], timeoutMs = 15_000, intervalMs = 50): Promise<T> {
  let status: string | undefined;
  return waitFor(
    () => `${what} to end (still ${status ?? "not there"})`,
    async () => {
      const value = await read();
      status = statusOf(value);
      return status !== undefined && ends.includes(status) ? value : undefined;
    },
    timeoutMs,
    intervalMs,
  );
}

/** A pause for time itself to pass (a rate window, a grace period), not for a condition: for that, waitFor. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
