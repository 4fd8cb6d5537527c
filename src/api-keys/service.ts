// Key management (issue: guards): create, change, rotate and revoke keys. A key never grants a
// scope its creator lacks; every change is one transaction; with a test key nothing is kept.
import { z } from "zod";
import { Prisma } from "../generated/prisma/client.js";
import type { GraphQLContext } from "../graphql/context.js";
import { ApiError } from "../errors/api-error.js";
import { inWriteTransaction, type Tx } from "../db/transaction.js";
import { parseOrThrow } from "../validation/issues.js";
import { PRESETS, missingScopes, scopeGrammarError } from "../auth/scopes.js";
import { mintSecret } from "../auth/key-secret.js";
import { createApiKey } from "../auth/key-service.js";
import { loadOwned } from "../resources/service.js";
import { withColumns } from "../resources/selection.js";
import { RATE_WINDOWS } from "../config.js";
import { apiKeys } from "./resource.js";
import ipaddr from "ipaddr.js";

const MAX_GRACE_SECONDS = 7 * 86_400;

const scope = z.string().superRefine((value, context) => {
  const problem = scopeGrammarError(value);
  if (problem) context.addIssue({ code: "custom", message: problem, params: { type: "any.invalid" } });
});
const ipEntry = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((value) => (value.includes("/") ? ipaddr.isValidCIDR(value) : ipaddr.isValid(value)), { message: "an IP address or CIDR range, e.g. 203.0.113.7 or 10.0.0.0/8", params: { type: "string.ip" } });
const originEntry = z.string().trim().regex(/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i, "an origin is scheme://host[:port], optionally https://*.example.com");
const rateLimits = z.strictObject(Object.fromEntries(RATE_WINDOWS.map((window) => [window, z.number().int().positive().max(10_000_000).optional()])));

const settings = {
  name: z.string().trim().max(200).nullable().optional(),
  ip_allowlist: z.array(ipEntry).max(100).optional(),
  origin_allowlist: z.array(originEntry).max(100).optional(),
  expires_at: z.iso.datetime({ offset: true }).transform((value) => new Date(value)).nullable().optional(),
  rate_limits: rateLimits.nullable().optional(),
  quota_limit: z.number().int().positive().nullable().optional(),
  quota_unit: z.enum(["requests", "credits"]).nullable().optional(),
};

const createSchema = z.strictObject({
  ...settings,
  preset: z.enum(Object.keys(PRESETS) as [keyof typeof PRESETS, ...(keyof typeof PRESETS)[]]).optional(),
  scopes: z.array(scope).min(1).max(100).optional(),
  mode: z.enum(["live", "test"]).optional(),
});

const updateSchema = z.strictObject({
  ...settings,
  scopes: z.array(scope).min(1).max(100).optional(),
  paused: z.boolean().optional(),
});

const rotateSchema = z.strictObject({
  grace_period_seconds: z.number().int().min(0).max(MAX_GRACE_SECONDS).optional(),
});

type Row = Record<string, unknown>;
type Query = { select?: Record<string, unknown> };

function assertGrantable(context: GraphQLContext, scopes: readonly string[]): void {
  const beyond = missingScopes(context.auth.scopes, scopes);
  if (beyond.length > 0) {
    throw new ApiError("insufficient_scope", `A key cannot grant scopes its creator lacks: ${beyond.join(", ")}.`, {
      param: "scopes",
      details: { required_scopes: beyond, granted_scopes: [...context.auth.scopes] },
    });
  }
}

/** Changing, rotating or revoking a key is acting as it: only a key covering its scopes may. */
function assertManageable(context: GraphQLContext, key: Row): void {
  const beyond = missingScopes(context.auth.scopes, key.scopes as string[]);
  if (beyond.length > 0) {
    throw new ApiError("insufficient_scope", `This key cannot manage a key with scopes it lacks: ${beyond.join(", ")}.`, {
      param: "key_id",
      details: { required_scopes: beyond, granted_scopes: [...context.auth.scopes] },
    });
  }
}

function assertQuotaPair(input: { quota_limit?: number | null; quota_unit?: string | null }, existing?: { quota_limit: number | null; quota_unit: string | null }): void {
  const limit = input.quota_limit === undefined ? existing?.quota_limit ?? null : input.quota_limit;
  const unit = input.quota_unit === undefined ? existing?.quota_unit ?? null : input.quota_unit;
  if ((limit === null) !== (unit === null)) {
    throw new ApiError("validation_failed", "quota_limit and quota_unit are set together.", {
      param: limit === null ? "quota_limit" : "quota_unit",
      details: { issues: [{ path: limit === null ? "quota_limit" : "quota_unit", message: "quota_limit and quota_unit are set together.", type: "any.required" }] },
    });
  }
}

/** The key as a change needs it, checked to be the caller's workspace's (404 / 403 otherwise). */
function loadKey(tx: Tx, context: GraphQLContext, keyId: string, columns: readonly string[]): Promise<Row> {
  return loadOwned(tx, context, apiKeys, keyId, { select: Object.fromEntries(columns.map((column) => [column, true])) });
}

/**
 * Once a change of a key is committed, every process drops its cached copy (src/auth/key-cache.ts):
 * a revoked or paused key stops working everywhere within a second.
 */
async function afterKeyChange<T>(context: GraphQLContext, keyId: string, change: Promise<T>): Promise<T> {
  const result = await change;
  await context.guards.keyCache.invalidate(keyId);
  return result;
}

export interface NewSecret {
  object: "api_key_secret";
  secret: string;
  key_id: string;
  api_key: Row;
}

export async function createKey(context: GraphQLContext, raw: unknown, query: Query): Promise<NewSecret> {
  const input = parseOrThrow(createSchema, raw);
  if (input.preset && input.scopes) throw new ApiError("invalid_request", "Give either preset or scopes, not both.", { param: "preset" });
  const scopes = input.scopes ?? [...PRESETS[input.preset ?? "read_only"]];
  assertGrantable(context, scopes);
  assertQuotaPair(input);
  const mode = input.mode ?? (context.auth.livemode ? "live" : "test");
  if (mode === "live" && !context.auth.livemode) throw new ApiError("invalid_request", "A test key can only create test keys.", { param: "mode" });
  // Created inside the write's transaction, so a test key's creation is rolled back.
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    const created = await createApiKey(
      tx,
      {
        workspaceId: context.auth.workspaceId,
        mode,
        scopes,
        name: input.name ?? undefined,
        ipAllowlist: input.ip_allowlist,
        originAllowlist: input.origin_allowlist,
        expiresAt: input.expires_at ?? undefined,
        rateLimits: input.rate_limits ?? undefined,
        quota: input.quota_limit && input.quota_unit ? { limit: input.quota_limit, unit: input.quota_unit } : undefined,
        createdByKeyId: context.auth.keyId,
      },
      query,
    );
    return { object: "api_key_secret" as const, secret: created.secret, key_id: created.keyId, api_key: created.apiKey };
  });
}

export async function updateKey(context: GraphQLContext, keyId: string, raw: unknown, query: Query): Promise<Row> {
  return afterKeyChange(context, keyId, inWriteTransaction(context.prisma, context.auth, async (tx) => {
    // The key is looked up before the input is checked: an unknown key is 404 whatever the body.
    const key = await loadKey(tx, context, keyId, ["scopes", "revoked_at", "paused_at", "quota_limit", "quota_unit"]);
    const input = parseOrThrow(updateSchema, raw);
    if (input.scopes) assertGrantable(context, input.scopes);
    assertManageable(context, key);
    if (key.revoked_at) throw new ApiError("invalid_request", "A revoked key cannot change.", { param: "key_id" });
    assertQuotaPair(input, { quota_limit: key.quota_limit as number | null, quota_unit: key.quota_unit as string | null });
    const { paused, rate_limits, ...rest } = input;
    return tx.apiKey.update({
      ...query,
      where: { key_id: keyId },
      data: {
        ...rest,
        ...(rate_limits !== undefined && { rate_limits: rate_limits === null ? Prisma.DbNull : (rate_limits as Prisma.InputJsonValue) }),
        ...(paused !== undefined && { paused_at: paused ? ((key.paused_at as Date | null) ?? new Date()) : null }),
      },
    });
  }));
}

export async function rotateKey(context: GraphQLContext, keyId: string, raw: unknown, query: Query): Promise<NewSecret> {
  return afterKeyChange(context, keyId, inWriteTransaction(context.prisma, context.auth, async (tx) => {
    const key = await loadKey(tx, context, keyId, ["scopes", "revoked_at", "mode", "secret_hash"]);
    const grace = parseOrThrow(rotateSchema, raw ?? {}).grace_period_seconds ?? 0;
    assertManageable(context, key);
    if (key.revoked_at) throw new ApiError("invalid_request", "A revoked key cannot be rotated.", { param: "key_id" });
    const minted = mintSecret(key.mode as "live" | "test");
    const apiKey = await tx.apiKey.update({
      ...query,
      where: { key_id: keyId },
      data: {
        secret_hash: minted.hash,
        key_prefix: minted.prefix,
        key_last4: minted.last4,
        previous_secret_hash: grace > 0 ? (key.secret_hash as string) : null,
        previous_secret_expires_at: grace > 0 ? new Date(Date.now() + grace * 1000) : null,
      },
    });
    return { object: "api_key_secret" as const, secret: minted.secret, key_id: keyId, api_key: apiKey };
  }));
}

export async function revokeKey(context: GraphQLContext, keyId: string, query: Query): Promise<Row> {
  return afterKeyChange(context, keyId, inWriteTransaction(context.prisma, context.auth, async (tx) => {
    // Loaded as the caller asked for it: a key already revoked is answered as it stands.
    const key = await loadOwned(tx, context, apiKeys, keyId, withColumns(query, ["scopes", "revoked_at"]));
    assertManageable(context, key);
    // Revoking twice is harmless: the first revocation time stands.
    if (key.revoked_at) return key;
    // The old secret of a rotation stays known, so it too answers key_revoked, not invalid_credentials.
    return tx.apiKey.update({ ...query, where: { key_id: keyId }, data: { revoked_at: new Date() } });
  }));
}

/** The schemas of key inputs, typed as GraphQL input objects from them (./graphql.ts). */
export const keyInputSchemas = { create: createSchema, update: updateSchema, rotate: rotateSchema } as const;

/**
 * Throws what a key change answers for its input before it writes (an input GraphQL refused is
 * answered with it): for a change of a key, 404 when the key is not the workspace's, then the 422.
 */
export async function checkKeyInput(context: GraphQLContext, which: keyof typeof keyInputSchemas, keyId: unknown, raw: unknown): Promise<void> {
  if (which !== "create") await loadOwned(context.prisma, context, apiKeys, String(keyId), { select: { key_id: true } });
  parseOrThrow(keyInputSchemas[which], raw);
}
