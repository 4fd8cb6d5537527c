// account.limits (catalog 4.6): the calling key's rate windows and quota with their standing, and
// the request limits every call is held to.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { keyStanding } from "../../guards/guards.js";
import { MAX_BATCH_MEMBERS, MAX_BULK_ITEMS, REQUEST_LIMITS } from "../../contract.js";

const windowStanding = z.object({
  window: z.string().describe("minute, hour, day or credits_day."),
  limit: z.number().int(),
  remaining: z.number().int(),
  reset: z.number().int().describe("Unix seconds at which the window resets."),
  seconds: z.number().int().describe("Length of the window."),
});

export default defineAction({
  name: "account.limits",
  method: "GET",
  scopes: ["usage:read"],
  credits: false,
  weight: 1,
  purpose: "plan limits and current consumption",
  input: z.strictObject({}),
  output: z.object({
    object: z.literal("account_limits"),
    rate_limits: z.array(windowStanding),
    quota: z
      .object({
        limit: z.number().int(),
        unit: z.string().describe("requests or credits."),
        used: z.number().int(),
        remaining: z.number().int(),
        reset: z.number().int().describe("Unix seconds at the start of the next period."),
      })
      .nullable()
      .describe("The key's monthly ceiling, when it has one."),
    page_size: z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int() }),
    request_body_bytes: z.number().int(),
    bulk_items: z.number().int(),
    batch_members: z.number().int(),
  }),
  async run({ graphql }) {
    return {
      object: "account_limits" as const,
      ...(await keyStanding(graphql.guards, graphql.auth)),
      ...REQUEST_LIMITS,
      bulk_items: MAX_BULK_ITEMS,
      batch_members: MAX_BATCH_MEMBERS,
    };
  },
});
