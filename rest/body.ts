// Reads a JSON request body with a size cap: 400 invalid_json for anything that does not parse,
// 413 payload_too_large past the cap.
import { ApiError } from "../src/errors/api-error.js";
import { MAX_BODY_BYTES } from "../src/contract.js";
import { assertStorableJson } from "../src/validation/storable.js";
import { assertJsonContentType } from "../src/http/media-type.js";

export function payloadTooLarge(): ApiError {
  return new ApiError("payload_too_large", `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
}

export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw payloadTooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw payloadTooLarge();
  if (text.trim() === "") return undefined;
  // Only a body declared JSON is read as JSON; form data or text gets 415 (src/http/media-type.ts).
  assertJsonContentType(request.headers);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ApiError("invalid_json", `The body is not valid JSON: ${(error as Error).message}`, {
      hint: "Send a JSON object with Content-Type: application/json.",
    });
  }
  // Valid JSON can still hold what PostgreSQL refuses (NUL, lone surrogates) or nest deep enough
  // to overflow a serialiser: a 422 naming the field, never a 500 later.
  assertStorableJson(body);
  return body;
}
