// fal's queue protocol under /fal: submit (POST /fal/{endpoint...}) answers a request id and its
// status and response URLs; status (GET /fal/{owner}/{app}/requests/{id}/status, the URL the fal
// client builds, without the endpoint's sub-path) goes IN_QUEUE, then IN_PROGRESS with logs that
// state a percentage, then COMPLETED; the result (GET …/requests/{id}) has the shape of the real
// model family: `{ video }` for text/image-to-video and AI avatars, `{ audio, seed, tags, lyrics }`
// for ACE-Step-like music, `{ image }` for background removal. Media URLs point at /media.
import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { probeMedia } from "../../../src/media/probe.js";
import type { MediaFile } from "./media.js";
import type { RouteContext, RouteDefinition, RouteReply } from "./protocol.js";

export interface FalJob {
  id: string;
  endpoint: string;
  /** `owner/app`, what status and result URLs use. */
  app: string;
  input: Record<string, unknown>;
  polls: number;
}

export type FalOutputKind = "video" | "avatar" | "music" | "cutout";

/** The family of a fal endpoint, from its id (the stand-in knows the families, not every model). */
export function falKindOf(endpoint: string): FalOutputKind | undefined {
  if (/avatar|lipsync|lip-sync|sadtalker|omnihuman/i.test(endpoint)) return "avatar";
  if (/video/i.test(endpoint)) return "video";
  if (/ace-step|music|lyria|stable-audio/i.test(endpoint)) return "music";
  if (/birefnet|background|rembg|bria|cutout/i.test(endpoint)) return "cutout";
  return undefined;
}

function dataUriBytes(value: unknown): Buffer | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^data:[^;,]*;base64,(.*)$/s.exec(value);
  return match ? Buffer.from(match[1]!, "base64") : undefined;
}

const ASPECT_SIZES: Record<string, [number, number]> = { "16:9": [320, 180], "9:16": [180, 320], "1:1": [240, 240] };

function fileOf(context: RouteContext, file: MediaFile, extra: Record<string, unknown> = {}) {
  return { url: `${context.baseUrl}/media/${file.name}`, content_type: file.mediaType, file_name: file.name, ...extra };
}

async function durationOf(context: RouteContext, bytes: Buffer): Promise<number | undefined> {
  const scratch = path.join(context.media.dir, `fal-input-${randomUUID()}`);
  await writeFile(scratch, bytes);
  try {
    return (await probeMedia(scratch)).duration;
  } catch {
    return undefined;
  } finally {
    await rm(scratch, { force: true });
  }
}

export function falRoutes(jobs: Map<string, FalJob>): RouteDefinition[] {
  const urls = (context: RouteContext, job: FalJob) => {
    const base = `${context.baseUrl}/fal/${job.app}/requests/${job.id}`;
    return { request_id: job.id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };
  const unknown = (): RouteReply => ({ status: 404, body: { detail: "Request not found" } });

  async function result(job: FalJob, context: RouteContext): Promise<RouteReply> {
    const scripted = context.scripted();
    if (scripted !== undefined) return { status: 200, body: scripted as object };
    const input = job.input;
    switch (falKindOf(job.endpoint)) {
      case "video": {
        const [width, height] = ASPECT_SIZES[typeof input.aspect_ratio === "string" ? input.aspect_ratio : "16:9"] ?? ASPECT_SIZES["16:9"]!;
        const seconds = Number(input.duration ?? 5) || 5;
        return { status: 200, body: { video: fileOf(context, await context.media.video(width, height, seconds)) } };
      }
      case "avatar": {
        const audio = dataUriBytes(input.audio_url);
        const seconds = (audio && (await durationOf(context, audio))) || 3;
        return { status: 200, body: { video: fileOf(context, await context.media.video(240, 240, seconds)), duration: seconds } };
      }
      case "music": {
        const seconds = Number(input.duration ?? 60) || 60;
        return { status: 200, body: { audio: fileOf(context, await context.media.audio(seconds, "wav", 22_050)), seed: 42, tags: input.tags ?? "", lyrics: input.lyrics ?? "" } };
      }
      case "cutout": {
        const image = dataUriBytes(input.image_url);
        const width = image && image.toString("latin1", 1, 4) === "PNG" ? image.readUInt32BE(16) : 512;
        const height = image && image.toString("latin1", 1, 4) === "PNG" ? image.readUInt32BE(20) : 512;
        return { status: 200, body: { image: fileOf(context, await context.media.cutoutPng(width, height), { width, height }) } };
      }
      default:
        return { status: 422, body: { detail: [{ loc: ["body"], msg: `The stand-in knows no fal model '${job.endpoint}'.`, type: "value_error" }] } };
    }
  }

  return [
    {
      route: "fal.status",
      method: "GET",
      pattern: /^\/fal\/([^/]+\/[^/]+)\/requests\/([^/]+)\/status$/,
      async handler(request, context, match) {
        const job = jobs.get(match[2]!);
        if (!job || job.app !== match[1]) return unknown();
        job.polls++;
        context.call.model = job.endpoint;
        context.call.summary = { request_id: job.id, poll: job.polls, logs: request.query.get("logs") };
        const base = urls(context, job);
        if (job.polls === 1) return { status: 202, body: { status: "IN_QUEUE", queue_position: 0, ...base } };
        const logs = [
          { message: "Starting the stand-in job", level: "INFO", source: "USER", timestamp: new Date().toISOString() },
          { message: `Progress ${job.polls === 2 ? 50 : 100}%`, level: "INFO", source: "USER", timestamp: new Date().toISOString() },
        ];
        if (job.polls === 2) return { status: 202, body: { status: "IN_PROGRESS", logs, ...base } };
        return { status: 200, body: { status: "COMPLETED", logs, metrics: { inference_time: 0.05 }, ...base } };
      },
    },
    {
      route: "fal.cancel",
      method: "PUT",
      pattern: /^\/fal\/([^/]+\/[^/]+)\/requests\/([^/]+)\/cancel$/,
      async handler(_request, context, match) {
        const job = jobs.get(match[2]!);
        if (!job) return unknown();
        context.call.model = job.endpoint;
        return { status: 202, body: { status: "CANCELLATION_REQUESTED" } };
      },
    },
    {
      route: "fal.result",
      method: "GET",
      pattern: /^\/fal\/([^/]+\/[^/]+)\/requests\/([^/]+)$/,
      async handler(_request, context, match) {
        const job = jobs.get(match[2]!);
        if (!job || job.app !== match[1]) return unknown();
        context.call.model = job.endpoint;
        context.call.summary = { request_id: job.id };
        if (job.polls < 3) return { status: 400, body: { detail: "Request is still in progress" } };
        return result(job, context);
      },
    },
    {
      route: "fal.submit",
      method: "POST",
      pattern: /^\/fal\/(.+[^/])\/?$/,
      async handler(request, context, match) {
        const endpoint = match[1]!;
        const parts = endpoint.split("/");
        const input = request.json();
        if (parts.length < 2 || !input || typeof input !== "object") return { status: 422, body: { detail: [{ loc: ["body"], msg: "a JSON input is required", type: "value_error" }] } };
        const job: FalJob = { id: randomUUID(), endpoint, app: `${parts[0]}/${parts[1]}`, input: input as Record<string, unknown>, polls: 0 };
        jobs.set(job.id, job);
        context.call.model = endpoint;
        context.call.summary = {
          request_id: job.id,
          input_keys: Object.keys(job.input).sort(),
          ...Object.fromEntries(Object.entries(job.input).filter(([, value]) => typeof value !== "string" || !value.startsWith("data:")).map(([key, value]) => [key, typeof value === "string" ? value.slice(0, 120) : value])),
          data_uris: Object.entries(job.input).filter(([, value]) => typeof value === "string" && value.startsWith("data:")).map(([key, value]) => `${key}:${(value as string).slice(5, (value as string).indexOf(";"))}`),
        };
        return { status: 200, body: { ...urls(context, job), status: "IN_QUEUE", queue_position: 0 } };
      },
    },
  ];
}
