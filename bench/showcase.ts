// npm run bench -- --render: the showcase render benchmark (docs/benchmarks.md, "Render speed").
// Three compositions that look like real work, made from media this bench generates itself with
// ffmpeg (no network), served to the service on loopback:
// - explainer: 30 s, 1080p landscape, six stills with Ken Burns moves and dissolves between them,
//   a video clip, an animated title, karaoke captions from word timings, a voice track and a music
//   bed ducked under it, loudness normalised (version 2's default, -14 LUFS);
// - short: 20 s, 1080 × 1920 portrait, a video clip with `cover` fit, word-pop captions, a
//   progress bar, music;
// - long: 3 min, 1080p, a slideshow of 30 stills with cross fades and a narration.
// For each: the render through the service (renders.create until the record says completed: an
// API process and worker processes on a scratch database and a private Redis), the same graph run
// as bare ffmpeg commands (the loudness pass and the encode, one piece), their ratio and the
// real-time factor (render time / video length). **long** through 1 worker, then 2 workers, each
// pinned to its own core with taskset. Also the explainer's draft preview and a still of it.
// Writes the "Render speed" section of bench/results.md.
// BENCH_RENDER_SCALE (default 1) shortens every composition by that factor (0.2: a quick check that
// the bench runs; its figures mean nothing).
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createApiKey } from "../src/auth/key-service.js";
import { addCredits } from "../src/credits/ledger.js";
import { openDatabase } from "../src/db/database.js";
import { migrate } from "../src/db/migrate.js";
import { createScratchDatabase, DEFAULT_ADMIN_URL } from "../src/db/scratch-database.js";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { runFfmpeg } from "../src/media/ffmpeg.js";
import { startPrivateRedis } from "../src/redis/redis-server.js";
import { FORMAT_SIZES, parseComposition } from "../src/renders/composition.js";
import { parseLoudnormJson } from "../src/renders/graph/audio.js";
import { renderOutput } from "../src/renders/output-spec.js";
import { buildRenderCommand, needsLoudnessPass } from "../src/renders/render-command.js";
import { createWorkspace } from "../src/workspaces/workspace-service.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS = fileURLToPath(new URL("./results.md", import.meta.url));
const SCALE = Math.min(1, Math.max(0.05, Number(process.env.BENCH_RENDER_SCALE ?? 1)));
const seconds = (value: number) => Math.round(value * SCALE * 1000) / 1000;

/** The media every composition reads, generated once: name → file. */
async function generateMedia(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const ffmpeg = (args: string[]) => run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", ...args], { maxBuffer: 16 << 20 });
  const sources = ["testsrc2", "smptehdbars", "mandelbrot", "life=ratio=0.3:mold=10", "cellauto=rule=110", "rgbtestsrc", "yuvtestsrc", "gradients"];
  for (let index = 0; index < 30; index++) {
    const file = path.join(dir, `still-${index}.jpg`);
    const source = sources[index % sources.length]!;
    const hue = (index * 37) % 360;
    await ffmpeg(["-f", "lavfi", "-i", `${source}${source.includes("=") ? ":" : "="}s=1920x1080`, "-frames:v", "1", "-vf", `scale=1920:1080,hue=h=${hue}`, "-q:v", "3", file]);
    files.set(`still-${index}.jpg`, file);
  }
  const clip = path.join(dir, "clip.mp4");
  await ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=12", "-f", "lavfi", "-i", "sine=f=300:d=12", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip]);
  files.set("clip.mp4", clip);
  // A voice: a tone swept like speech, in phrases with pauses; music: a chord.
  const voice = (name: string, length: number) => ffmpeg(["-f", "lavfi", "-i", `aevalsrc=0.4*sin(2*PI*(180+60*sin(2*PI*0.7*t))*t)*gt(sin(2*PI*0.25*t)\\,-0.3):s=48000:d=${length}`, "-ac", "2", path.join(dir, name)]).then(() => files.set(name, path.join(dir, name)));
  await voice("voice.wav", 30);
  await voice("narration.wav", 180);
  const music = path.join(dir, "music.wav");
  await ffmpeg(["-f", "lavfi", "-i", "aevalsrc=0.15*sin(2*PI*220*t)+0.12*sin(2*PI*277.2*t)+0.1*sin(2*PI*329.6*t):s=48000:d=180", "-ac", "2", music]);
  files.set("music.wav", music);
  return files;
}

function words(count: number, every: number, from = 0): { word: string; start: number; end: number }[] {
  const vocabulary = ["render", "speed", "matters", "when", "videos", "scale", "across", "workers", "every", "frame", "counts", "today"];
  return Array.from({ length: count }, (_, index) => ({ word: vocabulary[index % vocabulary.length]!, start: from + index * every, end: from + index * every + every * 0.9 }));
}

function compositions(base: string) {
  const src = (name: string) => `${base}/${name}`;
  const explainerLength = seconds(30);
  const slot = explainerLength / 6;
  const explainer = {
    version: 2, duration: explainerLength, fps: 30, background_color: "#101418",
    layers: [
      ...Array.from({ length: 6 }, (_, index) => index === 3
        ? { type: "video", src: src("clip.mp4"), start: index * slot, end: (index + 1) * slot + 0.5, fit: "cover", volume: 0, transition_in: { type: "dissolve", duration: 0.5 }, transition_out: { type: "dissolve", duration: 0.5 } }
        : {
            type: "image", src: src(`still-${index}.jpg`), start: index * slot, end: index === 5 ? explainerLength : (index + 1) * slot + 0.5,
            motion: { type: ["zoom_in", "pan_right", "zoom_out", "", "pan_left", "zoom_in"][index], zoom: 1.2 },
            ...(index > 0 && { transition_in: { type: "dissolve", duration: 0.5 } }), ...(index < 5 && { transition_out: { type: "dissolve", duration: 0.5 } }),
          }),
      { type: "text", text: "How split rendering works", font_size: 110, y: 160, start: 0.3, end: Math.min(4, explainerLength), animation: { type: "pop", duration: 0.6 }, stroke_color: "#000000", stroke_width: 4 },
      { type: "subtitles", words: words(Math.floor((explainerLength - 1) / 0.4), 0.4, 0.5), style: { preset: "karaoke", font_size: 72 } },
      { type: "audio", src: src("voice.wav"), role: "voice", end: explainerLength },
      { type: "audio", src: src("music.wav"), role: "music", volume: 0.6, end: explainerLength, fade_out: 1 },
    ],
  };
  const shortLength = seconds(20);
  const short = {
    version: 2, duration: shortLength, fps: 30,
    layers: [
      { type: "video", src: src("clip.mp4"), fit: "cover", loop: true, volume: 0, end: shortLength },
      { type: "subtitles", words: words(Math.floor((shortLength - 1) / 0.35), 0.35, 0.3), style: { preset: "word_pop", font_size: 96, position: "center" } },
      { type: "shape", shape: "progress_bar", color: "#FFD400", track_color: "#FFFFFF40", x: 60, y: 1500, width: 960, height: 18, end: shortLength },
      { type: "audio", src: src("music.wav"), role: "music", end: shortLength },
    ],
  };
  const longLength = seconds(180);
  const still = longLength / 30;
  const long = {
    version: 2, duration: longLength, fps: 30,
    layers: [
      ...Array.from({ length: 30 }, (_, index) => ({
        type: "image", src: src(`still-${index}.jpg`), start: index * still, end: index === 29 ? longLength : (index + 1) * still + 0.5,
        ...(index > 0 && { transition_in: { type: "fade", duration: 0.5 } }), ...(index < 29 && { transition_out: { type: "fade", duration: 0.5 } }),
      })),
      { type: "audio", src: src("narration.wav"), role: "voice", end: longLength },
    ],
  };
  return { explainer: { composition: explainer, format: "landscape" as const }, short: { composition: short, format: "portrait" as const }, long: { composition: long, format: "landscape" as const } };
}

interface Child {
  process: ChildProcess;
  exited: Promise<unknown>;
  url?: string;
  /** Everything it printed so far. */
  output(): string;
}

function start(command: string[], env: Record<string, string>, waitFor: RegExp): Promise<Child> {
  const [file, ...args] = command;
  const child = spawn(file!, args, { cwd: ROOT, env: { ...process.env, LOG_LEVEL: "warn", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = waitFor.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ process: child, exited, url: match[1], output: () => output });
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    void exited.then(() => reject(new Error(`exited while starting:\n${output}`)));
  });
}

async function stop(child: Child): Promise<void> {
  if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill("SIGTERM");
  await child.exited;
}

/** One worker process per core list (`taskset -c <cores>`), as `npm run worker` runs it. */
function workers(cores: string[], env: Record<string, string>): Promise<Child[]> {
  // At info level: "render completed" lines say where each render's time went (phases_ms).
  return Promise.all(cores.map((core) => start(["taskset", "-c", core, process.execPath, "--max-semi-space-size=32", "--import", "tsx", "src/worker.ts"], { ...env, LOG_LEVEL: "info" }, /Cutroom worker (running)/)));
}

/** The phases of a render from its worker's "render completed" log line, in milliseconds. */
function renderPhases(pool: Child[], renderId: string): Record<string, number> {
  for (const line of pool.flatMap((child) => child.output().split("\n"))) {
    if (!line.includes(renderId) || !line.includes("render completed")) continue;
    try {
      return ((JSON.parse(line) as { phases_ms?: Record<string, number> }).phases_ms) ?? {};
    } catch {
      continue;
    }
  }
  return {};
}

/** The same graph as bare ffmpeg commands: the loudness pass when it normalises, then the encode. */
async function bare(composition: unknown, format: keyof typeof FORMAT_SIZES, media: Map<string, string>, output: unknown): Promise<number> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-bench-showcase-"));
  try {
    const parsed = parseComposition(composition);
    const spec = renderOutput.parse(output);
    const base = { composition: parsed, formatSize: FORMAT_SIZES[format], output: spec, media, workDir, preset: "veryfast" };
    const started = performance.now();
    let measured;
    if (needsLoudnessPass(parsed, spec)) {
      const pass = await buildRenderCommand({ ...base, outputPath: "-", loudness: "measure" });
      for (const file of pass.files) await writeFile(file.path, file.content);
      measured = parseLoudnormJson(await runFfmpeg(pass.args, { cwd: workDir, timeoutMs: 3_600_000 }));
    }
    const command = await buildRenderCommand({ ...base, outputPath: path.join(workDir, `output.${spec.format}`), loudness: measured });
    for (const file of command.files) await writeFile(file.path, file.content);
    await runFfmpeg(command.args, { cwd: workDir, timeoutMs: 3_600_000 });
    return performance.now() - started;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

export async function runShowcase(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-bench-showcase-data-"));
  const mediaDir = path.join(dataDir, "media");
  await mkdir(mediaDir, { recursive: true });
  console.log("generating media …");
  const media = await generateMedia(mediaDir);
  const server = createServer((request, response) => {
    const file = media.get(path.basename(request.url ?? ""));
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": file.endsWith(".jpg") ? "image/jpeg" : file.endsWith(".mp4") ? "video/mp4" : "audio/wav" });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const set = compositions(base);
  const byUrl = new Map([...media.entries()].map(([name, file]) => [`${base}/${name}`, file]));

  const database = await createScratchDatabase("cutroom_bench_showcase", process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL);
  const redis = await startPrivateRedis(dataDir);
  const env = {
    DATABASE_URL: database.url, REDIS_URL: redis.url, CUTROOM_DATA_DIR: dataDir, CUTROOM_OUTBOUND_ALLOW: "127.0.0.1",
    CUTROOM_STARTUP_KEY: "off", CUTROOM_WORKERS: "off", PORT: "0", CUTROOM_QUEUE_CONCURRENCY: "render=2,render_segment=1",
  };
  const db = await openDatabase({ databaseUrl: database.url, dataDir });
  const prisma = db.prisma;
  const children: Child[] = [];
  try {
    await migrate(db.sql);
    const workspaceId = await createWorkspace(prisma, "Showcase bench");
    await prisma.$transaction((tx) => addCredits(tx, { workspaceId, amount: 10_000, actionType: "grant" }));
    const { secret } = await createApiKey(prisma, { workspaceId, mode: "live", scopes: ["*:*"] });
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    const api = await start([process.execPath, "--max-semi-space-size=32", "--import", "tsx", "src/main.ts"], env, /running at (http:\/\/\S+)/);
    children.push(api);
    const call = async (route: string, body: unknown) => {
      const answer = await fetch(`${api.url}${route}`, { method: "POST", headers, body: JSON.stringify(body) });
      const json = (await answer.json()) as Record<string, unknown>;
      if (!answer.ok) throw new Error(`${route} answered ${answer.status}: ${JSON.stringify(json)}`);
      return json;
    };
    const videos: Record<string, string> = {};
    for (const [name, entry] of Object.entries(set)) {
      videos[name] = (await call("/api/v1/videos", { video_name: name, video_format: entry.format, composition: entry.composition })).video_id as string;
    }
    /** A render through the service, timed from renders.create until the record says completed. */
    const render = async (name: string, output: unknown = {}) => {
      const started = performance.now();
      const { render_id: renderId } = await call("/api/v1/actions/renders.create", { video_id: videos[name], output });
      for (;;) {
        const row = (await (await fetch(`${api.url}/api/v1/renders/${renderId as string}`, { headers })).json()) as { render_status: string; error_message?: string; segments?: { total: number } };
        if (row.render_status === "completed") return { ms: performance.now() - started, segments: row.segments?.total ?? 1, phases: renderPhases(pool, renderId as string) };
        if (row.render_status === "failed") throw new Error(`${name} failed: ${row.error_message}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // A video's segments are reused by its next render: every timed render gets a fresh video.
    const fresh = async (name: keyof typeof set) => {
      videos[name] = (await call("/api/v1/videos", { video_name: name, video_format: set[name].format, composition: set[name].composition })).video_id as string;
    };

    const rows: string[] = [];
    const breakdown: string[] = [];
    const PHASES = ["download", "loudness", "encode", "plan", "sound", "segments_wait", "join", "derivatives", "quality", "store"];
    /** One row of "where the time goes": each phase, and what no phase covers (queue, polling, records). */
    const explain = (label: string, served: { ms: number; phases: Record<string, number> }) => {
      const covered = Object.values(served.phases).reduce((sum, value) => sum + value, 0);
      breakdown.push(`| ${label} | ${PHASES.map((phase) => served.phases[phase] ?? "").join(" | ")} | ${Math.round(served.ms - covered)} |`);
    };
    const measureShowcase = async (name: keyof typeof set, workerCount: string) => {
      console.log(`${name}: bare ffmpeg …`);
      const bareMs = await bare(set[name].composition, set[name].format, byUrl, {});
      console.log(`${name}: through the service (${workerCount}) …`);
      await fresh(name);
      const served = await render(name);
      explain(`${name}, ${workerCount}`, served);
      const length = set[name].composition.duration;
      rows.push(`| ${name} | ${length} s | ${workerCount} | ${served.segments} | ${Math.round(served.ms)} | ${Math.round(bareMs)} | ${(served.ms / bareMs).toFixed(2)}× | ${(served.ms / 1000 / length).toFixed(2)} |`);
      return served.ms;
    };

    // Two workers, each pinned to its own core: explainer, short, long; then long with one.
    let pool = await workers(["0", "1"], env);
    // One untimed render first: ffmpeg's, the workers' and the fonts' first start.
    await render("short", { resolution: "preview", quality: "draft" });
    await measureShowcase("explainer", "2 pinned");
    await fresh("explainer");
    const preview = await render("explainer", { resolution: "preview", quality: "draft" });
    explain("explainer preview", preview);
    const previewMs = preview.ms;
    await fresh("explainer");
    const fullMs = (await render("explainer")).ms;
    const stillMs = (await render("explainer", { format: "jpg", at: seconds(30) / 2 })).ms;
    await measureShowcase("short", "2 pinned");
    const longTwo = await measureShowcase("long", "2 pinned");
    await Promise.all(pool.map(stop));
    pool = await workers(["0"], env);
    await fresh("long");
    console.log("long: through the service (1 pinned) …");
    const longOneServed = await render("long");
    explain("long, 1 pinned", longOneServed);
    const longOne = longOneServed.ms;
    await Promise.all(pool.map(stop));
    const longLength = set.long.composition.duration;
    rows.push(`| long | ${longLength} s | 1 pinned | | ${Math.round(longOne)} | | | ${(longOne / 1000 / longLength).toFixed(2)} |`);

    const section = [
      "## Render speed (npm run bench -- --render)",
      "",
      `${new Date().toISOString()} · ${os.cpus().length} cores · ${os.cpus()[0]?.model ?? ""} · ffmpeg ${(await run(FFMPEG_PATH, ["-version"])).stdout.split("\n")[0]?.split(" ")[2] ?? "?"}${SCALE < 1 ? ` · **BENCH_RENDER_SCALE=${SCALE}: compositions shortened, figures not comparable**` : ""}`,
      "Service: renders.create until GET /api/v1/renders/{id} says completed (1 API process, workers pinned with taskset, `render_segment=1` each, split threshold 20 s), so the queue, segments, join, derivatives (poster, thumbnail, contact sheet) and quality report count.",
      "Bare: the same graph in one piece as ffmpeg commands run directly (loudness pass and encode; no derivatives, no quality report), unpinned.",
      "",
      "| composition | length | workers | segments | service ms | bare ffmpeg ms | ratio | real-time factor (service) |",
      "|---|---|---|---|---|---|---|---|",
      ...rows,
      "",
      `long: 2 workers ${(longOne / longTwo).toFixed(2)}× faster than 1 (goal ≥ 1.7×).`,
      `explainer preview (360p draft): ${Math.round(previewMs)} ms, ${Math.round((previewMs / fullMs) * 100)} % of its full render (${Math.round(fullMs)} ms; goal ≤ 15 %).`,
      `explainer still (jpg at ${seconds(30) / 2} s): ${Math.round(stillMs)} ms through the service.`,
      "",
      "Where the service's time goes (ms, from the worker's \"render completed\" log, `phases_ms`): download of the media; one-piece renders: loudness pass, encode; split renders: plan (segment commands and hashes), sound (loudness pass and sound track), waiting for the segments, join; then derivatives (poster, thumbnail, contact sheet), quality report, storing the files; the rest is queueing, status moves and the bench's 100-ms polling.",
      "",
      `| render | ${PHASES.join(" | ")} | rest |`,
      `|---|${PHASES.map(() => "---").join("|")}|---|`,
      ...breakdown,
      "",
    ].join("\n");
    const previous = await readFile(RESULTS, "utf8").catch(() => "# Benchmark results\n");
    const at = previous.indexOf("## Render speed");
    const next = at < 0 ? -1 : previous.indexOf("\n## ", at + 1);
    const updated = at < 0 ? `${previous.trimEnd()}\n\n${section}` : `${previous.slice(0, at)}${section}${next < 0 ? "" : previous.slice(next + 1)}`;
    await writeFile(RESULTS, updated.endsWith("\n") ? updated : `${updated}\n`);
    console.log(section);
  } finally {
    for (const child of children) await stop(child);
    server.close();
    await db.close();
    await redis.stop();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
