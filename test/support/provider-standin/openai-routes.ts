// The OpenAI-compatible routes under /openai/v1: Chat Completions (plain text, or a JSON instance
// valid under a sent json_schema; image parts counted), image generations and edits (b64_json
// PNGs of the asked size and count), speech (a tone roughly as long as the text takes to say) and
// transcriptions (verbose_json with words and segments spread over the recording's real length).
import { createHash } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { probeMedia } from "../../../src/media/probe.js";
import { instanceFor, type JsonSchema } from "./json-schema-instance.js";
import { wordsOf, type RouteDefinition, type RouteReply } from "./protocol.js";

/** Seconds of speech per character at speed 1 (about 150 words a minute). */
export const SPEECH_SECONDS_PER_CHARACTER = 0.06;
const DEFAULT_TRANSCRIPT = "This is the stand-in transcript of the recording you sent";

interface ChatMessage {
  role: string;
  content: string | { type: string; text?: string; image_url?: { url: string } }[] | null;
}

function badRequest(message: string): RouteReply {
  return { status: 400, body: { error: { message, type: "invalid_request_error", code: "invalid_request" } } };
}

function colourOf(text: string): string {
  return createHash("md5").update(text).digest("hex").slice(0, 6);
}

/** Width and height from a PNG header (the stand-in's own reading, independent of the code under test). */
function pngDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const buffer = Buffer.from(bytes);
  if (buffer.length < 24 || buffer.toString("latin1", 1, 4) !== "PNG") return undefined;
  return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
}

function sizeOf(value: unknown, fallback: { width: number; height: number }): { width: number; height: number } | undefined {
  if (value === undefined || value === null || value === "" || value === "auto") return fallback;
  const match = typeof value === "string" ? /^(\d+)x(\d+)$/.exec(value) : null;
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** Pieces of an answer as a model streams them: a word and the space before it. */
function piecesOf(content: string): string[] {
  return content.match(/\s*\S+/g) ?? [content];
}

/**
 * A `stream: true` chat answer, as OpenAI sends it (text/event-stream): a first chunk with the
 * role, one `chat.completion.chunk` per piece of text, a last one with finish_reason, the usage
 * chunk (empty choices) when stream_options.include_usage asked for it, then `data: [DONE]`.
 */
function streamedChat(id: string, model: string, content: string, usage: Record<string, number>, includeUsage: boolean): RouteReply {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, system_fingerprint: null, choices, ...extra })}\n\n`;
  const events = [
    chunk([{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }]),
    ...piecesOf(content).map((piece) => chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }]),
    ...(includeUsage ? [chunk([], { usage })] : []),
    "data: [DONE]\n\n",
  ];
  return { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" }, body: events.join("") };
}

export const openAiRoutes: RouteDefinition[] = [
  {
    route: "openai.chat",
    method: "POST",
    pattern: /^\/openai\/v1\/chat\/completions$/,
    async handler(request, context) {
      const body = request.json() as { model?: string; messages?: ChatMessage[]; response_format?: { type: string; json_schema?: { name?: string; schema?: JsonSchema; strict?: boolean } }; stream?: boolean; stream_options?: { include_usage?: boolean } } | undefined;
      if (!body?.model || !Array.isArray(body.messages)) return badRequest("model and messages are required");
      const texts: string[] = [];
      let images = 0;
      for (const message of body.messages) {
        if (typeof message.content === "string") {
          if (message.role === "user") texts.push(message.content);
          continue;
        }
        for (const part of message.content ?? []) {
          if (part.type === "text" && message.role === "user") texts.push(part.text ?? "");
          if (part.type === "image_url") {
            if (!part.image_url?.url) return badRequest("an image_url part needs a url");
            images++;
          }
        }
      }
      const prompt = texts.join("\n");
      const system = body.messages.filter((message) => message.role === "system" && typeof message.content === "string").map((message) => message.content as string).join("\n");
      context.call.messages = { system, user: prompt };
      const format = body.response_format;
      context.call.model = body.model;
      context.call.schema = format?.json_schema?.schema;
      context.call.summary = { messages: body.messages.length, images, response_format: format?.type ?? "text", schema_name: format?.json_schema?.name, prompt: prompt.slice(0, 120), ...(body.stream && { stream: true }) };
      const scripted = context.scripted();
      let content: string;
      if (scripted !== undefined) content = typeof scripted === "string" ? scripted : JSON.stringify(scripted);
      else if (format?.type === "json_schema") {
        if (!format.json_schema?.schema) return badRequest("json_schema.schema is required");
        content = JSON.stringify(instanceFor(format.json_schema.schema, prompt));
      } else if (format?.type === "json_object") content = JSON.stringify({ answer: `Stand-in answer to: ${prompt.slice(0, 80)}` });
      else content = `Stand-in answer to "${wordsOf(prompt).slice(0, 12).join(" ")}"${images ? ` (read ${images} image${images === 1 ? "" : "s"})` : ""}.`;
      const promptTokens = Math.ceil(prompt.length / 4) + 85 * images + 8 * body.messages.length;
      const completionTokens = Math.ceil(content.length / 4);
      const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
      if (body.stream) return streamedChat(`chatcmpl-standin-${context.call.at}`, body.model, content, usage, body.stream_options?.include_usage === true);
      return {
        status: 200,
        body: {
          id: `chatcmpl-standin-${context.call.at}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage,
        },
      };
    },
  },
  {
    route: "openai.images.generations",
    method: "POST",
    pattern: /^\/openai\/v1\/images\/generations$/,
    async handler(request, context) {
      const body = request.json() as { model?: string; prompt?: string; n?: number; size?: string; quality?: string } | undefined;
      if (!body?.model || !body.prompt) return badRequest("model and prompt are required");
      const size = sizeOf(body.size, { width: 1024, height: 1024 });
      if (!size) return badRequest(`size '${body.size}' is not WIDTHxHEIGHT`);
      const n = body.n ?? 1;
      context.call.model = body.model;
      context.call.summary = { prompt: body.prompt.slice(0, 120), n, size: `${size.width}x${size.height}`, quality: body.quality };
      const png = await context.media.bytes(await context.media.png(size.width, size.height, colourOf(body.prompt)));
      return { status: 200, body: { created: Math.floor(Date.now() / 1000), data: Array.from({ length: n }, () => ({ b64_json: png.toString("base64") })) } };
    },
  },
  {
    route: "openai.images.edits",
    method: "POST",
    pattern: /^\/openai\/v1\/images\/edits$/,
    async handler(request, context) {
      const form = await request.form();
      const model = form.get("model");
      const prompt = form.get("prompt");
      const images = [...form.getAll("image"), ...form.getAll("image[]")].filter((value): value is File => typeof value !== "string");
      if (typeof model !== "string" || typeof prompt !== "string" || images.length === 0) return badRequest("model, prompt and image are required");
      const first = pngDimensions(new Uint8Array(await images[0]!.arrayBuffer())) ?? { width: 1024, height: 1024 };
      const size = sizeOf(form.get("size"), first);
      if (!size) return badRequest("size is not WIDTHxHEIGHT");
      const n = Number(form.get("n") ?? 1);
      const mask = form.get("mask");
      context.call.model = model;
      context.call.summary = { prompt: prompt.slice(0, 120), n, size: `${size.width}x${size.height}`, images: images.length, image_types: images.map((image) => image.type), mask: mask !== null };
      const png = await context.media.bytes(await context.media.png(size.width, size.height, colourOf(`edit ${prompt}`)));
      return { status: 200, body: { created: Math.floor(Date.now() / 1000), data: Array.from({ length: n }, () => ({ b64_json: png.toString("base64") })) } };
    },
  },
  {
    route: "openai.audio.speech",
    method: "POST",
    pattern: /^\/openai\/v1\/audio\/speech$/,
    async handler(request, context) {
      const body = request.json() as { model?: string; input?: string; voice?: string; response_format?: string; speed?: number } | undefined;
      if (!body?.model || !body.input) return badRequest("model and input are required");
      const format = body.response_format ?? "mp3";
      if (format !== "mp3" && format !== "wav") return badRequest(`the stand-in answers mp3 or wav, not ${format}`);
      context.call.model = body.model;
      context.call.summary = { characters: body.input.length, voice: body.voice, format, speed: body.speed };
      const seconds = (body.input.length * SPEECH_SECONDS_PER_CHARACTER) / (body.speed ?? 1);
      const file = await context.media.audio(seconds, format);
      return { status: 200, headers: { "content-type": file.mediaType }, body: await context.media.bytes(file) };
    },
  },
  {
    route: "openai.audio.transcriptions",
    method: "POST",
    pattern: /^\/openai\/v1\/audio\/transcriptions$/,
    async handler(request, context) {
      const form = await request.form();
      const model = form.get("model");
      const file = form.get("file");
      if (typeof model !== "string" || file === null || typeof file === "string") return badRequest("model and file are required");
      const format = form.get("response_format");
      const responseFormat = typeof format === "string" ? format : "json";
      const granularities = form.getAll("timestamp_granularities[]").map(String);
      const bytes = Buffer.from(await file.arrayBuffer());
      const scratch = path.join(context.media.dir, `upload-${context.call.at}-${Math.random().toString(36).slice(2)}`);
      await writeFile(scratch, bytes);
      let duration: number;
      try {
        duration = (await probeMedia(scratch)).duration ?? 0;
      } catch {
        return badRequest("the file is not audio the stand-in can read");
      } finally {
        await rm(scratch, { force: true });
      }
      context.call.model = model;
      context.call.summary = { bytes: bytes.length, file_type: file.type, response_format: responseFormat, timestamp_granularities: granularities, language: form.get("language") };
      const scripted = context.scripted();
      const text = typeof scripted === "string" ? scripted : DEFAULT_TRANSCRIPT;
      if (responseFormat !== "verbose_json") return { status: 200, body: { text } };
      const words = wordsOf(text);
      const step = words.length > 0 ? duration / words.length : 0;
      const timed = words.map((word, index) => ({ word, start: Math.round(index * step * 100) / 100, end: Math.round((index + 1) * step * 100) / 100 }));
      return {
        status: 200,
        body: {
          task: "transcribe",
          language: "english",
          duration,
          text,
          ...(granularities.includes("word") && { words: timed }),
          segments: [{ id: 0, seek: 0, start: 0, end: duration, text, tokens: [], temperature: 0, avg_logprob: -0.1, compression_ratio: 1, no_speech_prob: 0.01 }],
        },
      };
    },
  },
];
