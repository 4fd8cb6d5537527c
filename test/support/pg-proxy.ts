// A loopback TCP proxy between the service and PostgreSQL, which a test cuts at a chosen point of
// one write: before it (when the statement it names passes), or once its COMMIT reached the
// server, either losing the server's answer or passing it and then making the database
// unreachable until restore(). The service runs on it unchanged: nothing of our database code is
// replaced, the connections really drop.
import net from "node:net";
import { afterAll, beforeAll } from "vitest";
import type { Config } from "../../src/config.js";

export type CutPoint = "before_commit" | "commit_answer_lost" | "after_commit";

export interface PgProxy {
  /**
   * Arms one cut: the first connection that sends a statement matching `statement` is cut at
   * `at`. Resolves once it has been cut.
   */
  cut(this: void, options: { statement: RegExp; at: CutPoint }): Promise<void>;
  /** Accepts connections again after an `after_commit` cut. */
  restore(this: void): void;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** The connection that sent the armed statement. */
  marked: boolean;
  commitSent: boolean;
  /** The last bytes seen each way, so a pattern split across two chunks is still found. */
  clientTail: string;
  serverTail: string;
}

/** ReadyForQuery, idle: what ends the server's answer to a COMMIT. */
const READY_IDLE = "Z\u0000\u0000\u0000\u0005I";

/**
 * Starts a proxy before the service starts and points `overrides.databaseUrl` at it (call it after
 * isolatedEnvironment and before useService, so the hooks run in that order).
 */
export function usePgProxy(overrides: Partial<Config>): PgProxy {
  const pairs = new Set<Pair>();
  let armed: { statement: RegExp; at: CutPoint; done: () => void } | undefined;
  let blocked = false;
  let server: net.Server | undefined;

  const drop = (pair: Pair) => {
    pair.client.destroy();
    pair.upstream.destroy();
    pairs.delete(pair);
  };
  const fire = () => {
    const done = armed?.done;
    armed = undefined;
    done?.();
  };

  beforeAll(async () => {
    const target = new URL(overrides.databaseUrl!);
    server = net.createServer((client) => {
      if (blocked) {
        client.destroy();
        return;
      }
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      const pair: Pair = { client, upstream, marked: false, commitSent: false, clientTail: "", serverTail: "" };
      pairs.add(pair);
      client.on("data", (chunk: Buffer) => {
        const text = pair.clientTail + chunk.toString("latin1");
        pair.clientTail = text.slice(-256);
        if (armed && !pair.marked && armed.statement.test(text)) {
          pair.marked = true;
          if (armed.at === "before_commit") {
            drop(pair);
            fire();
            return;
          }
        } else if (armed && pair.marked && !pair.commitSent && text.includes("COMMIT")) {
          pair.commitSent = true;
          pair.serverTail = "";
        }
        upstream.write(chunk);
      });
      upstream.on("data", (chunk: Buffer) => {
        if (!armed || !pair.commitSent) {
          client.write(chunk);
          return;
        }
        if (armed.at === "commit_answer_lost") {
          drop(pair);
          fire();
          return;
        }
        // after_commit: the answer goes through whole, then the database is out of reach.
        client.write(chunk);
        pair.serverTail = (pair.serverTail + chunk.toString("latin1")).slice(-256);
        if (!pair.serverTail.includes(READY_IDLE)) return;
        blocked = true;
        for (const each of pairs) {
          each.upstream.destroy();
          each.client.end();
          pairs.delete(each);
        }
        fire();
      });
      const close = () => drop(pair);
      client.on("error", close).on("close", close);
      upstream.on("error", close).on("close", close);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const proxied = new URL(target);
    proxied.hostname = "127.0.0.1";
    proxied.port = String((server.address() as net.AddressInfo).port);
    overrides.databaseUrl = proxied.toString();
  });

  afterAll(async () => {
    for (const pair of pairs) drop(pair);
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  return {
    cut: ({ statement, at }) => new Promise<void>((resolve) => (armed = { statement, at, done: resolve })),
    restore: () => {
      blocked = false;
    },
  };
}
