// Render cost: a render through the service (renders.create → queued → the worker's operation →
// stored MP4 → completed, as a client sees it by polling) against the bare ffmpeg command the
// worker builds for the same composition, run directly. The difference is what the service adds:
// the queue, the claim and lease, the media guard, probing the output, storage and the writes.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createApiKey } from "../src/auth/key-service.js";
import { addCredits } from "../src/credits/ledger.js";
import type { PrismaClient } from "../src/generated/prisma/client.js";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { FORMAT_SIZES, parseComposition } from "../src/renders/composition.js";
import { buildRenderCommand } from "../src/renders/render-command.js";
import { DEFAULT_OUTPUT } from "../src/renders/output-spec.js";

const run = promisify(execFile);
const ROUNDS = 3;

/** 6 s landscape: colour, a text box over part of it, and a tone. */
const COMPOSITION = {
  duration: 6,
  fps: 24,
  background_color: "#102030",
  layers: [
    { type: "color", color: "#305070", start: 2, end: 4 },
    { type: "text", text: "Rendered for the benchmark", font_size: 72, color: "white", box_color: "#00000080", y: 900 },
    { type: "tone", frequency: 440, volume: 0.3, start: 0.5, end: 5.5 },
  ],
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function bareFfmpeg(preset: string): Promise<number> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-bench-render-"));
  try {
    const command = await buildRenderCommand({
      composition: parseComposition(COMPOSITION),
      formatSize: FORMAT_SIZES.landscape,
      output: DEFAULT_OUTPUT,
      media: new Map(),
      workDir,
      outputPath: path.join(workDir, "output.mp4"),
      preset,
    });
    for (const file of command.files) await writeFile(file.path, file.content);
    const started = performance.now();
    await run(FFMPEG_PATH, command.args, { cwd: workDir, maxBuffer: 64 * 1024 * 1024 });
    return performance.now() - started;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function throughService(serviceUrl: string, headers: Record<string, string>, videoId: string): Promise<number> {
  const started = performance.now();
  const created = await fetch(`${serviceUrl}/api/v1/actions/renders.create`, { method: "POST", headers, body: JSON.stringify({ video_id: videoId }) });
  const body = (await created.json()) as { render_id?: string; error?: unknown };
  if (!created.ok || !body.render_id) throw new Error(`renders.create answered ${created.status}: ${JSON.stringify(body)}`);
  for (;;) {
    const answer = (await (await fetch(`${serviceUrl}/api/v1/renders/${body.render_id}`, { headers })).json()) as { render_status?: string; error_message?: string };
    if (answer.render_status === "completed") return performance.now() - started;
    if (answer.render_status === "failed") throw new Error(`the render failed: ${answer.error_message}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The "Render cost" section of bench/results.md. */
export async function renderSection(prisma: PrismaClient, workspaceId: string, serviceUrl: string, preset: string): Promise<string> {
  const { secret } = await createApiKey(prisma, { workspaceId, mode: "live", scopes: ["*:*"] });
  await prisma.$transaction((tx) => addCredits(tx, { workspaceId, amount: 10 * ROUNDS + 10, actionType: "grant" }));
  const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
  const video = await fetch(`${serviceUrl}/api/v1/videos`, { method: "POST", headers, body: JSON.stringify({ video_name: "bench render", video_format: "landscape", composition: COMPOSITION }) });
  const { video_id: videoId } = (await video.json()) as { video_id: string };

  // One untimed round each first: ffmpeg's and the worker's first start.
  await bareFfmpeg(preset);
  await throughService(serviceUrl, headers, videoId);
  const bare: number[] = [];
  const service: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(await bareFfmpeg(preset));
    service.push(await throughService(serviceUrl, headers, videoId));
  }
  const ratio = median(service) / median(bare);
  console.error(`render: service ${median(service).toFixed(0)} ms vs bare ffmpeg ${median(bare).toFixed(0)} ms (${ratio.toFixed(2)}x)`);
  return [
    "## Render cost",
    "",
    `A ${COMPOSITION.duration} s landscape composition (colour, text, tone; preset ${preset}), median of ${ROUNDS} rounds after one untimed round each.`,
    "Service: renders.create until GET /api/v1/renders/{id} says completed (polled every 50 ms), so the queue, claim, output probe, storage and writes count.",
    "Bare: the same ffmpeg arguments the worker builds, run directly.",
    "",
    "| path | median ms | rounds (ms) |",
    "|---|---|---|",
    `| through the service | ${median(service).toFixed(0)} | ${service.map((value) => value.toFixed(0)).join(", ")} |`,
    `| bare ffmpeg | ${median(bare).toFixed(0)} | ${bare.map((value) => value.toFixed(0)).join(", ")} |`,
    "",
    `Ratio: ${ratio.toFixed(2)}× (goal ≤ 1.3×).`,
    "",
  ].join("\n");
}
