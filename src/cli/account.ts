// npm run account -- connect <platform> --name TEXT --access-token TOKEN [--refresh-token TOKEN]
//   [--expires-at ISO] [--platform-account-id ID] [--workspace ID]
// npm run account -- credits grant <workspace> <credits> --reason TEXT
// `credits grant` adds credits to a workspace with a ledger row of type `grant` naming the reason
// (docs/credits.md); it prints the new balance on stdout.
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
import { grantCredits, GrantRefused } from "../credits/grant.js";

const USAGE =
  `usage: npm run account -- connect <${Object.keys(PLATFORMS).join("|")}> --name TEXT --access-token TOKEN [--refresh-token TOKEN] [--expires-at ISO] [--platform-account-id ID] [--workspace ID]\n` +
  "       npm run account -- credits grant <workspace> <credits> --reason TEXT";

/** Opens the database the service uses, or says why not (the embedded one is held by npm start). */
async function openForCli(whatToDo: string): Promise<Database | undefined> {
  const config = loadConfig();
  try {
    return await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(`Process ${error.ownerPid} (\`npm start\`?) has the embedded database in ${error.dataDir} open. Stop it, ${whatToDo}, and start it again (or use a shared DATABASE_URL).`);
    return undefined;
  }
}

async function grant(positionals: string[], reason: string | undefined): Promise<number> {
  const [, subcommand, workspaceId, amountText] = positionals;
  if (subcommand !== "grant" || !workspaceId || !amountText || positionals.length > 4) {
    console.error(USAGE);
    return 2;
  }
  const amount = /^\d+$/.test(amountText) ? Number(amountText) : Number.NaN;
  const database = await openForCli("grant the credits");
  if (!database) return 1;
  try {
    await migrate(database.sql);
    const result = await grantCredits(database.prisma, { workspaceId, amount, reason: reason ?? "" });
    console.error(`Granted ${amount} credits to ${workspaceId} (ledger row ${result.transactionId}); the balance is ${result.balanceAfter}.`);
    process.stdout.write(`${result.balanceAfter}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof GrantRefused)) throw error;
    console.error(error.message);
    return 2;
  } finally {
    await database.close();
  }
}

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
      reason: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, platform] = positionals;
  if (!values.help && command === "credits") return grant(positionals, values.reason);
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
  const database = await openForCli("connect the account");
  if (!database) return 1;
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
