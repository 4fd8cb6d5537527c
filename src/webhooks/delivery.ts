// One delivery attempt: claim the delivery, send the signed envelope through the URL guard,
// record the attempt, and move the delivery and its endpoint on (success, retry later, give up,
// disable the endpoint after 20 failures in a row). Used by the delivery job and the test route.
import { Prisma, type PrismaClient } from "../generated/prisma/client.js";
import type { Config } from "../config.js";
import { newId } from "../ids.js";
import type { OutboundGuard } from "../outbound/url-guard.js";
import { OutboundFetchError } from "../outbound/url-guard.js";
import { eventEnvelope } from "../outbox/envelope.js";
import { signatureHeader } from "./signature.js";
import { openSigningSecret } from "./secrets.js";
import type { Keyring } from "../config/keyring.js";

/** Contract 3: an endpoint that fails this many times in a row is disabled. */
const MAX_CONSECUTIVE_FAILURES = 20;
/** How much of an answer is kept in the delivery log. */
const EXCERPT_CHARS = 500;
/** Answers are read up to this size, then cut. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface DeliverySettings {
  retrySeconds: readonly number[];
  timeoutMs: number;
  /** Opens the endpoints' signing secrets, sealed at rest (./secrets.ts). */
  keyring: Keyring;
}

/** The one reading of the webhook settings, shared by the API (test sends) and the workers. */
export function deliverySettings(config: Pick<Config, "webhookRetrySeconds" | "webhookTimeoutMs">, keyring: Keyring): DeliverySettings {
  return { retrySeconds: config.webhookRetrySeconds, timeoutMs: config.webhookTimeoutMs, keyring };
}

/**
 * A delivery a worker may take now: waiting and due, or held by a worker whose lease ran out.
 * The dispatcher enqueues these and the claim takes only these, so both must agree.
 */
export const DELIVERY_IS_DUE = Prisma.sql`(
  (status IN ('pending', 'retrying') AND next_attempt_at <= now()) OR (status = 'delivering' AND locked_until < now()))`;

export interface AttemptOutcome {
  delivery_id: string;
  attempt_number: number;
  succeeded: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
  /** When the next attempt is due, if there will be one. */
  next_attempt_at: Date | null;
}

/** Keeps a short, printable start of an answer: no control characters, no endless bodies. */
function sanitiseExcerpt(body: Buffer): string {
  // Every control character (C0, DEL, C1) becomes a space: the excerpt is shown, never interpreted.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  const text = body.toString("utf8").replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/ {2,}/g, " ").trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

/** ±20% jitter keeps retries of many deliveries from arriving together. */
function retryDelayMs(retrySeconds: readonly number[], attemptNumber: number): number | undefined {
  const gap = retrySeconds[attemptNumber - 1];
  if (gap === undefined) return undefined;
  return Math.round(gap * 1000 * (0.8 + 0.4 * Math.random()));
}

/** How long a worker holds a delivery: the attempt's timeout and a margin for recording it. */
function leaseMs(timeoutMs: number): number {
  return timeoutMs + 5_000;
}

interface ClaimedDelivery {
  delivery_id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  attempt_count: number;
}

/**
 * Takes a due delivery for one attempt. Only one worker can hold it: the claim is a single
 * conditional UPDATE, and a holder that died is replaced once its lease (locked_until) runs out.
 */
export async function claimDelivery(prisma: PrismaClient, deliveryId: string, settings: DeliverySettings, force = false): Promise<ClaimedDelivery | undefined> {
  const rows = await prisma.$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries
       SET status = 'delivering', attempt_count = attempt_count + 1,
           locked_until = now() + (${leaseMs(settings.timeoutMs)}::int * interval '1 millisecond'), updated_at = now()
     WHERE delivery_id = ${deliveryId}
       AND (${force}::boolean OR ${DELIVERY_IS_DUE})
     RETURNING delivery_id, workspace_id, endpoint_id, event_id, attempt_count`;
  return rows[0];
}

export async function attemptDelivery(
  prisma: PrismaClient,
  outbound: OutboundGuard,
  settings: DeliverySettings,
  claimed: ClaimedDelivery,
): Promise<AttemptOutcome> {
  const [endpoint, event] = await Promise.all([
    prisma.webhookEndpoint.findUnique({ where: { endpoint_id: claimed.endpoint_id } }),
    prisma.outboxEvent.findUnique({ where: { event_id: claimed.event_id } }),
  ]);
  const attemptNumber = claimed.attempt_count;
  if (!endpoint || !event || (!endpoint.enabled && event.type !== "webhook.test")) {
    await prisma.webhookDelivery.update({
      where: { delivery_id: claimed.delivery_id },
      // Nothing was sent: the claim's count is given back, so attempt_count stays the number of sends.
      data: { status: "failed", locked_until: null, completed_at: new Date(), last_error: "endpoint_disabled", attempt_count: { decrement: 1 } },
    });
    return { delivery_id: claimed.delivery_id, attempt_number: attemptNumber - 1, succeeded: false, status_code: null, duration_ms: 0, error: "endpoint_disabled", response_excerpt: null, next_attempt_at: null };
  }

  const body = JSON.stringify(eventEnvelope(event));
  const timestamp = Math.floor(Date.now() / 1000);
  const secrets = [openSigningSecret(settings.keyring, endpoint.signing_secret)];
  if (endpoint.previous_signing_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > new Date()) {
    secrets.push(openSigningSecret(settings.keyring, endpoint.previous_signing_secret));
  }

  let statusCode: number | null = null;
  let error: string | null = null;
  let excerpt: string | null = null;
  let durationMs = 0;
  try {
    const answer = await outbound.fetch(endpoint.url, {
      method: "POST",
      body,
      timeoutMs: settings.timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
      headers: {
        "content-type": "application/json",
        "user-agent": "Cutroom/1 (+webhooks)",
        "x-service-signature": signatureHeader(secrets, timestamp, body),
        "x-service-delivery": claimed.delivery_id,
        "x-service-event": event.type,
      },
    });
    statusCode = answer.status;
    durationMs = answer.durationMs;
    excerpt = sanitiseExcerpt(answer.body);
  } catch (failure) {
    const known = failure instanceof OutboundFetchError;
    error = known ? failure.reason : "connection_failed";
    durationMs = known ? failure.durationMs : 0;
  }
  const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const delay = succeeded ? undefined : retryDelayMs(settings.retrySeconds, attemptNumber);
  const nextAttemptAt = delay === undefined ? null : new Date(Date.now() + delay);

  await prisma.$transaction(async (tx) => {
    await tx.webhookDeliveryAttempt.create({
      data: {
        attempt_id: newId("webhook_attempt"),
        workspace_id: claimed.workspace_id,
        delivery_id: claimed.delivery_id,
        attempt_number: attemptNumber,
        status_code: statusCode,
        duration_ms: durationMs,
        error,
        response_excerpt: excerpt,
        succeeded,
      },
    });
    await tx.webhookDelivery.update({
      where: { delivery_id: claimed.delivery_id },
      data: {
        status: succeeded ? "succeeded" : nextAttemptAt ? "retrying" : "failed",
        locked_until: null,
        next_attempt_at: nextAttemptAt,
        last_status_code: statusCode,
        last_error: error ?? (succeeded ? null : `http_${statusCode}`),
        completed_at: succeeded || !nextAttemptAt ? new Date() : null,
      },
    });
    // Test sends say how an endpoint answers; they do not count towards disabling it.
    if (event.type === "webhook.test") return;
    if (succeeded) {
      await tx.webhookEndpoint.update({ where: { endpoint_id: endpoint.endpoint_id }, data: { consecutive_failures: 0 } });
    } else {
      const updated = await tx.webhookEndpoint.update({
        where: { endpoint_id: endpoint.endpoint_id },
        data: { consecutive_failures: { increment: 1 } },
        select: { consecutive_failures: true, enabled: true },
      });
      if (updated.enabled && updated.consecutive_failures >= MAX_CONSECUTIVE_FAILURES) {
        await tx.webhookEndpoint.update({ where: { endpoint_id: endpoint.endpoint_id }, data: { enabled: false, disabled_reason: "consecutive_failures" } });
      }
    }
  });

  return { delivery_id: claimed.delivery_id, attempt_number: attemptNumber, succeeded, status_code: statusCode, duration_ms: durationMs, error, response_excerpt: excerpt, next_attempt_at: nextAttemptAt };
}
