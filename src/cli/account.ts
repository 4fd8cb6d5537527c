// npm run account -- connect <platform> --name TEXT --access-token TOKEN [--refresh-token TOKEN]
//   [--expires-at ISO] [--platform-account-id ID] [--workspace ID]
// Connects a social account (docs/publishing.md): the API only reads accounts. The tokens are
// sealed with CUTROOM_ACCOUNTS_KEY (AES-256-GCM) before they are stored. Prints the account id on
// stdout; everything else goes to stderr. Like `npm run key`, it opens the database itself.
import { parseArgs } from "node:util";
import { loadConfig } from "../config.js";
import { DataDirInUseError, openDatabase, type Database } from "../db/database.js";
import { migrate } from "../db/migrate.js";
import { defaultWorkspace } from "../workspaces/workspace-service.js";
import { connectAccount } from "../publishing/accounts.js";
import { PLATFORMS } from "../publishing/platforms/index.js";
import { runMain } from "./run-main.js";

const USAGE = `usage: npm run account -- connect <${Object.keys(PLATFORMS).join("|")}> --name TEXT --access-token TOKEN [--refresh-token TOKEN] [--expires-at ISO] [--platform-account-id ID] [--workspace ID]`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      "access-token": { type: "string" },
      "refresh-token": { type: "string" },
      "expires-at": { type: "string" },
      "platform-account-id": { type: "string" },
      workspace: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, platform] = positionals;
  if (values.help || command !== "connect" || !platform) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  if (!PLATFORMS[platform]) {
    console.error(`Unknown platform '${platform}'. Platforms: ${Object.keys(PLATFORMS).join(", ")}`);
    return 2;
  }
  if (!values.name || !values["access-token"]) {
    console.error(`--name and --access-token are required.\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  if (!config.publishing.accountsKey) {
    console.error("CUTROOM_ACCOUNTS_KEY is not set: it encrypts the account's tokens at rest. Make one with `openssl rand -base64 32` and give the service the same value.");
    return 2;
  }
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(`Process ${error.ownerPid} (\`npm start\`?) has the embedded database in ${error.dataDir} open. Stop it, connect the account, and start it again (or use a shared DATABASE_URL).`);
    return 1;
  }
  try {
    await migrate(database.sql);
    const prisma = database.prisma;
    let workspaceId: string;
    if (values.workspace) {
      const found = await prisma.workspace.findUnique({ where: { workspace_id: values.workspace } });
      if (!found) {
        console.error(`No workspace '${values.workspace}'.`);
        return 1;
      }
      workspaceId = found.workspace_id;
    } else {
      workspaceId = await defaultWorkspace(prisma, config.startingCredits);
    }
    const account = await connectAccount(prisma, config.publishing.accountsKey, {
      workspaceId,
      platform,
      accountName: values.name,
      platformAccountId: values["platform-account-id"],
      credentials: {
        access_token: values["access-token"],
        ...(values["refresh-token"] && { refresh_token: values["refresh-token"] }),
        ...(values["expires-at"] && { expires_at: values["expires-at"] }),
      },
    });
    console.error(`Connected ${platform} account '${values.name}' as ${account.account_id} in workspace ${workspaceId}.`);
    process.stdout.write(`${account.account_id}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

runMain(main);
