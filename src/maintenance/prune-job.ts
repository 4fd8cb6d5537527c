// Retention, hourly: request-log entries older than the configured days; webhook deliveries (and
// their attempts) older than 7 days; delivered events older than 30 days; idempotency records
// (and their steps) past the 24-hour window; stored binary answers; the files of deleted takes
// and clips (src/scripts/file-orphans.ts).
import { z } from "zod";
import { defineJob } from "../jobs/job.js";
import { IDEMPOTENCY_WINDOW_MS } from "../guards/idempotency.js";
import { ANSWERS_FOLDER } from "../actions/framework/binary.js";
import { fileServiceFor } from "../storage/from-config.js";
import { deleteOrphanedFiles } from "../scripts/index.js";

/** Contract 8: delivery log retention. */
const DELIVERY_RETENTION_MS = 7 * 86_400_000;
/** Days of stored binary answers looked back at: their links last an hour; a day's folder goes after two. */
const ANSWER_DAYS_SWEPT = 30;
/** Events stay readable (GET /events) this long after they were delivered. */
const EVENT_RETENTION_MS = 30 * 86_400_000;

export const pruneJob = defineJob({
  name: "maintenance.prune",
  payload: z.strictObject({ request_id: z.string().optional() }),
  every: { milliseconds: 3_600_000, payload: {} },
  attempts: 3,
  async handler(_payload, { prisma, config }) {
    const cutoff = new Date(Date.now() - config.requestLogRetentionDays * 86_400_000);
    const { count } = await prisma.requestLog.deleteMany({ where: { created_at: { lt: cutoff } } });
    const deliveries = await prisma.webhookDelivery.deleteMany({ where: { created_at: { lt: new Date(Date.now() - DELIVERY_RETENTION_MS) } } });
    const events = await prisma.outboxEvent.deleteMany({ where: { dispatched_at: { not: null }, created_at: { lt: new Date(Date.now() - EVENT_RETENTION_MS) } } });
    const idempotency = await prisma.idempotencyRecord.deleteMany({ where: { created_at: { lt: new Date(Date.now() - IDEMPOTENCY_WINDOW_MS) } } });
    // Binary answers (files whose links have long expired), one folder per UTC day.
    const { storage } = await fileServiceFor(prisma, config);
    for (let daysAgo = 2; daysAgo <= ANSWER_DAYS_SWEPT; daysAgo++) {
      await storage.deletePrefix(`${ANSWERS_FOLDER}/${new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)}`);
    }
    const filesDeleted = await deleteOrphanedFiles(prisma, storage);
    return {
      request_logs_deleted: count,
      deliveries_deleted: deliveries.count,
      events_deleted: events.count,
      idempotency_records_deleted: idempotency.count,
      orphaned_files_deleted: filesDeleted,
      cutoff: cutoff.toISOString(),
    };
  },
});
