// `npm run key -- create ...` (src/cli/key.ts) as a real child process against the run's
// PostgreSQL: it prints only the key on stdout (so `KEY=$(npm run -s key -- create)` works), the
// key has the scopes asked for, and failures exit non-zero with a message on stderr.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createWorkspace } from "../src/workspaces/workspace-service.js";
import { Client, useService } from "./support/service.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const KEY_LINE = /^(sk_(live|test)_[0-9A-Za-z]{32})\n$/;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `tsx src/cli/key.ts ...args` (what `npm run key --` runs) with DATABASE_URL pointing at the
 * run's database. `node --import tsx` is the same loader as `npx tsx` without npx's lookup and
 * tsx's second node process, which roughly halves the cost of each run.
 */
function runKeyCli(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "src/cli/key.ts", ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: inject("databaseUrl"), LOG_LEVEL: "silent" }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Creates a key with the CLI and returns it (failing with the CLI's stderr otherwise). */
async function createKey(args: string[]): Promise<string> {
  const result = await runKeyCli(["create", ...args]);
  expect(result.code, result.stderr).toBe(0);
  const match = KEY_LINE.exec(result.stdout);
  expect(match, `stdout must be exactly one key line, got ${JSON.stringify(result.stdout)}`).not.toBeNull();
  return match![1]!;
}

interface KeyRow {
  key_id: string;
  workspace_id: string;
  name: string | null;
  mode: string;
  scopes: string[];
  key_prefix: string;
  key_last4: string;
  secret_hash: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const service = useService();
let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
});

async function keyRow(secret: string): Promise<KeyRow> {
  const { rows } = await db.query<KeyRow>(`SELECT * FROM api_keys WHERE secret_hash = $1`, [sha256(secret)]);
  expect(rows, "exactly one api_keys row for the key's sha256").toHaveLength(1);
  return rows[0]!;
}

describe("npm run key -- create", () => {
  it("prints only a live key on stdout, full access by default, and stores only its hash", { timeout: 60_000 }, async () => {
    const result = await runKeyCli(["create", "--name", "cli default"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^sk_live_[0-9A-Za-z]{32}\n$/);
    expect(result.stderr).toMatch(/Created live key/);
    const secret = result.stdout.trim();

    const row = await keyRow(secret);
    expect(row).toMatchObject({ mode: "live", name: "cli default", key_prefix: secret.slice(0, 12), key_last4: secret.slice(-4) });
    expect(row.scopes).toContain("videos:*");
    // No column holds the secret in clear (nor its random part, which the prefix must not reveal).
    const { rows } = await db.query<{ row: string }>(`SELECT row_to_json(k)::text AS row FROM api_keys k WHERE key_id = $1`, [row.key_id]);
    expect(rows[0]!.row).not.toContain(secret);
    expect(rows[0]!.row).not.toContain(secret.slice("sk_live_".length));

    const client = new Client(service.url, secret);
    const created = await client.post("/api/v1/videos", { video_name: "made with a CLI key" });
    expect(created.status).toBe(201);
  });

  it("--test --preset read_only: a test key that reads but cannot write", { timeout: 60_000 }, async () => {
    const secret = await createKey(["--test", "--preset", "read_only"]);
    expect(secret).toMatch(/^sk_test_/);
    const row = await keyRow(secret);
    expect(row.mode).toBe("test");
    expect(row.scopes).toEqual(["*:read"]);

    const client = new Client(service.url, secret);
    const list = await client.get("/api/v1/videos");
    expect(list.status).toBe(200);
    expect(list.body.livemode).toBe(false);
    const write = await client.post("/api/v1/videos", { video_name: "nope" });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe("insufficient_scope");
  });

  it("--scopes gives exactly the scopes listed", { timeout: 60_000 }, async () => {
    const secret = await createKey(["--scopes", "videos:read,folders:write"]);
    expect((await keyRow(secret)).scopes).toEqual(["videos:read", "folders:write"]);

    const client = new Client(service.url, secret);
    expect((await client.get("/api/v1/videos")).status).toBe(200);
    expect((await client.post("/api/v1/folders", { folder_name: "From the CLI" })).status).toBe(201);
    const write = await client.post("/api/v1/videos", { video_name: "nope" });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe("insufficient_scope");
  });

  it("--workspace new creates a workspace; --workspace ID adds a key to an existing one", { timeout: 60_000 }, async () => {
    const before = new Set((await db.query<{ workspace_id: string }>(`SELECT workspace_id FROM workspaces`)).rows.map((row) => row.workspace_id));
    const secret = await createKey(["--workspace", "new", "--name", "Studio B"]);
    const row = await keyRow(secret);
    expect(before.has(row.workspace_id)).toBe(false);
    const workspace = await db.query(`SELECT name FROM workspaces WHERE workspace_id = $1`, [row.workspace_id]);
    expect(workspace.rows).toEqual([{ name: "Studio B workspace" }]);

    const existing = await createWorkspace(service.service.database.prisma, "Existing workspace");
    const second = await createKey(["--workspace", existing]);
    expect((await keyRow(second)).workspace_id).toBe(existing);
  });

  it("fails with a non-zero exit and a message when the workspace does not exist", { timeout: 60_000 }, async () => {
    const result = await runKeyCli(["create", "--workspace", "ws_does_not_exist", "--name", "should not exist"]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("No workspace 'ws_does_not_exist'");
    const { rowCount } = await db.query(`SELECT 1 FROM api_keys WHERE name = 'should not exist'`);
    expect(rowCount).toBe(0);
  });

  it("fails with a non-zero exit and a message for a scope that does not exist", { timeout: 60_000 }, async () => {
    const result = await runKeyCli(["create", "--scopes", "videos:fly"]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Invalid scope 'videos:fly'");
  });
});
