// Creating keys: the CLI, `npm start` and the api_keys routes all mint keys here.
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import type { RateLimits } from "../config.js";
import type { KeyQuota } from "../context/auth-context.js";
import { newId } from "../ids.js";
import { mintSecret, type KeyMode } from "./key-secret.js";
import { PRESETS, scopeGrammarError, type PresetName } from "./scopes.js";

export interface NewKeyOptions {
  workspaceId: string;
  mode: KeyMode;
  scopes: readonly string[];
  name?: string;
  purpose?: string;
  expiresAt?: Date;
  ipAllowlist?: readonly string[];
  originAllowlist?: readonly string[];
  /** Per-window overrides of the default rate limits. */
  rateLimits?: Partial<RateLimits>;
  quota?: KeyQuota;
  createdByKeyId?: string;
}

export interface CreatedKey {
  keyId: string;
  /** The full key: shown once, never stored. */
  secret: string;
  /** The stored key, as the query selected it. */
  apiKey: Record<string, unknown>;
}

/** What to read back of a created key (a Pothos query, or just its id). */
type KeyQuery = { select?: Record<string, unknown>; include?: Record<string, unknown> };

export function scopesForPreset(preset: PresetName): string[] {
  return [...PRESETS[preset]];
}

export function assertValidScopes(scopes: readonly string[]): void {
  for (const scope of scopes) {
    const problem = scopeGrammarError(scope);
    if (problem) throw new Error(`Invalid scope '${scope}': ${problem}`);
  }
}

/** Creates a key in `client` (a transaction, so the caller can roll it back in test mode). */
export async function createApiKey(client: PrismaClient | Tx, options: NewKeyOptions, query: KeyQuery = { select: { key_id: true } }): Promise<CreatedKey> {
  assertValidScopes(options.scopes);
  const minted = mintSecret(options.mode);
  const keyId = newId("api_key");
  const apiKey = await client.apiKey.create({
    ...query,
    data: {
      key_id: keyId,
      workspace_id: options.workspaceId,
      name: options.name ?? null,
      purpose: options.purpose ?? null,
      mode: options.mode,
      key_prefix: minted.prefix,
      key_last4: minted.last4,
      secret_hash: minted.hash,
      scopes: [...options.scopes],
      ip_allowlist: [...(options.ipAllowlist ?? [])],
      origin_allowlist: [...(options.originAllowlist ?? [])],
      expires_at: options.expiresAt ?? null,
      rate_limits: options.rateLimits,
      quota_limit: options.quota?.limit ?? null,
      quota_unit: options.quota?.unit ?? null,
      created_by_key_id: options.createdByKeyId ?? null,
    },
  });
  return { keyId, secret: minted.secret, apiKey };
}
