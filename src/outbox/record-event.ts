// Events are rows written in the same transaction as the change that caused them; delivery
// (webhooks, live subscriptions) reads them from the outbox after commit, so a rolled-back change
// never announces itself and a committed one is never lost.
import type { Prisma } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import { newId } from "../ids.js";
import { currentRequestContext } from "../context/request-context.js";

export interface NewEvent {
  workspaceId: string;
  type: string;
  livemode: boolean;
  data: Record<string, unknown>;
  /** Set for an event its writer delivers itself (webhook.test), so the dispatcher never takes it. */
  dispatchedAt?: Date;
}

export async function recordEvent(tx: Tx, event: NewEvent): Promise<string> {
  const eventId = newId("event");
  await tx.outboxEvent.create({
    data: {
      event_id: eventId,
      workspace_id: event.workspaceId,
      type: event.type,
      livemode: event.livemode,
      data: event.data as Prisma.InputJsonValue,
      request_id: currentRequestContext()?.requestId ?? null,
      dispatched_at: event.dispatchedAt ?? null,
    },
  });
  return eventId;
}
