// A second key while the service runs: `npm start` (src/main.ts as a real child process, on
// embedded PGlite) prints an admin key that creates keys through POST /api/v1/api_keys, while the
// key CLI, which cannot open the embedded database the service holds, says how to do that. Each
// start replaces the printed pair.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "./support/service.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const KEY = "sk_live_[0-9A-Za-z]{32}";

interface Started {
  child: ChildProcess;
  url: string;
  key: string;
  adminKey: string;
}

function environment(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CUTROOM_DATA_DIR: dataDir, PORT: "0", REDIS_URL: inject("redisUrl"), LOG_LEVEL: "silent" };
  delete env.DATABASE_URL; // the embedded database, as `npm start` runs by default
  return env;
}

/** Runs `npm start`'s entry point and reads the URL and keys it prints. */
function start(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], { cwd: ROOT, env: environment(dataDir), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      const key = new RegExp(`\\n  Key +(${KEY}) `).exec(output)?.[1];
      const adminKey = new RegExp(`\\n  Admin key +(${KEY}) `).exec(output)?.[1];
      if (url && key && adminKey && output.includes("More keys:")) resolve({ child, url, key, adminKey });
    };
    child.stdout.on("data", read);
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code} before printing its keys:\n${output}`)));
  });
}

function stop(started: Started | undefined): Promise<void> {
  if (!started || started.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    started.child.once("exit", () => resolve());
    started.child.kill("SIGTERM");
  });
}

function runKeyCli(dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "src/cli/key.ts", ...args], { cwd: ROOT, env: environment(dataDir), timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let dataDir: string | undefined;
let running: Started | undefined;

afterAll(async () => {
  await stop(running);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("keys while the service runs", () => {
  it("npm start prints an admin key that makes more keys without a restart; the CLI points to it", { timeout: 180_000 }, async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-startup-keys-"));
    running = await start(dataDir);
    const first = running;
    const everyday = new Client(first.url, first.key);
    const admin = new Client(first.url, first.adminKey);

    // The everyday key is full_access, which leaves api_keys out: it cannot make keys.
    const refused = await everyday.post("/api/v1/api_keys", { preset: "read_only" });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");

    // The admin key can, while the service runs.
    const created = await admin.post("/api/v1/api_keys", { preset: "read_only", name: "Made while running" });
    expect(created.status, created.text).toBe(201);
    expect(created.body.secret).toMatch(new RegExp(`^${KEY}$`));
    const reader = new Client(first.url, created.body.secret);
    expect((await reader.get("/api/v1/videos")).status).toBe(200);
    expect((await reader.post("/api/v1/videos", { video_name: "no" })).status).toBe(403);

    // The CLI cannot open the database the service holds; it says how to use the admin key instead.
    const cli = await runKeyCli(dataDir, ["create", "--preset", "read_only"]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toBe("");
    expect(cli.stderr).toContain("Admin key");
    expect(cli.stderr).toContain('/api/v1/api_keys -H "Authorization: Bearer $ADMIN_KEY"');
    expect(cli.stderr).toContain(`-d '{"preset":"read_only"}'`);

    // A new start replaces the printed pair; keys made with the admin key stay.
    await stop(first);
    running = await start(dataDir);
    const second = running;
    expect(second.adminKey).not.toBe(first.adminKey);
    for (const old of [first.key, first.adminKey]) {
      const response = await new Client(second.url, old).get("/api/v1/videos");
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe("key_revoked");
    }
    expect((await new Client(second.url, created.body.secret).get("/api/v1/videos")).status).toBe(200);
    expect((await new Client(second.url, second.adminKey).post("/api/v1/api_keys", { preset: "read_only" })).status).toBe(201);
  });
});
