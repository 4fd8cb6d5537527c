// Publishing's settings (docs/publishing.md): the key that encrypts connected accounts'
// credentials at rest, where each platform's API lives, and how often the sweep looks for posts.
export interface PublishingSettings {
  /**
   * 32-byte AES-256-GCM key (CUTROOM_ACCOUNTS_KEY, base64 or hex) sealing social accounts'
   * credentials. Absent: accounts cannot be connected and posts cannot go out.
   */
  accountsKey?: Buffer;
  /** Base URL of each platform's API (CUTROOM_<PLATFORM>_API_URL), e.g. a stand-in in tests. */
  platformUrls: Record<string, string>;
  /**
   * The OAuth app each platform's refresh tokens were issued to (CUTROOM_<PLATFORM>_CLIENT_ID and
   * _CLIENT_SECRET), and where its token endpoint lives (CUTROOM_<PLATFORM>_TOKEN_URL). A platform
   * without a client cannot refresh: its accounts post until their access token expires.
   */
  oauth?: Record<string, OAuthClient>;
  /** How often the sweep publishes overdue posts (CUTROOM_PUBLISH_SWEEP_MS). */
  sweepMs: number;
  /** A post left `publishing` this long by a worker that died is failed, never sent twice. */
  stuckAfterMs: number;
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
}

/** Each platform's documented OAuth token endpoint. */
export const DEFAULT_TOKEN_URLS: Readonly<Record<string, string>> = {
  youtube: "https://oauth2.googleapis.com/token",
  tiktok: "https://open.tiktokapis.com/v2/oauth/token/",
};

export const DEFAULT_PLATFORM_URLS: Readonly<Record<string, string>> = {
  youtube: "https://www.googleapis.com",
  tiktok: "https://open.tiktokapis.com",
};

/** Reads a 32-byte key written as base64 (44 characters) or hex (64 characters). */
export function parseAccountsKey(value: string | undefined): Buffer | undefined {
  if (!value) return undefined;
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32) throw new Error("CUTROOM_ACCOUNTS_KEY must be 32 bytes, written as base64 or hex (openssl rand -base64 32)");
  return key;
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new Error(`${name} must be a positive integer`);
  return number;
}

export function publishingSettings(env: NodeJS.ProcessEnv): PublishingSettings {
  const platformUrls = Object.fromEntries(
    Object.entries(DEFAULT_PLATFORM_URLS).map(([platform, url]) => [platform, (env[`CUTROOM_${platform.toUpperCase()}_API_URL`] || url).replace(/\/+$/, "")]),
  );
  const oauth: Record<string, OAuthClient> = {};
  for (const [platform, tokenUrl] of Object.entries(DEFAULT_TOKEN_URLS)) {
    const prefix = `CUTROOM_${platform.toUpperCase()}`;
    const clientId = env[`${prefix}_CLIENT_ID`];
    const clientSecret = env[`${prefix}_CLIENT_SECRET`];
    if (!clientId && !clientSecret) continue;
    if (!clientId || !clientSecret) throw new Error(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET go together`);
    oauth[platform] = { clientId, clientSecret, tokenUrl: env[`${prefix}_TOKEN_URL`] || tokenUrl };
  }
  return {
    accountsKey: parseAccountsKey(env.CUTROOM_ACCOUNTS_KEY),
    platformUrls,
    oauth,
    sweepMs: positive(env.CUTROOM_PUBLISH_SWEEP_MS, 15_000, "CUTROOM_PUBLISH_SWEEP_MS"),
    stuckAfterMs: positive(env.CUTROOM_PUBLISH_STUCK_AFTER_MS, 15 * 60_000, "CUTROOM_PUBLISH_STUCK_AFTER_MS"),
  };
}
