// Request bodies are JSON, declared as such (contract 4.1.2). A body sent as anything else (form
// data from `curl -d`, text/plain from a bare fetch, or no Content-Type at all) is refused with
// 415 unsupported_media_type instead of being parsed as JSON and failing in a confusing way.
import { ApiError } from "../errors/api-error.js";

/** `application/json` and the `+json` family (`application/merge-patch+json`), any parameters. */
export function isJsonMediaType(contentType: string | null): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" || (type !== undefined && /^application\/[a-z0-9.+-]+\+json$/.test(type));
}

export function assertJsonContentType(headers: Headers): void {
  const contentType = headers.get("content-type");
  if (isJsonMediaType(contentType)) return;
  const sent = contentType ? `Content-Type: ${contentType.split(";")[0]!.trim()}` : "no Content-Type";
  throw new ApiError("unsupported_media_type", `The body was sent with ${sent}; send it as JSON with Content-Type: application/json.`, {
    details: { content_type: contentType ?? null, accepted: ["application/json"] },
    hint: "With curl, add -H 'Content-Type: application/json' to -d.",
  });
}
