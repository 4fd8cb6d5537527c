// npm run worker: runs the job workers (no HTTP), for production deployments where the API and
// the workers scale apart. npm start runs them in-process unless CUTROOM_WORKERS=off.
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/database.js";
import { migrate } from "./db/migrate.js";
import { resolveRedis } from "./redis/redis-server.js";
import { JobQueues } from "./jobs/queues.js";
import { startWorkers } from "./platform/workers.js";
import { JOBS } from "./platform/jobs.js";
import { logger } from "./logger.js";
import { OutboundGuard } from "./outbound/url-guard.js";
import { createLiveEvents } from "./outbox/live.js";
import { createProviders } from "./providers/registry.js";
import { QuotaService } from "./guards/quota.js";
import { Redis } from "ioredis";
import path from "node:path";
import { checkMediaTools } from "./media/tool-versions.js";
import { loadKeyring } from "./config/keyring.js";
import { sealStoredSigningSecrets } from "./webhooks/secrets.js";

const config = loadConfig();
if (!config.redisUrl || !config.databaseUrl) {
  // The embedded database and a private Redis belong to the npm start process, which runs the
  // workers itself; a separate worker shares a real PostgreSQL and Redis with the API.
  console.error("npm run worker needs DATABASE_URL and REDIS_URL, shared with the API processes. (npm start runs the workers in-process.)");
  process.exit(2);
}
const tools = await checkMediaTools().catch((error: Error) => {
  console.error(error.message);
  process.exit(2);
});
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 4 });
await migrate(database.sql);
// The API's keyring (the same variable, or the key file of a shared data directory).
const keyring = await loadKeyring({ configured: config.serverKeys, dataDir: config.dataDir });
await sealStoredSigningSecrets(database.prisma, keyring);
const redis = await resolveRedis(config);
const queues = new JobQueues(redis.url);
const live = createLiveEvents(redis.url);
const outbound = new OutboundGuard({ allow: config.outboundAllow });
const providers = createProviders(config.providers, { outbound, workDir: path.join(config.dataDir, "providers") });
// Quotas are counted on the same Redis counters the API processes use.
const redisClient = new Redis(redis.url);
const workers = await startWorkers(queues, { prisma: database.prisma, config, outbound, providers, quotas: new QuotaService(database.prisma), keyring }, live.publish);
console.log(`Cutroom worker running: ${JOBS.map((job) => job.name).join(", ")} (ffmpeg ${tools.ffmpeg}, ffprobe ${tools.ffprobe})`);

const shutdown = async (signal: string) => {
  logger.info({ signal }, "worker shutting down");
  await workers.close();
  await queues.close();
  live.close();
  redisClient.disconnect();
  await database.close();
  process.exit(0);
};
process.once("SIGINT", () => void shutdown("SIGINT"));
process.once("SIGTERM", () => void shutdown("SIGTERM"));
