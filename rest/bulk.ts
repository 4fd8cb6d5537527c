// POST /api/v1/{resource}/bulk (contract 4.4): up to 100 creates, updates and deletes in one
// call. Not a transaction: each item runs on its own through the resource's real route (same
// resolver, validation, scope check and events) and reports its own outcome.
import { ApiError } from "../src/errors/api-error.js";
import type { AuthContext } from "../src/context/auth-context.js";
import { missingScopes } from "../src/auth/scopes.js";
import { insufficientScope } from "../src/auth/scope-refusal.js";
import type { ResourceDefinition } from "../src/registry/resource.js";
import { parseOrThrow } from "../src/validation/issues.js";
import { z } from "zod";

import { MAX_BULK_ITEMS } from "../src/contract.js";

const bulkBody = z.strictObject({
  create: z.array(z.unknown()).optional(),
  update: z.array(z.strictObject({ id: z.string().min(1), data: z.record(z.string(), z.unknown()) })).optional(),
  delete: z.array(z.string().min(1)).optional(),
});

export interface BulkItemResult {
  index: number;
  operation: "create" | "update" | "delete";
  status: number;
  id: string | null;
  error: Record<string, unknown> | null;
}

/** Runs one item through the resource's route; answers like the route would. */
export type RouteRunner = (method: "POST" | "PATCH" | "DELETE", path: string, body?: unknown) => Promise<Response>;

export async function runBulk(
  resource: ResourceDefinition,
  auth: AuthContext,
  rawBody: unknown,
  chargeItems: (items: number) => Promise<void>,
  run: RouteRunner,
) {
  const required = [`${resource.scopeGroup}:write`, `${resource.scopeGroup}:delete`];
  if (missingScopes(auth.scopes, required).length > 0) {
    throw insufficientScope(auth.scopes, required, `A bulk call on ${resource.name} needs ${required.join(" and ")}.`);
  }
  const body = parseOrThrow(bulkBody, rawBody ?? {});
  const total = (body.create?.length ?? 0) + (body.update?.length ?? 0) + (body.delete?.length ?? 0);
  if (total > MAX_BULK_ITEMS) {
    throw new ApiError("payload_too_large", `A bulk call takes at most ${MAX_BULK_ITEMS} items; this one has ${total}.`, {
      details: { max_items: MAX_BULK_ITEMS, items: total },
    });
  }
  if (total === 0) {
    throw new ApiError("invalid_request", "Give at least one item in create, update or delete.");
  }
  await chargeItems(total);

  const items: { operation: BulkItemResult["operation"]; method: "POST" | "PATCH" | "DELETE"; path: string; body?: unknown; id?: string }[] = [
    ...(body.create ?? []).map((record) => ({ operation: "create" as const, method: "POST" as const, path: `/${resource.name}`, body: record })),
    ...(body.update ?? []).map((item) => ({ operation: "update" as const, method: "PATCH" as const, path: `/${resource.name}/${encodeURIComponent(item.id)}`, body: item.data, id: item.id })),
    ...(body.delete ?? []).map((id) => ({ operation: "delete" as const, method: "DELETE" as const, path: `/${resource.name}/${encodeURIComponent(id)}`, id })),
  ];

  const results: BulkItemResult[] = [];
  for (const [index, item] of items.entries()) {
    const response = await run(item.method, item.path, item.body);
    const payload = (await response.json()) as Record<string, unknown>;
    const failed = response.status >= 400;
    results.push({
      index,
      operation: item.operation,
      status: response.status,
      // A record answered by Sofa names itself by its id field, a string.
      id: failed ? (item.id ?? null) : ((payload[resource.idField] as string | undefined) ?? item.id ?? ""),
      error: failed ? (payload.error as Record<string, unknown>) : null,
    });
  }
  const failures = results.filter((result) => result.error).length;
  return {
    status: failures === 0 ? 200 : 207,
    body: { object: "bulk_result", data: results, succeeded: results.length - failures, failed: failures },
  };
}
