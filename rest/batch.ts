// POST /api/v1/batch (contract 4.5): up to 20 requests run one after another, each through the
// whole service as if sent on its own (same key, so the same authentication, scopes, limits and
// billing), each with its own request id. The envelope is always 200; every member carries its
// own status, headers and body.
import { z } from "zod";
import { ApiError } from "../src/errors/api-error.js";
import { parseOrThrow } from "../src/validation/issues.js";

import { MAX_BATCH_MEMBERS } from "../src/contract.js";
/** The verbs a member may use: the ones any route of the API could answer (others get 405). */
const MEMBER_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

const memberSchema = z.strictObject({
  id: z.string().min(1).max(200),
  // Any HTTP verb: a wrong one is answered by its route (405), like a request of its own. Verbs a
  // request cannot carry at all (CONNECT, TRACE and other inventions) are the member's 422.
  method: z
    .string()
    .transform((method) => method.toUpperCase())
    .pipe(z.enum(MEMBER_METHODS)),
  path: z.string().regex(/^\/v1\//, "a member path is written /v1/..."),
  body: z.record(z.string(), z.unknown()).optional(),
});

const batchSchema = z.strictObject({ requests: z.array(z.unknown()) });

/** Headers a member inherits from the batch call (the credential and workspace selection). */
const INHERITED_HEADERS = ["authorization", "x-api-key", "x-workspace-id", "origin", "user-agent"];
/** Response headers worth reporting per member. */
const REPORTED_HEADERS = ["x-request-id", "x-test-mode", "allow", "retry-after", "content-type"];

export type Dispatch = (request: Request) => Promise<Response>;

export async function runBatch(request: Request, rawBody: unknown, dispatch: Dispatch) {
  const { requests } = parseOrThrow(batchSchema, rawBody ?? {});
  if (requests.length > MAX_BATCH_MEMBERS) {
    throw new ApiError("payload_too_large", `A batch takes at most ${MAX_BATCH_MEMBERS} requests; this one has ${requests.length}.`, {
      details: { max_members: MAX_BATCH_MEMBERS, members: requests.length },
    });
  }
  // Validate every member before running any, so a malformed batch runs nothing.
  const members = requests.map((member, index) => {
    const result = memberSchema.safeParse(member);
    if (!result.success) {
      throw new ApiError("validation_failed", `requests.${index} is not a valid batch member.`, {
        param: `requests.${index}`,
        details: { issues: result.error.issues.map((issue) => ({ path: ["requests", index, ...issue.path].join("."), message: issue.message, type: "any.invalid" })) },
      });
    }
    // Judge the path the member will really reach: URL resolution removes dot segments.
    const target = new URL(`/api${result.data.path}`, "http://batch.invalid");
    const path = target.pathname.replace(/\/+$/, "");
    if (result.data.path.includes("#") || !path.startsWith("/api/v1/") || /\/\/|\/\.\.?(\/|$)/.test(result.data.path.split("?")[0]!)) {
      throw new ApiError("invalid_request", "A member path is a plain /v1/... path, without dot segments, empty segments or a fragment.", { param: `requests.${index}.path` });
    }
    if (path === "/api/v1/batch") {
      throw new ApiError("invalid_request", "A batch cannot contain another batch.", { param: `requests.${index}.path` });
    }
    return result.data;
  });
  const ids = new Set<string>();
  for (const [index, member] of members.entries()) {
    if (ids.has(member.id)) throw new ApiError("invalid_request", `Member id '${member.id}' is used twice.`, { param: `requests.${index}.id` });
    ids.add(member.id);
  }

  const origin = new URL(request.url).origin;
  const results = [];
  for (const member of members) {
    const headers = new Headers();
    for (const name of INHERITED_HEADERS) {
      const value = request.headers.get(name);
      if (value) headers.set(name, value);
    }
    if (member.body !== undefined) headers.set("content-type", "application/json");
    // A member's answer is embedded in the batch's JSON: an action that answers bytes gives its
    // link instead (docs/actions.md, "Binary answers").
    headers.set("accept", "application/json");
    const response = await dispatch(
      new Request(`${origin}/api${member.path}`, {
        method: member.method,
        headers,
        body: member.body === undefined || member.method === "GET" || member.method === "HEAD" ? undefined : JSON.stringify(member.body),
      }),
    );
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    results.push({
      id: member.id,
      status: response.status,
      headers: Object.fromEntries(REPORTED_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)]] : []))),
      body,
    });
  }
  return { object: "batch", data: results };
}
