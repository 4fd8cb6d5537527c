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

/** A pause for time itself to pass (a rate window, a grace period), not for a condition: for that, waitFor. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
