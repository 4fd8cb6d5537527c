// npm run bench: load-tests the running service with autocannon and reports each scenario beside
// a baseline measured in the same run — a bare node:http handler doing the same SQL through pg
// (the key lookup included) — so the figures are ratios, not absolute numbers that drift.
//
// Env: DATABASE_URL (default: a fresh database on the local PostgreSQL), BENCH_SECONDS (default 5),
// BENCH_CONNECTIONS (default 20).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import pg from "pg";
import { loadConfig } from "../src/config.js";
import { startService } from "../src/service.js";
import { createWorkspace } from "../src/workspaces/workspace-service.js";
import { createApiKey } from "../src/auth/key-service.js";
import { hashSecret } from "../src/auth/key-secret.js";
import { newId } from "../src/ids.js";
import { createScratchDatabase, DEFAULT_ADMIN_URL } from "../src/db/scratch-database.js";

const run = promisify(execFile);
const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon/autocannon.js");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const VIDEO_COUNT = 2000;
const LIST_FIELDS = ["video_id", "video_name", "video_format", "published", "video_created_at"];

interface Measurement {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/**
 * Runs autocannon in a process of its own, so the load generator does not share the event loop
 * (and the core) of the servers it measures.
 */
async function measure(name: string, options: LoadOptions): Promise<Measurement> {
  const args = [AUTOCANNON, "--json", "-c", String(CONNECTIONS), "-d", String(SECONDS), "-m", options.method ?? "GET"];
  for (const [header, value] of Object.entries(options.headers)) args.push("-H", `${header}=${value}`);
  if (options.body) args.push("-b", options.body);
  args.push(options.url);
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout) as { requests: { average: number }; latency: { p50: number; p99: number }; errors: number; non2xx: number };
  return { name, requests: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** The baseline: the same queries the service runs for these two routes, and nothing else. */
function startBaseline(pool: pg.Pool): Promise<Server> {
  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      const key = (request.headers.authorization ?? "").replace(/^Bearer /, "");
      const auth = await pool.query<{ workspace_id: string }>("SELECT workspace_id, scopes FROM api_keys WHERE secret_hash = $1", [hashSecret(key)]);
      const workspaceId = auth.rows[0]?.workspace_id;
      if (!workspaceId) {
        response.writeHead(401).end();
        return;
      }
      const url = new URL(request.url ?? "/", "http://localhost");
      const folderIds = "ARRAY(SELECT folder_id FROM video_folders f WHERE f.video_id = v.video_id ORDER BY position) AS folder_ids";
      let body: unknown;
      if (url.pathname.startsWith("/videos/")) {
        const result = await pool.query(`SELECT v.*, ${folderIds} FROM videos v WHERE video_id = $1`, [url.pathname.slice("/videos/".length)]);
        body = { object: "video", ...result.rows[0] };
      } else {
        const result = await pool.query(
          `SELECT ${LIST_FIELDS.join(", ")} FROM videos v WHERE workspace_id = $1 AND video_format = $2 AND published = $3
           ORDER BY video_name ASC NULLS LAST, video_id ASC LIMIT 26`,
          [workspaceId, "portrait", true],
        );
        body = { object: "list", data: result.rows.slice(0, 25), has_more: result.rows.length > 25 };
      }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  };
  // answer catches every failure (a 500), so its promise never rejects.
  const server = createServer((request, response) => void answer(request, response));
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function seed(pool: pg.Pool, workspaceId: string): Promise<string> {
  const formats = ["portrait", "landscape", "square"];
  const rows = Array.from({ length: VIDEO_COUNT }, (_, index) => [
    newId("video"),
    workspaceId,
    `Video ${String(index).padStart(5, "0")}`,
    formats[index % 3],
    index % 2 === 0,
  ]);
  for (let start = 0; start < rows.length; start += 500) {
    const chunk = rows.slice(start, start + 500);
    const values = chunk.map((_, i) => `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`).join(", ");
    await pool.query(`INSERT INTO videos (video_id, workspace_id, video_name, video_format, published) VALUES ${values}`, chunk.flat());
  }
  return String(rows[0]![0]);
}

function table(pairs: [Measurement, Measurement][]): string {
  const lines = [
    "| scenario | service req/s | p50 ms | p99 ms | baseline req/s | baseline p50 | baseline p99 | ratio (service / baseline req/s) |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const [service, baseline] of pairs) {
    lines.push(
      `| ${service.name} | ${service.requests.toFixed(0)} | ${service.p50} | ${service.p99} | ${baseline.requests.toFixed(0)} | ${baseline.p50} | ${baseline.p99} | ${(service.requests / baseline.requests).toFixed(2)} |`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const database = process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, drop: async () => undefined }
    : await createScratchDatabase("cutroom_bench", process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL);
  const service = await startService({ ...loadConfig(), databaseUrl: database.url, port: 0, printStartupKey: false, dataDir: path.join(os.tmpdir(), "cutroom-bench") });
  const pool = new pg.Pool({ connectionString: database.url, max: 10 });
  const baseline = await startBaseline(pool);
  const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`;
  try {
    const prisma = service.database.prisma;
    const workspaceId = await createWorkspace(prisma, "Bench");
    const { secret, keyId } = await createApiKey(prisma, { workspaceId, mode: "live", scopes: ["videos:read"] });
    // The benchmark measures serving, not the rate windows: its key gets room for every request.
    await prisma.apiKey.update({ where: { key_id: keyId }, data: { rate_limits: { minute: 10_000_000, hour: 10_000_000, day: 10_000_000 } } });
    const videoId = await seed(pool, workspaceId);
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    const listQuery = `video_format=portrait&published=true&sort=video_name&order=asc&limit=25&fields=${LIST_FIELDS.join(",")}`;
    const graphqlGet = JSON.stringify({ query: `{ video(video_id: "${videoId}") { object video_id video_name video_format published folder_ids video_created_at } }` });
    const graphqlList = JSON.stringify({
      query: `{ videos(filter: {video_format: {eq: "portrait"}, published: {eq: true}}, sort: "video_name", order: "asc", limit: 25) { data { ${LIST_FIELDS.join(" ")} } has_more } }`,
    });

    const scenarios: [string, LoadOptions, LoadOptions][] = [
      ["REST get by id", { url: `${service.url}/api/v1/videos/${videoId}`, headers }, { url: `${baselineUrl}/videos/${videoId}`, headers }],
      ["REST list (2 filters + sort)", { url: `${service.url}/api/v1/videos?${listQuery}`, headers }, { url: `${baselineUrl}/videos?${listQuery}`, headers }],
      ["GraphQL get by id", { url: `${service.url}/graphql`, method: "POST", headers, body: graphqlGet }, { url: `${baselineUrl}/videos/${videoId}`, headers }],
      ["GraphQL list (2 filters + sort)", { url: `${service.url}/graphql`, method: "POST", headers, body: graphqlList }, { url: `${baselineUrl}/videos?${listQuery}`, headers }],
    ];
    const pairs: [Measurement, Measurement][] = [];
    for (const [name, serviceOptions, baselineOptions] of scenarios) {
      // The baseline runs right before each scenario so both see the same machine state.
      const base = await measure(`${name} (baseline)`, baselineOptions);
      const measured = await measure(name, serviceOptions);
      pairs.push([measured, base]);
      console.error(`${name}: ${measured.requests.toFixed(0)} req/s vs baseline ${base.requests.toFixed(0)} req/s (${(measured.requests / base.requests).toFixed(2)}x)`);
      if (measured.errors || base.errors) console.error(`  non-2xx or errors: service ${measured.errors}, baseline ${base.errors}`);
    }
    const report = [
      "# Benchmark results",
      "",
      `${new Date().toISOString()} · ${os.cpus().length} cores · autocannon (its own process) ${CONNECTIONS} connections × ${SECONDS} s per scenario · ${VIDEO_COUNT} videos in the workspace.`,
      "Baseline: a bare node:http handler running the same SQL through pg (key lookup included). Compare ratios, not absolute figures.",
      "",
      table(pairs),
      "",
    ].join("\n");
    console.log(report);
    await writeFile(fileURLToPath(new URL("./results.md", import.meta.url)), report);
  } finally {
    baseline.close();
    await pool.end();
    await service.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
