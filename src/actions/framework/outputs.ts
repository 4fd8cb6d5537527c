// Output shapes every action shares: the credit report a credit action carries, the quote a test
// key gets from a model call, and the list page of actions that return lists.
import { z } from "zod";

export const creditReport = z
  .object({
    cost: z.number().int().describe("Credits the call costs (with a test key: would have cost)."),
    charged: z.number().int().describe("Credits taken from the balance: the cost, or 0 with a test key or a replayed idempotency_key."),
    balance_after: z.number().int().nullable().describe("The workspace balance after the charge; null when nothing was charged."),
    held: z.boolean().describe("true when the charge is a hold on queued work, settled to what ran when it ends (the rest comes back)."),
  })
  .meta({ id: "CreditReport", description: "What a call spent." });

export type CreditReport = z.output<typeof creditReport>;

export const actionQuote = z
  .object({
    object: z.literal("action_quote"),
    action: z.string().describe("The action quoted."),
    credits: creditReport,
    units: z.number().int().describe("Price units counted for the call (paragraphs, items, seconds, ... or 1)."),
    capabilities: z.array(z.string()).describe("Provider capabilities the call would use (text, image, ...)."),
  })
  .meta({
    id: "ActionQuote",
    description: "A test key's answer to an action that calls a model: validated and priced, nothing held, spent, written or called.",
  });

/** The page of an action that returns a list: cursor-based, plus `page` where the catalog names it. */
export function listOutput(item: z.ZodObject, options: { paged?: boolean } = {}) {
  return z.object({
    object: z.literal("list"),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last."),
    limit: z.number().int(),
    ...(options.paged && { page: z.number().int().nullable().describe("The page number asked for; null when paging by cursor.") }),
  });
}
