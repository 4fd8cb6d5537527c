// Requests Node's HTTP parser refuses before the app sees them — request line and headers over
// 16 KiB, a request not received within the server's timeouts, bytes that are not HTTP — still
// get the contract's envelope (with a request id) instead of Node's bare status line.
import type { Socket } from "node:net";
import { ApiError } from "../errors/api-error.js";
import { errorEnvelope } from "../errors/envelope.js";
import { runInRequestContext } from "../context/request-context.js";
import { newId } from "../ids.js";
import { SERVER_METHODS } from "./request-target.js";

function refusalFor(code: string | undefined): ApiError | undefined {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError("request_header_fields_too_large", "The request line and headers are larger than the server accepts (16 KiB).", {
        hint: "Send long values in the body, not in the URL or headers.",
      });
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError("request_timeout", "The request was not received in time.", { hint: "Send the whole request, headers and body, without pausing." });
    case "ECONNRESET":
      return undefined; // nobody left to answer
    default:
      return new ApiError("invalid_request", "The request is not well-formed HTTP.");
  }
}

const REASONS: Record<number, string> = { 400: "Bad Request", 405: "Method Not Allowed", 408: "Request Timeout", 431: "Request Header Fields Too Large" };

/** Writes the envelope of `refusal` on a raw socket and closes it. */
function answerOnSocket(socket: Socket, refusal: ApiError, publicBaseUrl: string | undefined): void {
  const requestId = newId("request");
  const body = runInRequestContext({ requestId, baseUrl: publicBaseUrl ?? "" }, () => JSON.stringify(errorEnvelope(refusal)));
  const extra = Object.entries(refusal.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.end(
    `HTTP/1.1 ${refusal.status} ${REASONS[refusal.status] ?? "Bad Request"}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      extra +
      "Connection: close\r\n\r\n" +
      body,
  );
}

/** A `clientError` listener for the HTTP server. */
export function answerClientError(publicBaseUrl: string | undefined) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    const refusal = refusalFor(error.code);
    // An answer already under way (or a socket already closing) cannot take another one.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!refusal || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    answerOnSocket(socket, refusal, publicBaseUrl);
  };
}

/**
 * A `connect` listener: Node hands CONNECT requests (a proxy's tunnel) to it instead of the app,
 * and closes the socket without a word when nobody listens. The service is not a proxy.
 */
export function answerConnect(publicBaseUrl: string | undefined) {
  return (_request: unknown, socket: Socket): void => {
    if (!socket.writable) return void socket.destroy();
    answerOnSocket(
      socket,
      new ApiError("method_not_allowed", "CONNECT is not allowed: this service is not a proxy.", {
        headers: { Allow: SERVER_METHODS },
        details: { allowed_methods: SERVER_METHODS.split(", ") },
      }),
      publicBaseUrl,
    );
  };
}
