// npm run key -- create [--preset NAME | --scopes a,b] [--test] [--workspace ID|new] [--name TEXT]
// Prints only the new key on stdout (so `KEY=$(npm run -s key -- create)` works); everything
// else goes to stderr. It opens the database itself, so it runs while the service is stopped (or
// beside it on a shared DATABASE_URL); while `npm start` holds the embedded database, it says how
// to make the key through the running service with the admin key instead.
import { parseArgs } from "node:util";
import { loadConfig } from "../config.js";
import { DataDirInUseError, openDatabase, type Database } from "../db/database.js";
import { serviceBaseUrl } from "../storage/from-config.js";
import { migrate } from "../db/migrate.js";
import { createApiKey, scopesForPreset, assertValidScopes } from "../auth/key-service.js";
import { isPresetName, PRESETS } from "../auth/scopes.js";
import { createWorkspace, defaultWorkspace } from "../workspaces/workspace-service.js";
import { runMain } from "./run-main.js";
import { readServiceAddress } from "../platform/service-address.js";

const USAGE = `usage: npm run key -- create [--preset ${Object.keys(PRESETS).join("|")} | --scopes a,b] [--test] [--workspace ID|new] [--name TEXT]`;

/** How to make the same key through the running service, with the admin key npm start printed. */
function whileRunning(baseUrl: string, scopes: string[], values: { preset?: string; scopes?: string; test?: boolean; name?: string }): string {
  const body = JSON.stringify({
    ...(values.scopes ? { scopes } : { preset: values.preset ?? "full_access" }),
    ...(values.test && { mode: "test" }),
    ...(values.name && { name: values.name }),
  });
  return (
    "While it runs, create keys through it with the admin key it printed (\"Admin key\"):\n" +
    `  curl -s -X POST ${baseUrl}/api/v1/api_keys -H "Authorization: Bearer $ADMIN_KEY" -H "Content-Type: application/json" -d '${body}'\n` +
    "The answer's `secret` is the new key (docs/guide/keys-and-scopes.md)."
  );
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      preset: { type: "string" },
      scopes: { type: "string" },
      test: { type: "boolean", default: false },
      workspace: { type: "string" },
      name: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help || positionals[0] !== "create") {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.preset && values.scopes) {
    console.error("Give either --preset or --scopes, not both.");
    return 2;
  }
  let scopes: string[];
  if (values.scopes) {
    scopes = values.scopes.split(",").map((scope) => scope.trim()).filter(Boolean);
  } else {
    const preset = values.preset ?? "full_access";
    if (!isPresetName(preset)) {
      console.error(`Unknown preset '${preset}'. Presets: ${Object.keys(PRESETS).join(", ")}`);
      return 2;
    }
    scopes = scopesForPreset(preset);
  }
  try {
    assertValidScopes(scopes);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }

  const config = loadConfig();
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    // npm start owns the embedded database; its admin key makes keys through the API instead.
    console.error(
      `Process ${error.ownerPid} (\`npm start\`?) has the embedded database in ${error.dataDir} open, so this command cannot.\n` +
        `${whileRunning((await readServiceAddress(error.dataDir)) ?? serviceBaseUrl(config), scopes, values)}\nOr stop the service and run this command again.`,
    );
    return 1;
  }
  try {
    await migrate(database.sql);
    const prisma = database.prisma;
    let workspaceId: string;
    if (values.workspace === "new") {
      workspaceId = await createWorkspace(prisma, values.name ? `${values.name} workspace` : "New workspace", config.startingCredits);
    } else if (values.workspace) {
      const found = await prisma.workspace.findUnique({ where: { workspace_id: values.workspace } });
      if (!found) {
        console.error(`No workspace '${values.workspace}'.`);
        return 1;
      }
      workspaceId = found.workspace_id;
    } else {
      workspaceId = await defaultWorkspace(prisma, config.startingCredits);
    }
    const key = await createApiKey(prisma, { workspaceId, mode: values.test ? "test" : "live", scopes, name: values.name ?? "Created with npm run key" });
    console.error(`Created ${values.test ? "test" : "live"} key ${key.keyId} in workspace ${workspaceId} with scopes ${scopes.join(", ")}`);
    process.stdout.write(`${key.secret}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

runMain(main);
