// npm run bench: load-tests the running service with autocannon and reports each scenario beside
// a baseline measured in the same run — a bare node:http handler doing the same SQL through pg
// (the key lookup included) — so the figures are ratios, not absolute numbers that drift.
//
// Sections: the four serving scenarios beside their baseline; pagination cost with 2,000 and
// 200,000 videos (first page, deep cursor, include_total); SQL statements per nested GraphQL list.
// `npm run bench -- --render` instead runs the showcase render benchmark (bench/showcase.ts).
// `npm run bench -- --scale` instead runs 1 API + 1 worker, then 2 API + 2 workers as separate
// processes on the same PostgreSQL and Redis (bench/scale.ts).
//
// Env: DATABASE_URL (default: a fresh database on the local PostgreSQL), BENCH_SECONDS (default 5;
// or `--duration <s>`), BENCH_CONNECTIONS (default 20), BENCH_ROUNDS (default 3; or `--rounds <n>`).
// `--only service` skips the baselines (for profiling the service with node --cpu-prof), `--only
// serving` the sections after the four scenarios, `--scenario <text>` the scenarios not named so.
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
import { renderSection } from "./render.js";

const run = promisify(execFile);
const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon/autocannon.js");
const argv = process.argv.slice(2);
const argument = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const SECONDS = Number(argument("--duration") ?? process.env.BENCH_SECONDS ?? 5);
const SERVICE_ONLY = argument("--only") === "service";
// `--only serving`: the four scenarios beside their baselines, without the other sections.
const SERVING_ONLY = SERVICE_ONLY || argument("--only") === "serving";
// `--scenario <text>`: only the serving scenarios whose name contains it (profiling one path).
const SCENARIO = argument("--scenario");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
// Each scenario is measured in ROUNDS pairs (baseline, then service) and reported by the pair
// with the median ratio: on two shared cores one 5 s pair swings by ±15%.
const ROUNDS = Math.max(1, Number(argument("--rounds") ?? process.env.BENCH_ROUNDS ?? 3));
const VIDEO_COUNT = 2000;
const LIST_FIELDS = ["video_id", "video_name", "video_format", "published", "video_created_at"];

export interface Measurement {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time of this process (the server measured runs in it) per request served, in µs. */
  cpuPerRequest: number;
}

export interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/**
 * Runs autocannon in a process of its own, so the load generator does not share the event loop
 * (and the core) of the servers it measures.
 */
export async function measure(name: string, options: LoadOptions, seconds = SECONDS, connections = CONNECTIONS): Promise<Measurement> {
  const args = [AUTOCANNON, "--json", "-c", String(connections), "-d", String(seconds), "-m", options.method ?? "GET"];
  for (const [header, value] of Object.entries(options.headers)) args.push("-H", `${header}=${value}`);
  if (options.body) args.push("-b", options.body);
  args.push(options.url);
  const cpuBefore = process.cpuUsage();
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  const cpu = process.cpuUsage(cpuBefore);
  const result = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; errors: number; non2xx: number };
  return {
    name,
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuPerRequest: (cpu.user + cpu.system) / Math.max(1, result.requests.total),
  };
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
    "| scenario | service req/s | p50 ms | p99 ms | CPU µs/req | baseline req/s | baseline p50 | baseline p99 | baseline CPU µs/req | ratio (service / baseline req/s) |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const [service, baseline] of pairs) {
    lines.push(
      `| ${service.name} | ${service.requests.toFixed(0)} | ${service.p50} | ${service.p99} | ${service.cpuPerRequest.toFixed(0)} | ${baseline.requests.toFixed(0)} | ${baseline.p50} | ${baseline.p99} | ${baseline.cpuPerRequest.toFixed(0)} | ${(service.requests / baseline.requests).toFixed(2)} |`,
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
  // The scratch database is dropped at the end with its connections: that is no failure.
  pool.on("error", () => undefined);
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
    const roundRatios: string[] = [];
    for (const [name, serviceOptions, baselineOptions] of scenarios) {
      if (SCENARIO && !name.includes(SCENARIO)) continue;
      // A short warm-up first: the JIT, Prisma's query plans and the key cache, as in a running service.
      await measure(`${name} (warm-up)`, serviceOptions, 1);
      const rounds: [Measurement, Measurement][] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // The baseline runs right before the service each round, so both see the same machine state.
        const base = SERVICE_ONLY ? { name, requests: NaN, p50: NaN, p99: NaN, errors: 0, cpuPerRequest: NaN } : await measure(`${name} (baseline)`, baselineOptions);
        const measured = await measure(name, serviceOptions);
        rounds.push([measured, base]);
        console.error(
          `${name} round ${round + 1}: ${measured.requests.toFixed(0)} req/s vs baseline ${base.requests.toFixed(0)} req/s (${(measured.requests / base.requests).toFixed(2)}x); CPU ${measured.cpuPerRequest.toFixed(0)} vs ${base.cpuPerRequest.toFixed(0)} µs/request`,
        );
        if (measured.errors || base.errors) console.error(`  non-2xx or errors: service ${measured.errors}, baseline ${base.errors}`);
      }
      const ratio = ([measured, base]: [Measurement, Measurement]) => measured.requests / base.requests;
      const median = [...rounds].sort((a, b) => ratio(a) - ratio(b))[Math.floor(rounds.length / 2)]!;
      pairs.push(median);
      roundRatios.push(`${name} ${rounds.map((pair) => ratio(pair).toFixed(2)).join(" / ")}`);
    }
    const pagination = SERVING_ONLY ? "" : await paginationSection(pool, workspaceId, service.url, headers);
    const queryCounts = SERVING_ONLY ? "" : await queryCountSection(database.url, pool);
    const renderCost = SERVING_ONLY ? "" : await renderSection(prisma, workspaceId, service.url, loadConfig().renderPreset);
    const report = [
      "# Benchmark results",
      "",
      `${new Date().toISOString()} · ${os.cpus().length} cores · autocannon (its own process) ${CONNECTIONS} connections × ${SECONDS} s per scenario · ${VIDEO_COUNT} videos in the workspace.`,
      "Baseline: a bare node:http handler running the same SQL through pg (key lookup included). Compare ratios, not absolute figures.",
      `Each scenario: a 1 s warm-up, then ${ROUNDS} rounds of baseline then service; the table shows the round with the median ratio.`,
      "",
      table(pairs),
      "",
      `Ratios of every round: ${roundRatios.join("; ")}.`,
      "",
      "p99 ratio (service / baseline): " + pairs.map(([measured, base]) => `${measured.name} ${(measured.p99 / base.p99).toFixed(1)}×`).join(", ") + " (goal ≤ 4×).",
      "",
      pagination,
      queryCounts,
      renderCost,
    ].join("\n");
    console.log(report);
    if (!SERVING_ONLY) await writeFile(fileURLToPath(new URL("./results.md", import.meta.url)), report);
  } finally {
    baseline.close();
    await pool.end();
    await service.stop();
    await database.drop();
  }
}

/** Grows the workspace to `total` videos in one INSERT … SELECT generate_series. */
async function growTo(pool: pg.Pool, workspaceId: string, total: number): Promise<void> {
  const { rows } = await pool.query<{ count: string }>("SELECT count(*) FROM videos WHERE workspace_id = $1", [workspaceId]);
  const missing = total - Number(rows[0]!.count);
  if (missing <= 0) return;
  await pool.query(
    `INSERT INTO videos (video_id, workspace_id, video_name, video_format, published, video_created_at)
     SELECT 'vid_bench' || lpad(n::text, 9, '0'), $1, 'Bulk ' || n, (ARRAY['portrait','landscape','square'])[1 + n % 3], n % 2 = 0,
            now() - make_interval(secs => n)
     FROM generate_series(1, $2::int) AS n`,
    [workspaceId, missing],
  );
  await pool.query("ANALYZE videos");
}

/** List latency at 2,000 and at 200,000 videos: the first page, a deep cursor, and include_total apart. */
async function paginationSection(pool: pg.Pool, workspaceId: string, serviceUrl: string, headers: Record<string, string>): Promise<string> {
  const lines = [
    "## Pagination cost",
    "",
    "GET /api/v1/videos?limit=25 (newest first) as the workspace grows; the deep cursor points 3/4 of the way down the list.",
    "",
    "| videos | page | req/s | p50 ms | p99 ms |",
    "|---|---|---|---|---|",
  ];
  for (const total of [2_000, 200_000]) {
    await growTo(pool, workspaceId, total);
    // A cursor deep in the list, as a client walking it would hold (found once by offset).
    const deep = await fetch(`${serviceUrl}/api/v1/videos?limit=1&offset=${Math.floor(total * 0.75)}`, { headers });
    const cursor = ((await deep.json()) as { next_cursor: string }).next_cursor;
    const pages: [string, string][] = [
      ["first page (cursor)", "limit=25"],
      ["deep cursor", `limit=25&cursor=${cursor}`],
      ["first page + include_total", "limit=25&include_total=true"],
    ];
    for (const [name, query] of pages) {
      const result = await measure(name, { url: `${serviceUrl}/api/v1/videos?${query}`, headers }, Math.max(2, Math.ceil(SECONDS / 2)));
      lines.push(`| ${total.toLocaleString("en")} | ${name} | ${result.requests.toFixed(0)} | ${result.p50} | ${result.p99} |`);
      console.error(`pagination ${total} ${name}: ${result.requests.toFixed(0)} req/s, p99 ${result.p99} ms${result.errors ? ` (${result.errors} errors)` : ""}`);
    }
  }
  return [...lines, ""].join("\n");
}

/** SQL statements per nested GraphQL list, counted by a service opened with countQueries. */
async function queryCountSection(databaseUrl: string, pool: pg.Pool): Promise<string> {
  const counted = await startService({ ...loadConfig(), databaseUrl, port: 0, printStartupKey: false, runWorkers: false, countQueries: true, dataDir: path.join(os.tmpdir(), "cutroom-bench") });
  try {
    const prisma = counted.database.prisma;
    const workspaceId = await createWorkspace(prisma, "Bench nested lists");
    const { secret } = await createApiKey(prisma, { workspaceId, mode: "live", scopes: ["*:*"] });
    // 50 videos with 3 renders each; 10 folders of 5 videos each.
    await pool.query(
      `INSERT INTO videos (video_id, workspace_id, video_name) SELECT 'vid_nest' || lpad(n::text, 6, '0'), $1, 'Nested ' || n FROM generate_series(1, 50) n`,
      [workspaceId],
    );
    await pool.query(
      `INSERT INTO renders (render_id, workspace_id, video_id) SELECT 'rnd_nest' || lpad((v * 10 + r)::text, 6, '0'), $1, 'vid_nest' || lpad(v::text, 6, '0')
       FROM generate_series(1, 50) v, generate_series(1, 3) r`,
      [workspaceId],
    );
    await pool.query(`INSERT INTO folders (folder_id, workspace_id, folder_name) SELECT 'fld_nest' || lpad(n::text, 6, '0'), $1, 'Folder ' || n FROM generate_series(1, 10) n`, [workspaceId]);
    await pool.query(
      `INSERT INTO video_folders (video_id, folder_id, position) SELECT 'vid_nest' || lpad(n::text, 6, '0'), 'fld_nest' || lpad((1 + (n - 1) / 5)::text, 6, '0'), n FROM generate_series(1, 50) n`,
    );
    const cases: [string, string][] = [
      ["videos(limit: 50) { renders }", "{ videos(limit: 50) { data { video_id renders { data { render_id } has_more } } } }"],
      ["folders { videos }", "{ folders(limit: 10) { data { folder_id videos { data { video_id folder_ids } has_more } } } }"],
      ["video { renders } (one record)", `{ video(video_id: "vid_nest000001") { renders { data { render_id } } } }`],
    ];
    const lines = ["## Query counts", "", "SQL statements one GraphQL request sends (authentication and the request log's own writes aside).", "", "| query | statements |", "|---|---|"];
    for (const [name, query] of cases) {
      // The key is authenticated (and cached) first, so only the query's own statements count.
      await fetch(`${counted.url}/api/v1/videos?limit=1`, { headers: { authorization: `Bearer ${secret}` } });
      const before = counted.database.queryCount();
      const response = await fetch(`${counted.url}/graphql`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ query }) });
      const body = (await response.json()) as { errors?: unknown[] };
      const statements = counted.database.queryCount() - before;
      lines.push(`| ${name} | ${statements}${body.errors ? " (errors)" : ""} |`);
      console.error(`query count ${name}: ${statements}`);
    }
    return [...lines, ""].join("\n");
  } finally {
    await counted.stop();
  }
}

if (argv.includes("--render")) {
  import("./showcase.js")
    .then(({ runShowcase }) => runShowcase())
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
} else if (argv.includes("--scale")) {
  import("./scale.js")
    .then(({ runScale }) => runScale(SECONDS))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
