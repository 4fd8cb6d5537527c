// npm start: runs the service with embedded defaults (PGlite under ./data unless DATABASE_URL is
// set; Redis from REDIS_URL or a private redis-server) and prints the URL, a working key and an
// admin key that manages keys while the service runs (src/platform/startup-keys.ts).
import { loadConfig } from "./config.js";
import { startService } from "./service.js";
import { mintStartupKeys } from "./platform/startup-keys.js";
import { logger } from "./logger.js";
import { checkMediaTools } from "./media/tool-versions.js";
import { removeServiceAddress, writeServiceAddress } from "./platform/service-address.js";

async function main(): Promise<void> {
  const config = loadConfig();
  const tools = await checkMediaTools();
  const service = await startService(config);
  const prisma = service.database.prisma;
  // Links and the CLIs' hints name the public base URL when one is set, else this listener.
  const address = config.publicBaseUrl ?? service.url;
  await writeServiceAddress(config.dataDir, address).catch((error: unknown) => logger.warn({ err: error }, "service address not written"));

  console.log(`Cutroom is running at ${service.url}`);
  console.log(`  REST      ${service.url}/api/v1`);
  console.log(`  GraphQL   ${service.url}/graphql   (GraphiQL in a browser)`);
  console.log(`  Reference ${service.url}/docs   (no key needed)`);
  console.log(`  Database  ${service.database.kind === "pglite" ? `embedded PGlite in ${config.dataDir}/pglite` : "PostgreSQL (DATABASE_URL)"}`);
  console.log(`  Media     ffmpeg ${tools.ffmpeg}, ffprobe ${tools.ffprobe}`);

  if (config.printStartupKey) {
    const keys = await mintStartupKeys(prisma, config.startingCredits, service.guards.keyCache);
    console.log(`  Workspace ${keys.workspaceId}`);
    console.log(`  Key       ${keys.key}   (full_access; replaced at every start)`);
    console.log(`  Admin key ${keys.adminKey}   (every scope, api_keys included: create more keys with it while this runs; replaced at every start)`);
    console.log(`\nTry: curl -H "Authorization: Bearer ${keys.key}" ${service.url}/api/v1/videos`);
    console.log(
      `More keys: curl -X POST ${service.url}/api/v1/api_keys -H "Authorization: Bearer ${keys.adminKey}" ` +
        `-H "Content-Type: application/json" -d '{"preset": "read_only"}'`,
    );
  }

  const shutdown = async (signal: string) => {
    logger.info({ signal }, "shutting down");
    await service.stop();
    await removeServiceAddress(config.dataDir).catch(() => undefined);
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  logger.error({ err: error }, "failed to start");
  process.exit(1);
});
