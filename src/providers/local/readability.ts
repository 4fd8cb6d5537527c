// `local/readability`: reads a page a user named. The page is fetched only through the URL guard
// (OutboundGuard.fetch via guardedGet: public https, or the allow-list; redirects are followed by
// hand, each hop checked again), parsed with linkedom and reduced to its main text by Mozilla's Readability.
// A refused or broken address is the caller's problem (400 invalid_request, param `url`); a site
// that fails or stalls is an upstream_error like any provider's.
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { ApiError } from "../../errors/api-error.js";
import { OutboundFetchError, type FetchResult } from "../../outbound/url-guard.js";
import { callMeta, limitedCall } from "../call.js";
import { ProviderAnswerError, ProviderHttpError } from "../errors.js";
import { MAX_REDIRECTS, TooManyRedirectsError, guardedGet, headerOf } from "../guarded-get.js";
import type { ModelChoice } from "../../config/providers.js";
import { targetOf, type ProviderRuntime } from "../runtime.js";
import type { PageReader } from "../types.js";

const MAX_PAGE_BYTES = 5 * 1024 * 1024;
const USER_AGENT = "Cutroom-PageReader/1";

/** The slice of the DOM walked here (linkedom's nodes; the project compiles without DOM types). */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}
interface DomDocument {
  body: DomNode | null;
  title: string;
}

const BLOCKS = new Set(["P", "DIV", "SECTION", "ARTICLE", "MAIN", "HEADER", "FOOTER", "ASIDE", "BLOCKQUOTE", "PRE", "UL", "OL", "LI", "DL", "DT", "DD", "TABLE", "TR", "FIGURE", "FIGCAPTION", "H1", "H2", "H3", "H4", "H5", "H6", "HR"]);
const SKIPPED = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG"]);

/** Text of a subtree with one blank line between blocks (paragraphs, headings, list items). */
export function blockText(root: DomNode): string {
  const parts: string[] = [];
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      parts.push(node.textContent ?? "");
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const name = node.nodeName.toUpperCase();
    if (SKIPPED.has(name)) return;
    if (name === "BR") {
      parts.push("\n");
      return;
    }
    const block = BLOCKS.has(name);
    if (block) parts.push("\n\n");
    for (let index = 0; index < node.childNodes.length; index++) walk(node.childNodes[index]!);
    if (block) parts.push("\n\n");
  };
  walk(root);
  return parts
    .join("")
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/[ \t\r\f\v\u00a0]+/g, " ").replace(/ *\n */g, "\n").trim())
    .filter(Boolean)
    .join("\n\n");
}

/** Decodes the body with the charset the header (or a <meta charset>) names; UTF-8 otherwise. */
function decode(body: Buffer, contentType: string): string {
  const declared = /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 2048).toString("latin1"))?.[1];
  try {
    return new TextDecoder(declared ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function refused(error: OutboundFetchError): ApiError {
  return new ApiError("invalid_request", `The page address cannot be read: ${error.message}`, { param: "url", details: { reason: error.reason } });
}

export function readabilityPages(choice: ModelChoice, runtime: ProviderRuntime): PageReader {
  const target = targetOf(choice);
  const { timeoutMs } = runtime.settings;

  /** GET through the guard (each redirect hop checked again); a refused address or a 4xx is the caller's. */
  async function fetchPage(url: string): Promise<{ url: string; result: FetchResult }> {
    let page: { url: string; result: FetchResult };
    try {
      page = await guardedGet(runtime.outbound, url, { timeoutMs, maxResponseBytes: MAX_PAGE_BYTES, headers: { accept: "text/html,application/xhtml+xml,text/plain;q=0.8", "user-agent": USER_AGENT } });
    } catch (error) {
      if (error instanceof OutboundFetchError && !["timeout", "too_large", "connection_failed"].includes(error.reason)) throw refused(error);
      if (error instanceof TooManyRedirectsError) throw new ApiError("invalid_request", `The page redirects more than ${MAX_REDIRECTS} times.`, { param: "url" });
      throw error;
    }
    const { status } = page.result;
    if (status >= 400 && status < 500 && status !== 429) {
      throw new ApiError("invalid_request", `The page answered HTTP ${status}.`, { param: "url", details: { status } });
    }
    if (status < 200 || status >= 300) throw new ProviderHttpError(status);
    return page;
  }

  return {
    async read(url, options) {
      const { value, durationMs } = await limitedCall(target, timeoutMs, options, async () => {
        const page = await fetchPage(url);
        const contentType = headerOf(page.result, "content-type") ?? "text/html";
        const source = decode(page.result.body, contentType);
        if (/^text\/plain/i.test(contentType)) {
          return { url: page.url, title: "", text: source.replace(/\r\n/g, "\n").trim() };
        }
        if (!/html|xml/i.test(contentType)) {
          throw new ApiError("invalid_request", `The address is not a web page (${contentType.split(";")[0]}).`, { param: "url" });
        }
        const { document } = parseHTML(source) as unknown as { document: DomDocument };
        const fallbackTitle = document.title?.trim() ?? "";
        const article = new Readability(document as never).parse();
        if (article?.content) {
          const { document: content } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`) as unknown as { document: DomDocument };
          const text = content.body ? blockText(content.body) : (article.textContent ?? "").trim();
          return {
            url: page.url,
            title: article.title?.trim() || fallbackTitle,
            text,
            ...(article.byline?.trim() && { byline: article.byline.trim() }),
            ...(article.excerpt?.trim() && { excerpt: article.excerpt.trim() }),
          };
        }
        // Pages too short for Readability (a landing page) still have text worth returning.
        const text = document.body ? blockText(document.body) : "";
        if (!text) throw new ProviderAnswerError("the page has no readable text");
        return { url: page.url, title: fallbackTitle, text };
      });
      return { ...value, meta: callMeta(target, { requests: 1 }, durationMs) };
    },
  };
}
