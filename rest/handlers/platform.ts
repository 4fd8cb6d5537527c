// An operation outside the resource table (actions, account routes): its body becomes `input`,
// or its query params its arguments; it may answer a file or a stream of events.
import type { GraphQLContext } from "../../src/graphql/context.js";
import type { PlatformOperation } from "../../src/registry/operations.js";
import { currentRequestContext, type RequestContext } from "../../src/context/request-context.js";
import { wantsJson } from "../../src/actions/framework/binary.js";
import { SseChannel } from "../../src/actions/framework/stream.js";
import { errorEnvelope, toApiError } from "../../src/errors/envelope.js";
import { withEnvelope } from "../../src/web/responses.js";
import { Response } from "../../src/response.js";
import { assertOnlyParams } from "../list-query.js";
import { envelope, readRecordBody, type CallOperation } from "./shared.js";

export async function handlePlatform(call: CallOperation, request: Request, url: URL, operation: PlatformOperation, context: GraphQLContext): Promise<Response> {
  const sofaUrl = new URL(url.pathname, url);
  let body: Record<string, unknown> | undefined;
  if (operation.input === "query") {
    assertOnlyParams(url.searchParams, operation.queryParams ?? []);
    sofaUrl.search = url.search;
  } else if (operation.input === "query_input") {
    const input = operation.decodeQuery ? operation.decodeQuery(url.searchParams) : Object.fromEntries(url.searchParams);
    sofaUrl.searchParams.set("input", JSON.stringify(input));
  } else {
    assertOnlyParams(url.searchParams, []);
    if (operation.input === "body") body = { input: await readRecordBody(request) };
  }
  if (operation.streams && body?.input && (body.input as Record<string, unknown>).stream === true && !wantsJson(request.headers.get("accept"))) {
    return streamedAnswer(call, context, operation, sofaUrl, body);
  }
  // An action that answers a file sends its bytes, unless the client asked for JSON (a link).
  const binary = operation.binary && !wantsJson(request.headers.get("accept")) ? (currentRequestContext()?.binaryAnswer ?? noSlot()) : undefined;
  const answer = await call(context, operation, sofaUrl, undefined, body, operation.fullSelection);
  if (binary?.file && answer.ok) return fileResponse(binary.file, request.method === "HEAD");
  return envelope(answer, request.method === "HEAD");
}

/**
 * Server-Sent Events of a streaming action (src/actions/framework/stream.ts): the stream goes
 * out once the handler opens it; the call's end is its last event. A call that ends before
 * opening it (refused, or a test key's quote) answers as JSON.
 */
async function streamedAnswer(call: CallOperation, context: GraphQLContext, operation: PlatformOperation, sofaUrl: URL, body: Record<string, unknown>): Promise<Response> {
  const channel = new SseChannel();
  const request = currentRequestContext();
  if (request) request.streamAnswer = channel;
  const answer = call(context, operation, sofaUrl, undefined, body, operation.fullSelection);
  await Promise.race([channel.opened, answer.catch(() => undefined)]);
  if (!channel.isOpen) return envelope(await answer, false);
  void answer
    .then(async (result) => channel.send(result.ok ? "done" : "error", result.ok ? withEnvelope((result.data ?? {}) as Record<string, unknown>) : await result.response.json()))
    .catch((error: unknown) => channel.send("error", errorEnvelope(toApiError(error))))
    .finally(() => channel.close());
  return new Response(channel.readable, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" } });
}

/** A fresh slot in the request context for the bytes of a binary answer. */
function noSlot(): NonNullable<RequestContext["binaryAnswer"]> {
  const context = currentRequestContext();
  const slot = {};
  if (context) context.binaryAnswer = slot;
  return slot;
}

function fileResponse(file: { data: Uint8Array; contentType: string; filename: string }, headOnly: boolean): Response {
  return new Response(headOnly ? null : new Uint8Array(file.data), {
    status: 200,
    headers: { "content-type": file.contentType, "content-length": String(file.data.byteLength), "content-disposition": `inline; filename="${file.filename}"` },
  });
}
