// The stand-in's shared vocabulary: route names, the record of a call, and what a route handler
// receives and returns. Kept apart from the server so each provider's routes live in their own file.
import type { IncomingHttpHeaders } from "node:http";
import type { StandInMedia } from "./media.js";

export type StandInRoute =
  | "openai.chat"
  | "openai.images.generations"
  | "openai.images.edits"
  | "openai.audio.speech"
  | "openai.audio.transcriptions"
  | "fal.submit"
  | "fal.status"
  | "fal.result"
  | "fal.cancel"
  | "searxng.search"
  | "tavily.search"
  | "elevenlabs.speech"
  | "media"
  | "web";

/** One request the stand-in received. */
export interface StandInCall {
  route: StandInRoute;
  method: string;
  path: string;
  /** The model the request named (body `model`, fal's endpoint, ElevenLabs' `model_id`). */
  model?: string;
  /** The credential the client sent (Bearer, `Key`, `xi-api-key`), to check keys are passed as they should be. */
  credential?: string;
  /** A summary of the body: counts and short fields, never media bytes. */
  summary: Record<string, unknown>;
  /** Milliseconds since the stand-in started, when the request arrived. */
  at: number;
  /** Chat: the system message and the user text, whole, for tests of what a prompt carries. */
  messages?: { system: string; user: string };
  /** Chat: the JSON schema the answer was asked to fit (`response_format.json_schema.schema`). */
  schema?: Record<string, unknown>;
  /** The status answered (set once the answer is sent). */
  status?: number;
}

export interface RouteRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as JSON, or undefined when it is not. */
  json(): unknown;
  /** The body as multipart form data. */
  form(): Promise<FormData>;
}

export interface RouteReply {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON. */
  body: Buffer | Uint8Array | string | object;
}

export interface RouteContext {
  /** Base URL of the stand-in, no trailing slash. */
  baseUrl: string;
  media: StandInMedia;
  /** The answer scripted with answerNext for this route, if any (consumed). */
  scripted(): unknown;
  /** The record of this call; handlers fill `model` and `summary`. */
  call: StandInCall;
}

export type RouteHandler = (request: RouteRequest, context: RouteContext, match: RegExpExecArray) => Promise<RouteReply>;

export interface RouteDefinition {
  route: StandInRoute;
  method: string;
  pattern: RegExp;
  handler: RouteHandler;
}

/** The error body each provider family answers with, so clients parse failures as they would for real. */
export function errorBody(route: StandInRoute, status: number, message: string): object {
  if (route.startsWith("openai.")) return { error: { message, type: status === 429 ? "rate_limit_error" : "server_error", code: status === 429 ? "rate_limit_exceeded" : `http_${status}` } };
  if (route.startsWith("fal.")) return { detail: message };
  if (route === "elevenlabs.speech") return { detail: { status: status === 429 ? "too_many_concurrent_requests" : "server_error", message } };
  return { error: message };
}

/** Words of a text, for summaries and scripted-looking answers. */
export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}']+/gu) ?? [];
}
