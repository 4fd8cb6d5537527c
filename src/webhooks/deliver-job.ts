// webhooks.deliver: one attempt of one delivery. The job id names the delivery and its attempt,
// so the dispatcher can re-enqueue a due delivery (after a restart, or a Redis flush) without
// sending it twice; the claim in delivery.ts makes a duplicate job a no-op.
import { z } from "zod";
import { defineJob } from "../jobs/job.js";
import { attemptDelivery, claimDelivery, deliverySettings } from "./delivery.js";

export const deliverJob = defineJob({
  name: "webhooks.deliver",
  payload: z.strictObject({ delivery_id: z.string(), request_id: z.string().optional() }),
  attempts: 1,
  // The job id only de-duplicates while an attempt is pending; a finished one frees it for the
  // dispatcher, a resend or a recovery.
  forgetWhenDone: true,
  async handler({ delivery_id }, dependencies) {
    const { prisma, config, outbound, keyring } = dependencies;
    const settings = deliverySettings(config, keyring);
    const claimed = await claimDelivery(prisma, delivery_id, settings);
    if (!claimed) return { skipped: "not due or held elsewhere" };
    const outcome = await attemptDelivery(prisma, outbound, settings, claimed);
    if (outcome.next_attempt_at) {
      await dependencies.enqueue(deliverJob, { delivery_id }, {
        jobId: deliveryJobId(delivery_id, outcome.attempt_number + 1),
        delay: Math.max(0, outcome.next_attempt_at.getTime() - Date.now()),
      });
    }
    return outcome;
  },
});

export function deliveryJobId(deliveryId: string, attemptNumber: number): string {
  return `${deliveryId}-${attemptNumber}`;
}
