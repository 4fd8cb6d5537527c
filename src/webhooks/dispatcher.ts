// The dispatcher turns committed outbox events into deliveries, one per subscribed endpoint, and
// makes sure every due delivery has a job. The outbox and the deliveries table are the truth:
// if the process or Redis restarts between commit and delivery, the next pass rebuilds the jobs.
// It also publishes each event once to live subscribers (GraphQL `events` subscription).
import type { PrismaClient } from "../generated/prisma/client.js";
import { newId } from "../ids.js";
import { logger } from "../logger.js";
import { patternCovers } from "../outbox/event-catalog.js";
import type { JobDefinition } from "../jobs/job.js";
import { deliverJob, deliveryJobId } from "./deliver-job.js";
import { DELIVERY_IS_DUE } from "./delivery.js";
import { eventEnvelope, type EventRow } from "../outbox/envelope.js";

const FAN_OUT_BATCH = 200;
const DUE_BATCH = 500;

export interface DispatcherDependencies {
  prisma: PrismaClient;
  intervalMs: number;
  enqueue(job: JobDefinition, payload: Record<string, unknown>, options?: { jobId?: string; delay?: number }): Promise<unknown>;
  /** Live subscribers; called after the fan-out committed. */
  publish?(workspaceId: string, envelope: ReturnType<typeof eventEnvelope>): void;
}

interface PendingEvent extends EventRow {
  workspace_id: string;
}

export class Dispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly dependencies: DispatcherDependencies) {}

  start(): void {
    const loop = async () => {
      if (this.stopped) return;
      this.running = this.tick().catch((error) => logger.warn({ err: error }, "dispatcher pass failed"));
      await this.running;
      // loop cannot reject: a failed pass is caught and logged above.
      if (!this.stopped) this.timer = setTimeout(() => void loop(), this.dependencies.intervalMs);
    };
    void loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: fan new events out, then make sure every due delivery has a job. */
  async tick(): Promise<void> {
    while ((await this.fanOut()) === FAN_OUT_BATCH);
    await this.enqueueDue();
  }

  private async fanOut(): Promise<number> {
    const { prisma } = this.dependencies;
    const dispatched = await prisma.$transaction(async (tx) => {
      // SKIP LOCKED lets several dispatchers share the outbox without taking an event twice.
      const events = await tx.$queryRaw<PendingEvent[]>`
        SELECT event_id, workspace_id, type, livemode, data, created_at FROM outbox_events
         WHERE dispatched_at IS NULL ORDER BY seq LIMIT ${FAN_OUT_BATCH} FOR UPDATE SKIP LOCKED`;
      if (events.length === 0) return [];
      const workspaceIds = [...new Set(events.map((event) => event.workspace_id))];
      const endpoints = await tx.webhookEndpoint.findMany({
        where: { workspace_id: { in: workspaceIds }, enabled: true },
        select: { endpoint_id: true, workspace_id: true, events: true },
      });
      const deliveries = events.flatMap((event) =>
        endpoints
          .filter((endpoint) => endpoint.workspace_id === event.workspace_id && endpoint.events.some((pattern) => patternCovers(pattern, event.type)))
          .map((endpoint) => ({
            delivery_id: newId("webhook_delivery"),
            workspace_id: event.workspace_id,
            endpoint_id: endpoint.endpoint_id,
            event_id: event.event_id,
            event_type: event.type,
          })),
      );
      if (deliveries.length > 0) await tx.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });
      await tx.outboxEvent.updateMany({ where: { event_id: { in: events.map((event) => event.event_id) } }, data: { dispatched_at: new Date() } });
      return events;
    });
    // webhook.test never gets here: it is recorded already dispatched (src/webhooks/service.ts).
    for (const event of dispatched) this.dependencies.publish?.(event.workspace_id, eventEnvelope(event));
    return dispatched.length;
  }

  private async enqueueDue(): Promise<void> {
    const due = await this.dependencies.prisma.$queryRaw<{ delivery_id: string; attempt_count: number }[]>`
      SELECT delivery_id, attempt_count FROM webhook_deliveries
       WHERE ${DELIVERY_IS_DUE}
       ORDER BY next_attempt_at LIMIT ${DUE_BATCH}`;
    for (const delivery of due) {
      await this.dependencies.enqueue(deliverJob, { delivery_id: delivery.delivery_id }, { jobId: deliveryJobId(delivery.delivery_id, delivery.attempt_count + 1) });
    }
  }
}
