// renders.sweep, every five minutes: a render whose worker died (crash, deploy, OOM) would stay
// `rendering` for ever, since its job is not retried. A render that has been `rendering` without
// any change for longer than a live worker can stay silent is failed with worker_lost, and
// refunded, like any failed render. A live worker changes the record at least that often: its
// downloads are capped in time, and ffmpeg writes progress and is killed at the render timeout.
// The move is conditional on the record still being stale, so a worker that does finish later
// finds the render no longer `rendering` and discards its output.
// It also queues again every render left `queued` for more than a minute: its job was lost
// (enqueueing failed after the creating transaction committed, or Redis lost it). A render is
// claimed only while queued, so a second job is harmless.
import { z } from "zod";
import { defineJob } from "../jobs/job.js";
import type { Config } from "../config.js";
import { enqueueRender, failRender } from "./render-job.js";
import { RenderFailure } from "./render-failure.js";

/** Longest silence of a live render: the render timeout plus a margin for downloads and storing. */
export function staleAfterMs(config: Pick<Config, "renderTimeoutMs">): number {
  return config.renderTimeoutMs + 15 * 60_000;
}

/** A render queued longer than this without being picked up is queued again. */
const QUEUED_GRACE_MS = 60_000;

export const sweepJob = defineJob({
  name: "renders.sweep",
  payload: z.strictObject({ request_id: z.string().optional() }),
  every: { milliseconds: 60_000, payload: {} },
  attempts: 1,
  async handler(_payload, { prisma, config, enqueue }) {
    const staleBefore = new Date(Date.now() - staleAfterMs(config));
    const stale = await prisma.render.findMany({
      where: { render_status: "rendering", render_updated_at: { lt: staleBefore } },
      select: { render_id: true },
      take: 100,
    });
    const failure = new RenderFailure("worker_lost", "The worker rendering this video stopped before it finished.");
    let failed = 0;
    for (const { render_id } of stale) if (await failRender(prisma, render_id, failure, staleBefore)) failed++;
    const orphans = await prisma.render.findMany({
      where: { render_status: "queued", render_creation_date: { lt: new Date(Date.now() - QUEUED_GRACE_MS) } },
      select: { render_id: true },
      take: 100,
    });
    for (const { render_id } of orphans) await enqueueRender(enqueue, render_id);
    return { failed, requeued: orphans.length };
  },
});
