// Redis for the service: REDIS_URL when given; otherwise a private redis-server started from
// PATH on a free loopback port (development convenience), or a clear message saying what to
// install.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { Redis } from "ioredis";

export interface RedisHandle {
  url: string;
  /** Stops the private server, if this process started one. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitForPing(url: string, child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on("error", () => undefined); // connection refused while the server boots
    try {
      await client.connect();
      if ((await client.ping()) === "PONG") return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      client.disconnect();
    }
  }
  throw new Error("redis-server did not answer in time");
}

export const REDIS_INSTALL_HINT =
  "Cutroom needs Redis. Set REDIS_URL (e.g. redis://127.0.0.1:6379), or install redis-server so it is on PATH " +
  "(Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) and Cutroom will start a private one.";

export async function startPrivateRedis(dataDir: string): Promise<RedisHandle> {
  const port = await freePort();
  const dir = path.join(dataDir, "redis");
  await mkdir(dir, { recursive: true });
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {
    stdio: "ignore",
  });
  const spawned = await new Promise<boolean>((resolve) => {
    child.once("spawn", () => resolve(true));
    child.once("error", () => resolve(false));
  });
  if (!spawned) throw new Error(REDIS_INSTALL_HINT);
  const url = `redis://127.0.0.1:${port}`;
  await waitForPing(url, child);
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    },
  };
}

export async function resolveRedis(options: { redisUrl?: string; dataDir: string }): Promise<RedisHandle> {
  if (options.redisUrl) return { url: options.redisUrl, stop: async () => undefined };
  return startPrivateRedis(options.dataDir);
}
