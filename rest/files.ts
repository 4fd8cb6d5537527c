// GET and HEAD /files/<key>?expires=…&signature=…: stored files (render outputs) behind signed,
// expiring URLs (src/storage/signed-urls.ts). No API key: the signature is the permission. A wrong
// or expired signature answers 403, a missing file 404, both in the service's error envelope. One
// byte range (`Range: bytes=a-b`, `a-`, `-n`) is honoured with 206, so players can seek.
import { Readable } from "node:stream";
import { ApiError } from "../src/errors/api-error.js";
import type { Storage, StoredFile, ByteRange } from "../src/storage/storage.js";
import { FileNotFoundError } from "../src/storage/storage.js";
import type { FileUrlCheck } from "../src/storage/signed-urls.js";
import { errorResponse, methodNotAllowed } from "../src/web/responses.js";

const REFUSALS: Record<Exclude<FileUrlCheck, { ok: true }>["reason"], string> = {
  malformed: "This file URL is not a complete signed URL (expires and signature are required).",
  signature_invalid: "The signature of this file URL does not match.",
  expired: "This file URL has expired.",
};

type RangeAnswer = { kind: "whole" } | { kind: "partial"; range: ByteRange } | { kind: "unsatisfiable" };

/** Reads a single-range `Range` header; anything else is answered with the whole file. */
function parseRange(header: string | null, size: number): RangeAnswer {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return { kind: "whole" };
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return { kind: "unsatisfiable" };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || end < start) return { kind: "unsatisfiable" };
  return { kind: "partial", range: { start, end } };
}

function fileHeaders(file: StoredFile, expires: number): Record<string, string> {
  const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
  return {
    "content-type": file.contentType,
    "accept-ranges": "bytes",
    "cache-control": `private, max-age=${maxAge}`,
    ...(file.lastModified && { "last-modified": file.lastModified.toUTCString() }),
    ...(file.etag && { etag: file.etag }),
  };
}

function notFound(): Response {
  return errorResponse(new ApiError("not_found", "No file is stored under this URL."));
}

export function createFilesHandler(storage: Storage, verify: (url: URL) => FileUrlCheck): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return errorResponse(methodNotAllowed(request.method, new URL(request.url).pathname, "GET, HEAD"));
    }
    const check = verify(new URL(request.url));
    if (!check.ok) {
      return errorResponse(new ApiError("link_invalid", REFUSALS[check.reason], {
        details: { reason: check.reason },
        hint: "Read the record again (e.g. the render) for a fresh output URL.",
      }));
    }
    const file = await storage.stat(check.key);
    if (!file) return notFound();
    const headers = fileHeaders(file, check.expires);
    const range = parseRange(request.headers.get("range"), file.size);
    if (range.kind === "unsatisfiable") {
      return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${file.size}` } });
    }
    const partial = range.kind === "partial" ? range.range : undefined;
    const length = partial ? partial.end - partial.start + 1 : file.size;
    const status = partial ? 206 : 200;
    const answerHeaders = { ...headers, "content-length": String(length), ...(partial && { "content-range": `bytes ${partial.start}-${partial.end}/${file.size}` }) };
    if (request.method === "HEAD" || length === 0) return new Response(null, { status, headers: answerHeaders });
    let stream: Readable;
    try {
      stream = await storage.open(check.key, partial);
    } catch (error) {
      if (error instanceof FileNotFoundError) return notFound();
      throw error;
    }
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers: answerHeaders });
  };
}
