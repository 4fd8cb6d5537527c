// Who is calling: set on the request context once the key has been checked (src/auth/), read by
// every layer above.

/** A key's monthly ceiling, in requests or in credits (enforced by src/guards/quota.ts). */
export interface KeyQuota {
  limit: number;
  unit: "requests" | "credits";
}

/** Who is calling, once the key has been checked. */
export interface AuthContext {
  keyId: string;
  workspaceId: string;
  scopes: readonly string[];
  /** false for sk_test_ keys: the request runs fully but writes nothing. */
  livemode: boolean;
  /** Per-key rate window overrides, as stored (merged with the defaults by the guards). */
  rateLimitOverrides?: unknown;
  /** Monthly ceiling, when the key has one. */
  quota?: KeyQuota;
}
