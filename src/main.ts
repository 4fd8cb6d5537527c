// npm start: runs the service with embedded defaults (PGlite under ./data unless DATABASE_URL is
// set; Redis from REDIS_URL or a private redis-server) and prints the URL and a working key.
import { loadConfig } from "./config.js";
import { startService } from "./service.js";
import { defaultWorkspace } from "./workspaces/workspace-service.js";
import { createApiKey, scopesForPreset } from "./auth/key-service.js";
import { logger } from "./logger.js";

const STARTUP_KEY_PURPOSE = "startup";

async function main(): Promise<void> {
  const config = loadConfig();
  const service = await startService(config);
  const prisma = service.database.prisma;

  console.log(`Cutroom is running at ${service.url}`);
  console.log(`  REST     ${service.url}/api/v1   (OpenAPI: ${service.url}/api/v1/openapi.json)`);
  console.log(`  GraphQL  ${service.url}/graphql`);
  console.log(`  Database ${service.database.kind === "pglite" ? `embedded PGlite in ${config.dataDir}/pglite` : "PostgreSQL (DATABASE_URL)"}`);

  if (config.printStartupKey) {
    // One live startup key at a time: each start revokes the previous one and mints a new one.
    const workspaceId = await defaultWorkspace(prisma, config.startingCredits);
    await prisma.apiKey.updateMany({ where: { workspace_id: workspaceId, purpose: STARTUP_KEY_PURPOSE, revoked_at: null }, data: { revoked_at: new Date() } });
    const key = await createApiKey(prisma, {
      workspaceId,
      mode: "live",
      scopes: scopesForPreset("full_access"),
      name: "Printed by npm start",
      purpose: STARTUP_KEY_PURPOSE,
    });
    console.log(`  Workspace ${workspaceId}`);
    console.log(`  Key      ${key.secret}   (full_access; replaced at every start)`);
    console.log(`\nTry: curl -H "Authorization: Bearer ${key.secret}" ${service.url}/api/v1/videos`);
  }

  const shutdown = async (signal: string) => {
    logger.info({ signal }, "shutting down");
    await service.stop();
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
