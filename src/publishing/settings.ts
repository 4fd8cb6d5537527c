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
  /** How often the sweep publishes overdue posts (CUTROOM_PUBLISH_SWEEP_MS). */
  sweepMs: number;
  /** A post left `publishing` this long by a worker that died is failed, never sent twice. */
  stuckAfterMs: number;
}

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
  return {
    accountsKey: parseAccountsKey(env.CUTROOM_ACCOUNTS_KEY),
    platformUrls,
    sweepMs: positive(env.CUTROOM_PUBLISH_SWEEP_MS, 15_000, "CUTROOM_PUBLISH_SWEEP_MS"),
    stuckAfterMs: positive(env.CUTROOM_PUBLISH_STUCK_AFTER_MS, 15 * 60_000, "CUTROOM_PUBLISH_STUCK_AFTER_MS"),
  };
}
