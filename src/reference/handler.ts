// /docs: the API reference and the error codes page. Like health they answer without a key: they
// hold only the contract, never data. The reference is Redoc's standalone bundle, served from
// node_modules, rendering /docs/openapi.json, the same document /api/v1/openapi.json serves to a
// key, built in-process so it is always the running service's own.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { ApiError } from "../errors/api-error.js";
import { methodNotAllowed } from "../web/responses.js";
import { errorCodesPage } from "./errors-page.js";
import { DOCS_NAV } from "../web/html.js";
import { Response } from "../response.js";

export const DOCS_PATH = "/docs";

export interface ReferenceDependencies {
  /** The OpenAPI document of the running service. */
  openApiDocument(): Record<string, unknown>;
}

const REDOC_BUNDLE = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");
// The one address the bundle loads from another host: the logo beside "API docs by Redocly" in
// the menu. An empty data: URL makes the image fail at once, which Redoc answers by dropping it
// (the credit's text and link stay).
const REDOC_CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";

async function readRedocBundle(): Promise<string> {
  return (await readFile(REDOC_BUNDLE, "utf8")).replaceAll(REDOC_CDN_LOGO, "data:,");
}

// Nothing on these pages may come from another host; the browser enforces it too.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The path browsers ask for an icon by themselves, whatever page they show. */
export const FAVICON_PATH = "/favicon.ico";

const PAGES = {
  icon: FAVICON_PATH,
  reference: `${DOCS_PATH}`,
  openapi: `${DOCS_PATH}/openapi.json`,
  redoc: `${DOCS_PATH}/assets/redoc.standalone.js`,
  errors: `${DOCS_PATH}/api/errors`,
} as const;

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cutroom API reference</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<style>
body { margin: 0; }
header { background: #1d2330; padding: 0.6rem 1.5rem; font: 15px/1.5 system-ui, sans-serif; }
header a { color: #fff; margin-right: 1.5rem; text-decoration: none; }
header a:first-child { font-weight: 600; }
</style>
</head>
<body>
<header>${DOCS_NAV}</header>
<redoc spec-url="${PAGES.openapi}" hide-hostname="true" path-in-middle-panel="true"></redoc>
<script src="${PAGES.redoc}"></script>
</body>
</html>
`;

/** The route name a request to /docs… is logged under. */
export function docsRouteName(path: string): string {
  const normalised = path.replace(/\/+$/, "") || DOCS_PATH;
  return (Object.values(PAGES) as string[]).includes(normalised) ? normalised : `${DOCS_PATH}/{page}`;
}

export function isDocsPath(path: string): boolean {
  return path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`) || path === FAVICON_PATH;
}

/** A clapperboard-like mark: an SVG, which browsers take for /favicon.ico as they do an ICO. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d2330"/><path d="M6 12h20v13H6z" fill="#fff"/><path d="M6 7l20-3 1 5-20 3z" fill="#e4572e"/></svg>`;

export function createReferenceHandler(dependencies: ReferenceDependencies) {
  let redocBundle: Promise<string> | undefined;
  let errorsPage: string | undefined;

  function answer(request: Request, body: string, contentType: string, cacheControl = "no-cache"): Response {
    const headers = { "content-type": contentType, "cache-control": cacheControl, "content-security-policy": CONTENT_SECURITY_POLICY };
    return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
  }

  return async function serveReference(request: Request, url: URL): Promise<Response> {
    const path = url.pathname.replace(/\/+$/, "") || DOCS_PATH;
    if (request.method !== "GET" && request.method !== "HEAD") throw methodNotAllowed(request.method, path, "GET, HEAD");
    switch (path) {
      case PAGES.icon:
        return answer(request, FAVICON, "image/svg+xml", "public, max-age=86400");
      case PAGES.reference:
        return answer(request, REFERENCE_PAGE, "text/html; charset=utf-8");
      case PAGES.openapi:
        return answer(request, JSON.stringify(dependencies.openApiDocument()), "application/json; charset=utf-8");
      case PAGES.redoc:
        // The bundle changes only with the installed redoc version.
        return answer(request, await (redocBundle ??= readRedocBundle()), "text/javascript; charset=utf-8", "public, max-age=86400");
      case PAGES.errors:
        return answer(request, (errorsPage ??= errorCodesPage()), "text/html; charset=utf-8");
      default:
        throw new ApiError("not_found", `No documentation page at ${path}.`, {
          hint: `The API reference is at ${PAGES.reference}, the error codes at ${PAGES.errors}.`,
        });
    }
  };
}
