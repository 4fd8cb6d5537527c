// The request line's target (RFC 9112, 3.2) in each of its forms, read before the request becomes
// a fetch Request (whose URL is built from the target and the Host header):
// - origin-form (`/api/v1/videos?limit=2`): served as is;
// - absolute-form (`http://host/api/v1/videos`): served as its origin-form, the target's
//   authority standing for the Host header (3.2.2);
// - asterisk-form (`*`): only `OPTIONS *` means something (the server's methods: 204 + Allow),
//   any other method with it is the envelope's 400;
// - anything else, or a Host that is not a host (3.2): the envelope's 400.
// A request that is refused here is still answered by the app, with a request id and a log line.
import type { IncomingMessage } from "node:http";
import { ApiError } from "../errors/api-error.js";
import { Response } from "../response.js";

/** Every method the service answers somewhere (for `OPTIONS *`). */
export const SERVER_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

type TargetForm = "origin" | "absolute" | "asterisk" | "invalid" | "invalid_host";

const forms = new WeakMap<IncomingMessage, TargetForm>();

/** RFC 9110 7.2: uri-host [":" port], the host an IP literal or a reg-name. */
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)(:\d{0,5})?$/;

function hostIsValid(host: string | undefined): boolean {
  if (host === undefined) return true;
  if (!HOST.test(host)) return false;
  try {
    return new URL(`http://${host}/`).host.length > 0;
  } catch {
    return false;
  }
}

function formOf(target: string): TargetForm {
  if (target === "*") return "asterisk";
  if (target.startsWith("/")) return "origin";
  return /^https?:\/\//i.test(target) ? "absolute" : "invalid";
}

/**
 * Rewrites the Node request so that the URL built from it is valid, remembering the form the
 * client sent for `refusalOf`. Runs once per request, before the adapter sees it.
 */
export function normalizeRequestTarget(request: IncomingMessage): void {
  const target = request.url ?? "/";
  let form = formOf(target);
  if (form === "absolute") {
    try {
      const url = new URL(target);
      request.url = `${url.pathname}${url.search}`;
      request.headers.host = url.host;
    } catch {
      form = "invalid";
    }
  }
  if (form === "origin") {
    try {
      new URL(target, "http://localhost");
    } catch {
      form = "invalid";
    }
  }
  if (form !== "origin" && form !== "absolute") request.url = "/";
  if (!hostIsValid(request.headers.host)) {
    // The URL is built from the Host header: one that is not a host would make it unreadable.
    request.headers.host = "localhost";
    if (form === "origin") form = "invalid_host";
  }
  forms.set(request, form);
}

/**
 * The answer a request gets for its target alone, or undefined when it is to be served. Read once:
 * batch members run on the same Node request and are served.
 */
export function answerForTarget(request: IncomingMessage | undefined, method: string): { response?: Response; error?: ApiError; path: string } | undefined {
  if (!request) return undefined;
  const form = forms.get(request);
  forms.delete(request);
  switch (form) {
    case "asterisk":
      if (method === "OPTIONS") return { path: "*", response: new Response(null, { status: 204, headers: { Allow: SERVER_METHODS } }) };
      return {
        path: "*",
        error: new ApiError("invalid_request", `The request target * is only for OPTIONS; ${method} needs a path.`, {
          hint: "Send a path such as /api/v1/videos, or OPTIONS * to list the server's methods.",
          details: { request_target: "*", allowed_methods: ["OPTIONS"] },
        }),
      };
    case "invalid":
      return {
        path: "/",
        error: new ApiError("invalid_request", "The request target is neither a path (origin-form), an absolute http(s) URL nor *.", {
          hint: "Send a path such as /api/v1/videos.",
          details: { request_target_forms: ["origin-form", "absolute-form", "asterisk-form"] },
        }),
      };
    case "invalid_host":
      return {
        path: "/",
        error: new ApiError("invalid_request", "The Host header is not a host name (with an optional port).", { param: "Host" }),
      };
    default:
      return undefined;
  }
}
