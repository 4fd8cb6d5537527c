// Creating keys: the CLI, `npm start` and (later) the api_keys routes all mint keys here.
import type { PrismaClient } from "../generated/prisma/client.js";
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
  createdByKeyId?: string;
}

export interface CreatedKey {
  keyId: string;
  /** The full key: shown once, never stored. */
  secret: string;
}

export function scopesForPreset(preset: PresetName): string[] {
  return [...PRESETS[preset]];
}

export function assertValidScopes(scopes: readonly string[]): void {
  for (const scope of scopes) {
    const problem = scopeGrammarError(scope);
    if (problem) throw new Error(`Invalid scope '${scope}': ${problem}`);
  }
}

export async function createApiKey(prisma: PrismaClient, options: NewKeyOptions): Promise<CreatedKey> {
  assertValidScopes(options.scopes);
  const minted = mintSecret(options.mode);
  const keyId = newId("api_key");
  await prisma.apiKey.create({
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
      created_by_key_id: options.createdByKeyId ?? null,
    },
  });
  return { keyId, secret: minted.secret };
}
