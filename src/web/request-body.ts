// The body cap of every route (docs/limits.md), counted as the bytes stream in: Content-Length
// is a claim a chunked request does not make, so the bytes themselves are counted and reading
// stops at the first one past the cap. The rest is never read; the answer closes the connection.
import { ApiError } from "../errors/api-error.js";

export function payloadTooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`, {
    details: { max_bytes: maxBytes },
    // The unread rest of the body must not be drained (or parsed as a next request).
    headers: { Connection: "close" },
  });
}

/** Does the request carry a body (declared, or chunked)? */
export function carriesBody(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return false;
  const length = request.headers.get("content-length");
  return request.headers.has("transfer-encoding") || (length !== null && length !== "0");
}

/** A declared length over the cap is refused before anything else is done with the request. */
export function assertDeclaredLengthWithin(request: Request, maxBytes: number): void {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw payloadTooLarge(maxBytes);
}

/**
 * The request with its body read into memory, at most `maxBytes` of it; 413 as soon as a byte
 * beyond arrives. Everything downstream (GraphQL, REST, idempotency fingerprints) reads the copy.
 */
export async function withBufferedBody(request: Request, maxBytes: number): Promise<Request> {
  if (!request.body || request.method === "GET" || request.method === "HEAD") return request;
  assertDeclaredLengthWithin(request, maxBytes);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw payloadTooLarge(maxBytes);
      chunks.push(value);
    }
  } finally {
    // Stop reading without destroying the socket: the 413 still has to be written to it.
    reader.releaseLock();
  }
  // The copy is of the server adapter's own Request class (@whatwg-node's), as the original is:
  // Node's global Request (undici) costs several times more to build, signal listeners included.
  const RequestClass = request.constructor as typeof Request;
  return new RequestClass(request.url, { method: request.method, headers: request.headers, body: Buffer.concat(chunks), signal: request.signal });
}
