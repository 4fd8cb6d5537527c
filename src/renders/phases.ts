// Where a render's time goes: each phase's wall time, logged with "render completed" so a slow
// render (or a missed benchmark goal, bench/showcase.ts) can be explained from the worker's log.

/** Milliseconds per named phase; a phase run twice adds up. */
export class RenderPhases {
  readonly ms: Record<string, number> = {};

  async time<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.ms[name] = Math.round((this.ms[name] ?? 0) + performance.now() - started);
    }
  }
}
