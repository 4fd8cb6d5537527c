// Account (catalog 4.6).
import { z } from "zod";
import { defineFamily, limit, page } from "./define.js";

export const ACCOUNT_ACTIONS = defineFamily("account", [
  {
    name: "account.credits",
    method: "GET",
    scopes: ["usage:read"],
    credits: false,
    input: z.strictObject({}),
    weight: 1,
    purpose: "current credit balance",
  },
  {
    name: "account.limits",
    method: "GET",
    scopes: ["usage:read"],
    credits: false,
    input: z.strictObject({}),
    weight: 1,
    purpose: "plan limits and current consumption",
  },
  {
    name: "account.credit_history",
    method: "GET",
    scopes: ["usage:read"],
    credits: false,
    input: z.strictObject({
      page: page().optional(),
      limit: limit().optional(),
    }),
    weight: 1,
    purpose: "credit movements, newest first",
  },
]);
