// Request-log entries are buffered and written in batches off the request path, so recording
// costs a request nothing but an array push. A crash loses at most the last flush interval.
import type { PrismaClient } from "../generated/prisma/client.js";
import { logger } from "../logger.js";

export interface RequestLogEntry {
  logged_request_id: string;
  workspace_id: string | null;
  key_id: string | null;
  method: string;
  route: string;
  path: string;
  status: number;
  duration_ms: number;
  error_code: string | null;
  ip: string | null;
  user_agent: string | null;
  idempotent_replay: boolean;
  request_livemode: boolean;
  created_at: Date;
}

/**
 * One statement for any batch size: the columns travel as arrays and `unnest` zips them into rows.
 * Prisma compiles a `createMany` plan per call (its plan cache skips createMany), and for a batch
 * of 200 entries that compilation cost more CPU than the requests it logged (docs/benchmarks.md).
 */
const INSERT_BATCH = `INSERT INTO request_logs
  (request_id, workspace_id, key_id, method, route, path, status, duration_ms, error_code, ip, user_agent, idempotent_replay, livemode, created_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::float8[], $9::text[],
                       $10::text[], $11::text[], $12::boolean[], $13::boolean[], $14::timestamptz[])
  ON CONFLICT (request_id) DO NOTHING`;

const FLUSH_INTERVAL_MS = 250;
const FLUSH_SIZE = 200;
const MAX_BUFFERED = 10_000;

export class RequestLogWriter {
  private buffer: RequestLogEntry[] = [];
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly prisma: PrismaClient) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  record(entry: RequestLogEntry): void {
    // Under an outage of the database the oldest entries give way, not the process's memory.
    if (this.buffer.length >= MAX_BUFFERED) this.buffer.shift();
    this.buffer.push(entry);
    if (this.buffer.length >= FLUSH_SIZE) void this.flush();
  }

  /** Writes what is buffered; resolves when it is in the database. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    const column = <K extends keyof RequestLogEntry>(key: K) => batch.map((entry) => entry[key]);
    this.flushing = this.prisma
      .$executeRawUnsafe(
        INSERT_BATCH,
        column("logged_request_id"),
        column("workspace_id"),
        column("key_id"),
        column("method"),
        column("route"),
        column("path"),
        column("status"),
        column("duration_ms"),
        column("error_code"),
        column("ip"),
        column("user_agent"),
        column("idempotent_replay"),
        column("request_livemode"),
        batch.map((entry) => entry.created_at.toISOString()),
      )
      .then(() => undefined)
      .catch((error) => {
        logger.warn({ err: error, entries: batch.length }, "could not write request log entries");
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
