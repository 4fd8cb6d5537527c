// Authenticated keys kept briefly in process memory, so a request does not read api_keys every
// time. The one piece of per-process state in the service (docs/scaling.md): every change of a
// key (revoke, pause, rotate, scopes, limits, allowlists) publishes the key's id on a Redis
// channel once committed, and every process drops its copy on that message. The TTL is a safety
// net for a message lost while a subscriber was disconnected; a reconnect also empties the cache.
import type { Redis } from "ioredis";
import type { ApiKey } from "../generated/prisma/client.js";
import { logger } from "../logger.js";

export const KEY_INVALIDATION_CHANNEL = "cutroom:api-key-changed";
const DEFAULT_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  key: ApiKey;
  /** The key was found by its previous secret (a rotation's grace period). */
  previous: boolean;
  cachedUntil: number;
}

export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private subscriber: Redis | undefined;

  constructor(
    private readonly publisher: Redis | undefined,
    private readonly ttlMs = DEFAULT_TTL_MS,
  ) {}

  /** Listens for changes published by any process (a dedicated connection: subscribing takes it over). */
  async listen(subscriber: Redis): Promise<void> {
    this.subscriber = subscriber;
    subscriber.on("message", (_channel: string, keyId: string) => this.drop(keyId));
    // While disconnected, messages are lost: whatever was cached may be stale.
    subscriber.on("ready", () => this.clear());
    subscriber.on("error", (error) => logger.warn({ err: error }, "key cache subscriber error"));
    if (subscriber.status === "wait") await subscriber.connect();
    await subscriber.subscribe(KEY_INVALIDATION_CHANNEL);
  }

  get(hash: string, now = Date.now()): Entry | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.cachedUntil <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  set(hash: string, key: ApiKey, previous: boolean, now = Date.now()): void {
    // Without a live subscription a change could go unnoticed until the TTL: cache nothing then.
    if (this.subscriber && this.subscriber.status !== "ready") return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { key, previous, cachedUntil: now + this.ttlMs });
  }

  /** Drops this process's copies of a key (every secret it was found by). */
  drop(keyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.key.key_id === keyId) this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Tells every process (this one included) that a key changed; call once the change is committed. */
  async invalidate(keyId: string): Promise<void> {
    this.drop(keyId);
    try {
      await this.publisher?.publish(KEY_INVALIDATION_CHANNEL, keyId);
    } catch (error) {
      // The other processes fall back on the TTL.
      logger.warn({ err: error, key_id: keyId }, "could not publish a key change");
    }
  }

  close(): void {
    this.subscriber?.disconnect();
    this.entries.clear();
  }
}
