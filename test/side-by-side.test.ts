// eachSideBySide (src/side-by-side.ts): a failure begins no new item and is thrown only once the
// items already begun have finished, so a caller's cleanup never races an item still storing.
import { describe, expect, it } from "vitest";
import { eachSideBySide } from "../src/side-by-side.js";

describe("eachSideBySide", () => {
  it("runs at most `limit` items at once, every item once", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachSideBySide([1, 2, 3, 4, 5], 2, async (item) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      done.push(item);
      running--;
    });
    expect(most).toBe(2);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("after a failure, waits for the item still running, begins no other, and throws the first failure", async () => {
    const events: string[] = [];
    let releaseSlow: () => void = () => undefined;
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    const run = eachSideBySide(["slow", "fails", "never"], 2, async (item) => {
      events.push(`begin ${item}`);
      if (item === "fails") throw new Error("boom");
      if (item === "slow") await slowGate;
      events.push(`end ${item}`);
    });
    let settled = false;
    void run.catch(() => undefined).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The failure happened, but the slow item is still running: the call has not settled.
    expect(settled).toBe(false);
    releaseSlow();
    await expect(run).rejects.toThrow("boom");
    expect(events).toEqual(["begin slow", "begin fails", "end slow"]);
  });
});
