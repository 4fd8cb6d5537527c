// npm run bench -- --scale: the service as separate processes on one PostgreSQL and one Redis —
// 1 API + 1 worker, then 2 API + 2 workers — and what must stay exact across processes: a key
// limited to N requests a minute gets exactly N successes in all, one Idempotency-Key sent to
// both API processes at once creates one record, credits spent at once on both never overdraw,
// and the two workers deliver every webhook event once. Writes the "Scale" section of
// bench/results.md.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createScratchDatabase, DEFAULT_ADMIN_URL } from "../src/db/scratch-database.js";
import { startPrivateRedis } from "../src/redis/redis-server.js";
import { openDatabase } from "../src/db/database.js";
import { migrate } from "../src/db/migrate.js";
import { createWorkspace } from "../src/workspaces/workspace-service.js";
import { createApiKey } from "../src/auth/key-service.js";
import { addCredits } from "../src/credits/ledger.js";
import { measure, type Measurement } from "./run.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS = fileURLToPath(new URL("./results.md", import.meta.url));

interface Child {
  process: ChildProcess;
  exited: Promise<unknown>;
  url?: string;
}

function start(script: "src/main.ts" | "src/worker.ts", env: Record<string, string>): Promise<Child> {
  // As npm start and npm run worker run them (package.json).
  const child = spawn(process.execPath, ["--max-semi-space-size=32", "--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: "0", CUTROOM_STARTUP_KEY: "off", CUTROOM_WORKERS: "off", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  if (script === "src/worker.ts") return new Promise((resolve) => setTimeout(() => resolve({ process: child, exited }), 3_000));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the API did not start:\n${output}`)), 90_000);
    child.stdout.on("data", () => {
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ process: child, exited, url: match[1]! });
      }
    });
    void exited.then(() => reject(new Error(`the API exited while starting:\n${output}`)));
  });
}

async function throughput(urls: string[], headers: Record<string, string>, seconds: number): Promise<Measurement[]> {
  // A short warm-up of each process (JIT, query plans, key cache), then one load generator per
  // API process, at the same time.
  await Promise.all(urls.map((url) => measure("warm-up", { url: `${url}/api/v1/videos?limit=25`, headers }, 1, 10)));
  return Promise.all(urls.map((url, index) => measure(`api ${index + 1}`, { url: `${url}/api/v1/videos?limit=25`, headers }, seconds, 10)));
}

export async function runScale(seconds: number): Promise<void> {
  const dataDir = path.join(os.tmpdir(), `cutroom-bench-scale-${process.pid}`);
  const database = await createScratchDatabase("cutroom_bench_scale", process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL);
  const redis = await startPrivateRedis(dataDir);
  // The webhook receiver below listens on loopback, which the URL guard refuses unless allowed.
  const env = { DATABASE_URL: database.url, REDIS_URL: redis.url, CUTROOM_DATA_DIR: dataDir, CUTROOM_OUTBOUND_ALLOW: "127.0.0.1", CUTROOM_DISPATCH_INTERVAL_MS: "100" };
  const hooks: string[] = [];
  const receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (body.includes("scale hook")) hooks.push((JSON.parse(body) as { id: string }).id);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const children: Child[] = [];
  const db = await openDatabase({ databaseUrl: database.url, dataDir });
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  try {
    await migrate(db.sql);
    const workspaceId = await createWorkspace(db.prisma, "Bench scale");
    const { secret } = await createApiKey(db.prisma, { workspaceId, mode: "live", scopes: ["*:*"], rateLimits: { minute: 10_000_000, hour: 10_000_000, day: 10_000_000 } });
    await pool.query(
      `INSERT INTO videos (video_id, workspace_id, video_name) SELECT 'vid_scale' || lpad(n::text, 6, '0'), $1, 'Scale ' || n FROM generate_series(1, 2000) n`,
      [workspaceId],
    );
    const headers = { authorization: `Bearer ${secret}` };

    children.push(await start("src/main.ts", env), await start("src/worker.ts", env));
    const one = await throughput([children[0]!.url!], headers, seconds);
    children.push(await start("src/main.ts", env), await start("src/worker.ts", env));
    const apis = children.filter((child) => child.url).map((child) => child.url!);
    const two = await throughput(apis, headers, seconds);

    // Exactness: a key limited to 40 a minute, 100 calls spread over both processes at once.
    const limit = 40;
    const limited = await createApiKey(db.prisma, { workspaceId, mode: "live", scopes: ["*:*"], rateLimits: { minute: limit } });
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, index) => fetch(`${apis[index % 2]}/api/v1/videos?limit=1`, { headers: { authorization: `Bearer ${limited.secret}` } }).then((response) => response.status)),
    );
    const admitted = statuses.filter((status) => status === 200).length;

    // Exactness: each Idempotency-Key sent to both processes at the same time, 20 keys.
    const rounds = 20;
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        apis.map((url) =>
          fetch(`${url}/api/v1/folders`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json", "idempotency-key": `scale-${round}` },
            body: JSON.stringify({ folder_name: `scale ${round}` }),
          }).then((response) => response.text()),
        ),
      );
    }
    const { rows } = await pool.query<{ folder_name: string; count: string }>(
      "SELECT folder_name, count(*) FROM folders WHERE workspace_id = $1 AND folder_name LIKE 'scale %' GROUP BY folder_name",
      [workspaceId],
    );
    const duplicated = rows.filter((row) => Number(row.count) !== 1).length;

    // Exactness: credits. 60 credits, 20 renders of 10 credits asked for at once over both processes.
    const json = { ...headers, "content-type": "application/json" };
    await db.prisma.$transaction((tx) => addCredits(tx, { workspaceId, amount: 60, actionType: "grant" }));
    const video = (await (await fetch(`${apis[0]}/api/v1/videos`, { method: "POST", headers: json, body: JSON.stringify({ video_name: "scale render", composition: { duration: 1 } }) })).json()) as { video_id: string };
    const renderStatuses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        fetch(`${apis[index % 2]}/api/v1/actions/renders.create`, { method: "POST", headers: json, body: JSON.stringify({ video_id: video.video_id }) }).then((response) => response.status),
      ),
    );
    const renders = renderStatuses.filter((status) => status < 300).length;
    const balance = (await db.prisma.workspace.findUniqueOrThrow({ where: { workspace_id: workspaceId } })).credit_balance;

    // Exactness: webhooks. 30 videos made over both processes; the two workers deliver each event once.
    const hookCount = 30;
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await fetch(`${apis[0]}/api/v1/webhooks`, { method: "POST", headers: json, body: JSON.stringify({ url: receiverUrl, events: ["video.created"] }) });
    await Promise.all(
      Array.from({ length: hookCount }, (_, index) =>
        fetch(`${apis[index % 2]}/api/v1/videos`, { method: "POST", headers: json, body: JSON.stringify({ video_name: `scale hook ${index}` }) }).then((response) => response.text()),
      ),
    );
    const deadline = Date.now() + 30_000;
    while (new Set(hooks).size < hookCount && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    // Room for a late second delivery to show up.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const delivered = new Set(hooks).size;

    const sum = (measurements: Measurement[]) => measurements.reduce((total, item) => total + item.requests, 0);
    const section = [
      "## Scale (npm run bench -- --scale)",
      "",
      `${new Date().toISOString()} · ${os.cpus().length} cores · API and worker processes spawned on one PostgreSQL and one Redis; GET /api/v1/videos?limit=25, 10 connections per API process × ${seconds} s.`,
      "",
      "| setup | req/s per API process | total req/s | p99 ms (worst) |",
      "|---|---|---|---|",
      `| 1 API + 1 worker | ${one.map((item) => item.requests.toFixed(0)).join(" ")} | ${sum(one).toFixed(0)} | ${Math.max(...one.map((item) => item.p99))} |`,
      `| 2 API + 2 workers | ${two.map((item) => item.requests.toFixed(0)).join(" / ")} | ${sum(two).toFixed(0)} | ${Math.max(...two.map((item) => item.p99))} |`,
      "",
      "| exactness across the two API processes | expected | observed |",
      "|---|---|---|",
      `| key limited to ${limit}/minute, 100 calls over both | ${limit} admitted | ${admitted} admitted, ${statuses.filter((status) => status === 429).length} refused (429) |`,
      `| one Idempotency-Key sent to both at once (${rounds} keys) | 1 record per key | ${rows.length} keys with records, ${duplicated} with more than one |`,
      `| 60 credits, 20 renders of 10 asked for at once over both | 6 admitted, balance 0, never below | ${renders} admitted, ${renderStatuses.filter((status) => status === 402).length} refused (402), balance ${balance} |`,
      `| ${hookCount} video.created events, two workers delivering | each delivered once | ${delivered} of ${hookCount} delivered, ${hooks.length - delivered} delivered more than once |`,
      "",
    ].join("\n");
    console.log(section);
    // The scale section replaces its previous version; the rest of results.md stays.
    const previous = await readFile(RESULTS, "utf8").catch(() => "");
    const kept = previous.split("## Scale (npm run bench -- --scale)")[0]!.trimEnd();
    await writeFile(RESULTS, `${kept}\n\n${section}`);
  } finally {
    for (const child of children) child.process.kill();
    await Promise.all(children.map((child) => child.exited));
    await pool.end();
    await db.close();
    await redis.stop();
    receiver.close();
    await database.drop();
  }
}
