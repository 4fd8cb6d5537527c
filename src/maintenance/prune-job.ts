// Retention: request-log entries older than the configured number of days are deleted, hourly.
import { z } from "zod";
import { defineJob } from "../jobs/job.js";

export const pruneJob = defineJob({
  name: "maintenance.prune",
  payload: z.strictObject({ request_id: z.string().optional() }),
  every: { milliseconds: 3_600_000, payload: {} },
  attempts: 3,
  async handler(_payload, { prisma, config }) {
    const cutoff = new Date(Date.now() - config.requestLogRetentionDays * 86_400_000);
    const { count } = await prisma.requestLog.deleteMany({ where: { created_at: { lt: cutoff } } });
    return { request_logs_deleted: count, cutoff: cutoff.toISOString() };
  },
});
