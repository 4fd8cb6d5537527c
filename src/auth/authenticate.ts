// Turns a request's credential into an AuthContext, or the exact 401/403 of contract 5.7.
import ipaddr from "ipaddr.js";
import type { ApiKey, PrismaClient } from "../generated/prisma/client.js";
import { ApiError } from "../errors/api-error.js";
import type { AuthContext } from "../context/auth-context.js";
import { claimedMode, hashSecret, isWellFormedKey } from "./key-secret.js";
import type { KeyCache } from "./key-cache.js";

export interface Credentials {
  key?: string;
  /** The Authorization header's scheme when it is not Bearer (`Basic`, `Token`, or a bare key). */
  otherScheme?: string;
  clientIp?: string;
  origin?: string;
  workspaceHeader?: string;
}

/** Reads the key from `Authorization: Bearer` or `X-Api-Key`. */
export function credentialsFrom(headers: Headers, clientIp?: string): Credentials {
  const authorization = headers.get("authorization");
  const bearer = authorization && /^Bearer\s+(.+)$/i.exec(authorization.trim())?.[1];
  const scheme = authorization?.trim() && !/^Bearer(\s|$)/i.test(authorization.trim()) ? authorization.trim().split(/\s+/)[0] : undefined;
  return {
    key: (bearer || headers.get("x-api-key") || undefined)?.trim(),
    ...(scheme && { otherScheme: scheme }),
    clientIp,
    origin: headers.get("origin") ?? undefined,
    workspaceHeader: headers.get("x-workspace-id")?.trim() || undefined,
  };
}

export function livemodeClaimed(credentials: Credentials): boolean {
  return credentials.key ? claimedMode(credentials.key) !== "test" : true;
}

function normaliseIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    return ipaddr.process(ip);
  } catch {
    return undefined;
  }
}

/** An entry is an address or a CIDR range, IPv4 or IPv6. */
function ipAllowed(allowlist: readonly string[], clientIp: string | undefined): boolean {
  if (allowlist.length === 0) return true;
  const address = clientIp ? normaliseIp(clientIp) : undefined;
  if (!address) return false;
  return allowlist.some((raw) => {
    const entry = raw.trim();
    try {
      const [range, bits] = entry.includes("/") ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), undefined];
      // An IPv4-mapped range (::ffff:a.b.c.d/n, n >= 96) is the IPv4 range a.b.c.d/(n - 96); the
      // client address was normalised the same way. A shorter prefix spans beyond the mapped
      // block and stays an IPv6 range.
      const mapped = range.kind() === "ipv6" && (range as ipaddr.IPv6).isIPv4MappedAddress() && (bits === undefined || bits >= 96);
      const normalisedRange = mapped ? (range as ipaddr.IPv6).toIPv4Address() : range;
      if (normalisedRange.kind() !== address.kind()) return false;
      const prefix = (mapped && bits !== undefined ? bits - 96 : bits) ?? (address.kind() === "ipv4" ? 32 : 128);
      return address.match(normalisedRange, prefix);
    } catch {
      return false;
    }
  });
}

/** An entry is an exact origin (`https://app.example.com`) or a subdomain wildcard (`https://*.example.com`). */
function originAllowed(allowlist: readonly string[], origin: string | undefined): boolean {
  // Server-to-server calls carry no Origin; the list restricts browsers only.
  if (allowlist.length === 0 || origin === undefined) return true;
  // Only a bare scheme://host[:port] is an origin; anything else matches no entry.
  let sent: string;
  try {
    sent = new URL(origin).origin.toLowerCase();
  } catch {
    return false;
  }
  if (sent !== origin.toLowerCase()) return false;
  return allowlist.some((entry) => {
    const allowed = entry.trim().toLowerCase().replace(/\/+$/, "");
    if (!allowed.includes("*.")) return allowed === sent;
    const [scheme, host] = allowed.split("://*.");
    return sent.startsWith(`${scheme}://`) && sent.endsWith(`.${host}`);
  });
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** The key a secret names, from the process's cache when it holds it (src/auth/key-cache.ts). */
async function findKey(prisma: PrismaClient, hash: string, now: Date, cache: KeyCache | undefined): Promise<ApiKey | null> {
  const cached = cache?.get(hash, now.getTime());
  if (cached) {
    // A rotation's old secret works only until its grace period ends, cached or not.
    if (!cached.previous) return cached.key;
    if (cached.key.previous_secret_expires_at && cached.key.previous_secret_expires_at > now) return cached.key;
  }
  // After a rotation the previous secret keeps working until its grace period ends.
  const current = await prisma.apiKey.findUnique({ where: { secret_hash: hash } });
  const key = current ?? (await prisma.apiKey.findFirst({ where: { previous_secret_hash: hash, previous_secret_expires_at: { gt: now } } }));
  if (key) cache?.set(hash, key, !current, now.getTime());
  return key;
}

export async function authenticate(prisma: PrismaClient, credentials: Credentials, now = new Date(), cache?: KeyCache): Promise<AuthContext> {
  if (!credentials.key && credentials.otherScheme) {
    // A key pasted without its scheme (`Authorization: sk_live_...`) or under another one is the
    // newcomer's usual slip: say what was wrong with the header, never echo the key.
    const bareKey = isWellFormedKey(credentials.otherScheme) || /^sk_/i.test(credentials.otherScheme);
    throw new ApiError(
      "missing_credentials",
      bareKey
        ? "The Authorization header holds a key without the 'Bearer ' scheme before it."
        : "The Authorization header does not use the Bearer scheme, the only one accepted.",
      { hint: "Send 'Authorization: Bearer sk_live_...' (with the word Bearer and a space before the key), or the key alone in the X-Api-Key header." },
    );
  }
  if (!credentials.key) {
    throw new ApiError("missing_credentials", "No API key was sent.", {
      hint: "Send your key as 'Authorization: Bearer sk_live_...' or in the X-Api-Key header.",
    });
  }
  // Built only when needed: an error captures a stack, which costs on every request otherwise.
  const invalid = () =>
    new ApiError("invalid_credentials", "The API key is not recognised.", {
      hint: "Check that the whole key was copied; keys are shown only once, at creation.",
    });
  if (!isWellFormedKey(credentials.key)) throw invalid();

  const hash = hashSecret(credentials.key);
  const key = await findKey(prisma, hash, now, cache);
  if (!key) throw invalid();
  if (key.revoked_at && key.revoked_at <= now) throw new ApiError("key_revoked", "This API key has been revoked.");
  if (key.expires_at && key.expires_at <= now) throw new ApiError("key_expired", `This API key expired at ${key.expires_at.toISOString()}.`);
  if (key.paused_at) throw new ApiError("key_paused", "This API key is paused.", { hint: "Resume the key to use it again." });
  if (!ipAllowed(key.ip_allowlist, credentials.clientIp)) {
    throw new ApiError("ip_not_allowed", `Requests from ${credentials.clientIp ?? "this address"} are not allowed for this key.`);
  }
  if (!originAllowed(key.origin_allowlist, credentials.origin)) {
    throw new ApiError("origin_not_allowed", `The origin ${credentials.origin} is not allowed for this key.`);
  }
  if (credentials.workspaceHeader && credentials.workspaceHeader !== key.workspace_id) {
    throw new ApiError("workspace_mismatch", "X-Workspace-Id names a workspace this key does not belong to.", {
      param: "X-Workspace-Id",
    });
  }

  if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    // Best effort and off the request path: a failed bookkeeping write must not fail the call.
    void prisma.apiKey.update({ where: { key_id: key.key_id }, data: { last_used_at: now } }).catch(() => undefined);
    // The cached copy records it too, so the write happens once a minute, not on every request.
    key.last_used_at = now;
  }

  return {
    keyId: key.key_id,
    workspaceId: key.workspace_id,
    scopes: key.scopes,
    livemode: key.mode === "live",
    rateLimitOverrides: key.rate_limits ?? undefined,
    quota: key.quota_limit !== null && (key.quota_unit === "requests" || key.quota_unit === "credits") ? { limit: key.quota_limit, unit: key.quota_unit } : undefined,
  };
}
