// Key management (issue: guards): create, change, rotate and revoke keys. A key never grants a
// scope its creator lacks; every change is one transaction; with a test key nothing is kept.
import { z } from "zod";
import { Prisma } from "../generated/prisma/client.js";
import type { GraphQLContext } from "../graphql/context.js";
import { ApiError, notFound } from "../errors/api-error.js";
import { inWriteTransaction, type Tx } from "../db/transaction.js";
import { parseOrThrow } from "../validation/issues.js";
import { PRESETS, hasScope, scopeGrammarError } from "../auth/scopes.js";
import { mintSecret } from "../auth/key-secret.js";
import { newId } from "../ids.js";
import { RATE_WINDOWS } from "../config.js";
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

function assertGrantable(context: GraphQLContext, scopes: readonly string[]): void {
  const beyond = scopes.filter((requested) => !hasScope(context.auth.scopes, requested));
  if (beyond.length > 0) {
    throw new ApiError("insufficient_scope", `A key cannot grant scopes its creator lacks: ${beyond.join(", ")}.`, {
      param: "scopes",
      details: { required_scopes: beyond, granted_scopes: [...context.auth.scopes] },
    });
  }
}

/** Changing, rotating or revoking a key is acting as it: only a key covering its scopes may. */
function assertManageable(context: GraphQLContext, key: Row): void {
  const beyond = (key.scopes as string[]).filter((scope) => !hasScope(context.auth.scopes, scope));
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

type Query = { select?: Record<string, unknown> };

/** Reads the key as the caller asked for it, inside the write's transaction (so test mode sees it too). */
function reload(tx: Tx, keyId: string, query: Query): Promise<Row> {
  return tx.apiKey.findUniqueOrThrow({ ...query, where: { key_id: keyId } }) as Promise<Row>;
}

async function loadKey(client: Tx | GraphQLContext["prisma"], context: GraphQLContext, keyId: string, select?: Record<string, boolean>) {
  const key = await client.apiKey.findUnique({ where: { key_id: keyId }, ...(select ? { select: { ...select, workspace_id: true } } : {}) });
  if (!key) throw notFound("api key", keyId, "key_id");
  if (key.workspace_id !== context.auth.workspaceId) throw new ApiError("workspace_mismatch", `The api key '${keyId}' belongs to another workspace.`, { param: "key_id" });
  return key as Row & { workspace_id: string };
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
  const minted = mintSecret(mode);
  const keyId = newId("api_key");
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    await tx.apiKey.create({
      data: {
        key_id: keyId,
        workspace_id: context.auth.workspaceId,
        name: input.name ?? null,
        mode,
        key_prefix: minted.prefix,
        key_last4: minted.last4,
        secret_hash: minted.hash,
        scopes,
        ip_allowlist: input.ip_allowlist ?? [],
        origin_allowlist: input.origin_allowlist ?? [],
        expires_at: input.expires_at ?? null,
        rate_limits: (input.rate_limits ?? undefined) as Prisma.InputJsonValue | undefined,
        quota_limit: input.quota_limit ?? null,
        quota_unit: input.quota_unit ?? null,
        created_by_key_id: context.auth.keyId,
      },
    });
    return { object: "api_key_secret" as const, secret: minted.secret, key_id: keyId, api_key: await reload(tx, keyId, query) };
  });
}

export async function updateKey(context: GraphQLContext, keyId: string, raw: unknown, query: Query): Promise<Row> {
  await loadKey(context.prisma, context, keyId, { key_id: true });
  const input = parseOrThrow(updateSchema, raw);
  if (input.scopes) assertGrantable(context, input.scopes);
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    const key = await loadKey(tx, context, keyId);
    assertManageable(context, key);
    if (key.revoked_at) throw new ApiError("invalid_request", "A revoked key cannot change.", { param: "key_id" });
    assertQuotaPair(input, { quota_limit: key.quota_limit as number | null, quota_unit: key.quota_unit as string | null });
    const { paused, rate_limits, ...rest } = input;
    await tx.apiKey.update({
      where: { key_id: keyId },
      data: {
        ...rest,
        ...(rate_limits !== undefined && { rate_limits: rate_limits === null ? Prisma.DbNull : (rate_limits as Prisma.InputJsonValue) }),
        ...(paused !== undefined && { paused_at: paused ? ((key.paused_at as Date | null) ?? new Date()) : null }),
      },
    });
    return reload(tx, keyId, query);
  });
}

export async function rotateKey(context: GraphQLContext, keyId: string, raw: unknown, query: Query): Promise<NewSecret> {
  await loadKey(context.prisma, context, keyId, { key_id: true });
  const input = parseOrThrow(rotateSchema, raw ?? {});
  const grace = input.grace_period_seconds ?? 0;
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    const key = await loadKey(tx, context, keyId);
    assertManageable(context, key);
    if (key.revoked_at) throw new ApiError("invalid_request", "A revoked key cannot be rotated.", { param: "key_id" });
    const minted = mintSecret(key.mode as "live" | "test");
    await tx.apiKey.update({
      where: { key_id: keyId },
      data: {
        secret_hash: minted.hash,
        key_prefix: minted.prefix,
        key_last4: minted.last4,
        previous_secret_hash: grace > 0 ? (key.secret_hash as string) : null,
        previous_secret_expires_at: grace > 0 ? new Date(Date.now() + grace * 1000) : null,
      },
    });
    return { object: "api_key_secret" as const, secret: minted.secret, key_id: keyId, api_key: await reload(tx, keyId, query) };
  });
}

export async function revokeKey(context: GraphQLContext, keyId: string, query: Query): Promise<Row> {
  await loadKey(context.prisma, context, keyId, { key_id: true });
  return inWriteTransaction(context.prisma, context.auth, async (tx) => {
    const key = await loadKey(tx, context, keyId);
    assertManageable(context, key);
    // Revoking twice is harmless: the first revocation time stands.
    if (!key.revoked_at) {
      // The old secret of a rotation stays known, so it too answers key_revoked, not invalid_credentials.
      await tx.apiKey.update({ where: { key_id: keyId }, data: { revoked_at: new Date() } });
    }
    return reload(tx, keyId, query);
  });
}
