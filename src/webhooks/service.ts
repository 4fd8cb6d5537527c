// Webhook endpoints (contract 4.8): register, change, rotate the secret, delete, send a test,
// resend one delivery, recover failed ones. URLs pass the outbound guard at registration (and
// again at every delivery, inside the connection).
import { z } from "zod";
import type { GraphQLContext } from "../graphql/context.js";
import { ApiError, notFound } from "../errors/api-error.js";
import { inWriteTransaction, type Tx } from "../db/transaction.js";
import { loadOwned } from "../resources/service.js";
import { withColumns } from "../resources/selection.js";
import { parseOrThrow, validationFailed } from "../validation/issues.js";
import { newId } from "../ids.js";
import { EVENT_KINDS, isKnownPattern, patternCovers } from "../outbox/event-catalog.js";
import { UrlBlockedError } from "../outbound/url-guard.js";
import { recordEvent } from "../outbox/record-event.js";
import { newSigningSecret } from "./signature.js";
import { sealSigningSecret } from "./secrets.js";
import { attemptDelivery, claimDelivery, type AttemptOutcome } from "./delivery.js";
import { deliverJob, deliveryJobId } from "./deliver-job.js";
import { webhookEndpoints } from "./resource.js";

const MAX_GRACE_SECONDS = 7 * 86_400;
const DEFAULT_GRACE_SECONDS = 86_400;

/** Every pattern a subscription may name (isKnownPattern's set), for the documented enum. */
const EVENT_PATTERNS = ["*", ...new Set(EVENT_KINDS.map((kind) => `${kind.type.split(".")[0]}.*`)), ...EVENT_KINDS.map((kind) => kind.type)];

const eventPattern = z
  .string()
  .superRefine((value, context) => {
    if (!isKnownPattern(value)) context.addIssue({ code: "custom", message: `'${value}' is not an event name, a family (video.*) or *.`, params: { type: "any.only" } });
  })
  .meta({ description: "An event name, a family (video.*) or *.", enum: EVENT_PATTERNS });

const createSchema = z.strictObject({
  url: z.string().max(2048).describe("Where deliveries are POSTed: an https URL of a public address."),
  events: z.array(eventPattern).min(1).max(100).describe("What the endpoint subscribes to: event names, families such as video.*, or *."),
  description: z.string().max(500).nullable().optional().describe("A note for people."),
  enabled: z.boolean().optional().describe("false pauses deliveries; true resumes them and resets the failure count."),
});
const updateSchema = createSchema.partial().extend({
  /** With `enabled: true`: also deliver what the endpoint missed since then (as `recover` does). */
  since: z.iso.datetime({ offset: true }).transform((value) => new Date(value)).optional().describe("With enabled: true, also deliver what the endpoint missed since then (ISO 8601)."),
});
const rotateSchema = z.strictObject({
  grace_period_seconds: z.number().int().min(0).max(MAX_GRACE_SECONDS).optional().describe(`How long the old secret still signs, in seconds (default ${DEFAULT_GRACE_SECONDS}).`),
});
const recoverSchema = z.strictObject({
  since: z.iso.datetime({ offset: true }).transform((value) => new Date(value)).describe("Deliver what the endpoint subscribes to and did not get since then (ISO 8601)."),
});

type Row = Record<string, unknown>;
type Query = { select?: Record<string, unknown> };

async function checkUrl(context: GraphQLContext, url: string): Promise<void> {
  try {
    await context.services.outbound.assertAllowed(url);
  } catch (error) {
    if (!(error instanceof UrlBlockedError)) throw error;
    throw validationFailed([{ path: "url", message: error.message, type: `url.${error.reason}` }]);
  }
}

/** The endpoint's columns a caller needs, once its workspace is known to own it (404 / 403 otherwise). */
function loadEndpoint(client: Tx | GraphQLContext["prisma"], context: GraphQLContext, endpointId: string, select: Record<string, true> = {}): Promise<Row> {
  return loadOwned(client, context, webhookEndpoints, endpointId, { select: { endpoint_id: true, ...select } });
}

function reload(tx: Tx, endpointId: string, query: Query): Promise<Row> {
  return tx.webhookEndpoint.findUniqueOrThrow({ ...query, where: { endpoint_id: endpointId } });
}

export async function createEndpoint(context: GraphQLContext, raw: unknown, query: Query): Promise<Row> {
  const input = parseOrThrow(createSchema, raw);
  await checkUrl(context, input.url);
  const secret = newSigningSecret();
  const endpointId = newId("webhook_endpoint");
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    await tx.webhookEndpoint.create({
      data: {
        endpoint_id: endpointId,
        workspace_id: context.auth.workspaceId,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        enabled: input.enabled ?? true,
        // Sealed at rest; shown in clear this once.
        signing_secret: sealSigningSecret(context.services.webhookSettings.keyring, secret),
      },
    });
    return { ...(await reload(tx, endpointId, query)), revealed_secret: secret };
  });
}

export async function updateEndpoint(context: GraphQLContext, endpointId: string, raw: unknown, query: Query): Promise<Row> {
  await loadEndpoint(context.prisma, context, endpointId);
  const { since, ...input } = parseOrThrow(updateSchema, raw);
  if (since !== undefined && input.enabled !== true) {
    throw validationFailed([{ path: "since", message: "since goes with enabled: true (it recovers what the endpoint missed while it was off).", type: "any.invalid" }]);
  }
  if (input.url !== undefined) await checkUrl(context, input.url);
  const row = await inWriteTransaction(context.prisma, context.auth, async (tx) => {
    const endpoint = await loadEndpoint(tx, context, endpointId, { enabled: true });
    // Re-enabling starts the failure count over (contract 3).
    const reEnabled = input.enabled === true && !endpoint.enabled;
    await tx.webhookEndpoint.update({
      where: { endpoint_id: endpointId },
      data: { ...input, ...(reEnabled && { consecutive_failures: 0, disabled_reason: null }), ...(input.enabled === false && { disabled_reason: "disabled_by_client" }) },
    });
    return reload(tx, endpointId, query);
  });
  if (since !== undefined && context.auth.livemode) await recoverWindow(context, endpointId, since);
  return row;
}

export async function rotateEndpointSecret(context: GraphQLContext, endpointId: string, raw: unknown, query: Query): Promise<Row> {
  await loadEndpoint(context.prisma, context, endpointId);
  const input = parseOrThrow(rotateSchema, raw ?? {});
  const grace = input.grace_period_seconds ?? DEFAULT_GRACE_SECONDS;
  const secret = newSigningSecret();
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    const endpoint = await loadEndpoint(tx, context, endpointId, { signing_secret: true });
    await tx.webhookEndpoint.update({
      where: { endpoint_id: endpointId },
      data: {
        signing_secret: sealSigningSecret(context.services.webhookSettings.keyring, secret),
        // Moved as stored (sealed); a delivery opens it like the current one.
        previous_signing_secret: grace > 0 ? (endpoint.signing_secret as string) : null,
        previous_secret_expires_at: grace > 0 ? new Date(Date.now() + grace * 1000) : null,
      },
    });
    return { ...(await reload(tx, endpointId, query)), revealed_secret: secret };
  });
}

export async function deleteEndpoint(context: GraphQLContext, endpointId: string) {
  await loadEndpoint(context.prisma, context, endpointId);
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    await loadEndpoint(tx, context, endpointId);
    await tx.webhookEndpoint.delete({ where: { endpoint_id: endpointId } });
    return { object: "webhook_endpoint", endpoint_id: endpointId, deleted: true as const };
  });
}

export interface TestResult extends AttemptOutcome {
  object: "webhook_test";
  endpoint_id: string;
  event_id: string;
}

/**
 * Sends a real signed `webhook.test` now and reports how the endpoint answered: status, timing
 * and at most a short, sanitised excerpt of its answer. The send is logged like any delivery.
 */
export async function testEndpoint(context: GraphQLContext, endpointId: string): Promise<TestResult> {
  await loadEndpoint(context.prisma, context, endpointId);
  if (!context.auth.livemode) {
    throw new ApiError("test_mode_unsupported", "A test send reaches a real endpoint and is logged; use a live key.");
  }
  const deliveryId = newId("webhook_delivery");
  const eventId = await context.prisma.$transaction(async (tx) => {
    const id = await recordEvent(tx, {
      workspaceId: context.auth.workspaceId,
      type: "webhook.test",
      livemode: true,
      data: { object: { object: "webhook_test", endpoint_id: endpointId, message: "A test event sent from the API." } },
      // Sent here and now, to this endpoint only: recorded as dispatched, the dispatcher never takes it.
      dispatchedAt: new Date(),
    });
    await tx.webhookDelivery.create({
      data: { delivery_id: deliveryId, workspace_id: context.auth.workspaceId, endpoint_id: endpointId, event_id: id, event_type: "webhook.test" },
    });
    return id;
  });
  // One attempt only: a test is not retried.
  const settings = { ...context.services.webhookSettings, retrySeconds: [] };
  const claimed = await claimDelivery(context.prisma, deliveryId, settings, true);
  if (!claimed) throw new Error(`test delivery ${deliveryId} could not be claimed`);
  const outcome = await attemptDelivery(context.prisma, context.services.outbound, settings, claimed);
  const excerpt = outcome.response_excerpt === null ? null : outcome.response_excerpt.slice(0, 200);
  return { object: "webhook_test", endpoint_id: endpointId, event_id: eventId, ...outcome, response_excerpt: excerpt };
}

interface Requeueable {
  delivery_id: string;
  attempt_count: number;
}

/** Makes deliveries due now and gives each a job for its next attempt. */
async function requeue(context: GraphQLContext, deliveries: readonly Requeueable[]): Promise<void> {
  if (deliveries.length === 0) return;
  await context.prisma.webhookDelivery.updateMany({
    where: { delivery_id: { in: deliveries.map((delivery) => delivery.delivery_id) } },
    data: { status: "pending", next_attempt_at: new Date(), locked_until: null, completed_at: null },
  });
  for (const delivery of deliveries) {
    // A retry already scheduled for later is replaced by one now.
    await context.services.jobs.replace(deliverJob, { delivery_id: delivery.delivery_id }, deliveryJobId(delivery.delivery_id, delivery.attempt_count + 1));
  }
}

export async function resendDelivery(context: GraphQLContext, endpointId: string, deliveryId: string, query: Query): Promise<Row> {
  await loadEndpoint(context.prisma, context, endpointId);
  const delivery = await context.prisma.webhookDelivery.findUnique({
    ...withColumns(query, ["endpoint_id", "status", "attempt_count"]),
    where: { delivery_id: deliveryId },
  });
  if (!delivery || delivery.endpoint_id !== endpointId) throw notFound("delivery of this endpoint", deliveryId, "delivery_id");
  if (delivery.status === "delivering") throw new ApiError("conflict", "This delivery is being sent right now; try again in a moment.", { param: "delivery_id" });
  // A test key sees the delivery as it is: nothing is sent in test mode.
  if (!context.auth.livemode) return delivery;
  await requeue(context, [delivery]);
  return await context.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { delivery_id: deliveryId } });
}

/** Events that can reach an endpoint by the dispatcher (webhook.test is sent to one endpoint, by hand). */
const UNDELIVERABLE_TYPES = ["webhook.test"];

/**
 * A delivery row, due now, for every event of the window the endpoint subscribes to and has none
 * for (it happened while the endpoint was disabled, or before a pattern was added). The unique
 * (endpoint_id, event_id) makes each event's row once, whoever recovers at the same time. Events
 * not yet fanned out are left to the dispatcher, which gives them their row.
 */
async function backfillMissed(context: GraphQLContext, endpointId: string, since: Date): Promise<Requeueable[]> {
  const endpoint = await context.prisma.webhookEndpoint.findUniqueOrThrow({ where: { endpoint_id: endpointId }, select: { workspace_id: true, events: true } });
  const missed = await context.prisma.$queryRaw<{ event_id: string; type: string }[]>`
    SELECT e.event_id, e.type FROM outbox_events e
     WHERE e.workspace_id = ${endpoint.workspace_id} AND e.created_at >= ${since} AND e.dispatched_at IS NOT NULL
       AND NOT (e.type = ANY(${UNDELIVERABLE_TYPES}))
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = ${endpointId} AND d.event_id = e.event_id)
     ORDER BY e.seq`;
  const subscribed = missed.filter((event) => endpoint.events.some((pattern) => patternCovers(pattern, event.type)));
  if (subscribed.length === 0) return [];
  const rows = subscribed.map((event) => ({ delivery_id: newId("webhook_delivery"), workspace_id: endpoint.workspace_id, endpoint_id: endpointId, event_id: event.event_id, event_type: event.type }));
  await context.prisma.webhookDelivery.createMany({ data: rows, skipDuplicates: true });
  // Only the rows this call made (a concurrent recover may have made some first).
  const made = await context.prisma.webhookDelivery.findMany({ where: { delivery_id: { in: rows.map((row) => row.delivery_id) } }, select: { delivery_id: true, attempt_count: true }, orderBy: { created_at: "asc" } });
  return made;
}

/** Failed deliveries of the window sent again, and missed events given a delivery: each once. */
async function recoverWindow(context: GraphQLContext, endpointId: string, since: Date): Promise<Requeueable[]> {
  const failed = await context.prisma.webhookDelivery.findMany({
    where: { endpoint_id: endpointId, status: "failed", created_at: { gte: since } },
    select: { delivery_id: true, attempt_count: true },
  });
  const missed = await backfillMissed(context, endpointId, since);
  const all = [...failed, ...missed];
  await requeue(context, all);
  return all;
}

export async function recoverDeliveries(context: GraphQLContext, endpointId: string, raw: unknown) {
  await loadEndpoint(context.prisma, context, endpointId);
  const { since } = parseOrThrow(recoverSchema, raw);
  // A test key is told what would be requeued (failed deliveries); nothing is sent or made in test mode.
  const recovered = context.auth.livemode
    ? await recoverWindow(context, endpointId, since)
    : await context.prisma.webhookDelivery.findMany({ where: { endpoint_id: endpointId, status: "failed", created_at: { gte: since } }, select: { delivery_id: true, attempt_count: true } });
  const deliveryIds = recovered.map((delivery) => delivery.delivery_id);
  return { object: "webhook_recovery", endpoint_id: endpointId, since: since.toISOString(), requeued: deliveryIds.length, delivery_ids: deliveryIds };
}

/** The schemas of endpoint inputs, typed as GraphQL input objects from them (./graphql.ts). */
export const endpointInputSchemas = { create: createSchema, update: updateSchema, rotate: rotateSchema, recover: recoverSchema } as const;

/**
 * Throws what an endpoint change answers for its input before it does anything (an input GraphQL
 * refused is answered with it): for an existing endpoint, 404 when it is not the workspace's, then the 422.
 */
export async function checkEndpointInput(context: GraphQLContext, which: keyof typeof endpointInputSchemas, endpointId: unknown, raw: unknown): Promise<void> {
  if (which !== "create") await loadEndpoint(context.prisma, context, String(endpointId));
  parseOrThrow(endpointInputSchemas[which], raw);
}
