// Starts the whole service (database, migrations, Redis, HTTP) and stops it again. `npm start`
// and the tests both go through here, so tests exercise the real wiring.
import { createServer, type Server } from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import type { Config } from "./config.js";
import { openDatabase, type Database } from "./db/database.js";
import { migrate } from "./db/migrate.js";
import { resolveRedis, type RedisHandle } from "./redis/redis-server.js";
import { createApp } from "./http/app.js";
import { loadKeyring, type Keyring } from "./config/keyring.js";
import { answerClientError, answerConnect } from "./http/client-errors.js";
import { armFaultPoint } from "./testing/fault-points.js";
import { logger } from "./logger.js";
import { createGuards, type Guards } from "./guards/guards.js";
import { seedStaticLibrary } from "./assets/static-library.js";
import { JobQueues, type RunningWorkers } from "./jobs/queues.js";
import { startWorkers } from "./platform/workers.js";
import { getSchema } from "./platform/schema.js";
import { OutboundGuard } from "./outbound/url-guard.js";
import { createLiveEvents, type LiveEvents } from "./outbox/live.js";
import { createFileService, serviceBaseUrl } from "./storage/from-config.js";
import { deliverySettings } from "./webhooks/delivery.js";
import { sealStoredSigningSecrets } from "./webhooks/secrets.js";
import { createProviders } from "./providers/registry.js";

export interface RunningService {
  url: string;
  database: Database;
  redis: Redis;
  guards: Guards;
  jobs: JobQueues;
  outbound: OutboundGuard;
  live: LiveEvents;
  /** The server key (src/config/keyring.ts). */
  keyring: Keyring;
  stop(): Promise<void>;
}

export async function startService(config: Config): Promise<RunningService> {
  armFaultPoint(config.faultPoint);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, countQueries: config.countQueries });
  let redisHandle: RedisHandle | undefined;
  let redis: Redis | undefined;
  let server: Server | undefined;
  try {
    const applied = await migrate(database.sql);
    if (applied.length > 0) logger.info({ applied }, "migrations applied");

    redisHandle = await resolveRedis(config);
    redis = new Redis(redisHandle.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true, enableAutoPipelining: true });
    redis.on("error", (error) => logger.warn({ err: error }, "redis connection error"));
    await redis.connect();
    const redisClient = redis;

    // The server key, held outside the database (docs/security.md, "The server key").
    const keyring = await loadKeyring({ configured: config.serverKeys, dataDir: config.dataDir });
    await sealStoredSigningSecrets(database.prisma, keyring);
    const guards = createGuards(redisClient, database.prisma, config, keyring);
    // Its own connection: a subscribed connection serves nothing else.
    await guards.keyCache.listen(redisClient.duplicate());
    const jobs = new JobQueues(redisHandle.url);
    const outbound = new OutboundGuard({ allow: config.outboundAllow });
    const providers = createProviders(config.providers, { outbound, workDir: path.join(config.dataDir, "providers") });
    const live = createLiveEvents(redisHandle.url);
    const files = await createFileService(database.prisma, config);
    // Known once the server listens (the port it got, when asked for 0).
    let listenerBaseUrl = "";
    const app = createApp({
      listenerBaseUrl: () => listenerBaseUrl,
      schema: getSchema(),
      prisma: database.prisma,
      config,
      guards,
      services: { outbound, jobs, live, files, webhookSettings: deliverySettings(config, keyring), providers, checkOutputs: config.checkActionOutputs },
      health: { sql: database.sql, checks: { redis: () => redisClient.ping() } },
    });
    // Timeouts and the connection limit are set on purpose (docs/security.md), not left to Node's
    // defaults; timeouts are checked every second, so they bite close to their value.
    server = createServer(
      {
        headersTimeout: config.http.headersTimeoutMs,
        requestTimeout: config.http.requestTimeoutMs,
        connectionsCheckingInterval: 1_000,
      },
      // The adapter's Node listener: it answers its own failures, so it never rejects.
      app.requestListener,
    );
    server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
    server.maxConnections = config.http.maxConnections;
    server.on("clientError", answerClientError(config.publicBaseUrl));
    server.on("connect", answerConnect(config.publicBaseUrl));
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(config.port, config.host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    listenerBaseUrl = serviceBaseUrl({ host: config.host, port: address.port });
    const runningServer = server;
    // Workers sign links (render outputs) for this listener (the port it got, when asked for 0)
    // unless a public base URL is set.
    const workerConfig = { ...config, port: address.port };
    // The platform's static library and backgrounds shelf, made once (src/assets/static-library.ts).
    // A shelf that cannot be made (no ffmpeg) leaves the library empty; the API still starts.
    await seedStaticLibrary(database.prisma, files, config.publicBaseUrl ?? serviceBaseUrl({ host: config.host, port: address.port })).catch((error: unknown) => logger.error({ err: error }, "static library not seeded"));
    const workers: RunningWorkers | undefined = config.runWorkers
      ? await startWorkers(jobs, { prisma: database.prisma, config: workerConfig, outbound, providers, quotas: guards.quotas, keyring }, live.publish)
      : undefined;
    return {
      // The listener itself, whatever public base URL links carry.
      url: serviceBaseUrl({ host: config.host, port: address.port }),
      database,
      redis: redisClient,
      guards,
      jobs,
      outbound,
      live,
      keyring,
      async stop() {
        runningServer.closeAllConnections();
        await new Promise<void>((resolve) => runningServer.close(() => resolve()));
        await guards.requestLog.close();
        guards.keyCache.close();
        await workers?.close();
        await jobs.close();
        live.close();
        redisClient.disconnect();
        await redisHandle?.stop();
        await database.close();
      },
    };
  } catch (error) {
    server?.close();
    redis?.disconnect();
    await redisHandle?.stop();
    await database.close();
    throw error;
  }
}
