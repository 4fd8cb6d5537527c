// scripts.add_source (catalog 4.8): reads a page and attaches it to the script as a source, with
// its title, its readable text (kept as `excerpt`, bounded) and a snippet: the passage the script
// relies on when one is sent (`snippet_found` says whether the page holds it), else the page's own
// summary or first paragraph. The page is read by the page reader through the URL guard (public
// addresses only, each redirect checked again), never inside a transaction; a page that cannot be
// read is a 400 naming `url`, never a 5xx. The same address attached again refreshes its source.
// A test key's call is validated (the script must be the caller's) and quoted: nothing is fetched.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, request, text, url } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { toApiError } from "../../errors/envelope.js";
import { newId } from "../../ids.js";
import type { PageResult } from "../../providers/types.js";
import { pageReadFailure } from "../../providers/errors.js";
import { openForWrite, readScript } from "../document.js";
import { presentSource, sourceShape } from "../present.js";
import { echoedRequest } from "../summary.js";

/** Characters of the page's readable text kept with the source. */
export const EXCERPT_CHARACTERS = 20_000;
/** Characters of the page's own snippet when the caller sends none. */
const SNIPPET_CHARACTERS = 500;

const flat = (value: string) => value.replace(/\s+/gu, " ").trim();

function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`;
}

/**
 * A page that cannot be read, at `param` (`url` here; the writing passes that read pages name
 * their own field): 502 upstream_error when its server failed or stalled, else 400.
 */
export function unreadable(error: unknown, param = "url"): ApiError {
  // The same page failure is the same code everywhere a page is read (src/providers/errors.ts).
  return toApiError(pageReadFailure(toApiError(error), param));
}

export default defineAction({
  name: "scripts.add_source",
  method: "POST",
  scopes: ["scripts:write"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    url: url(),
    snippet: text(10_000).optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "reads a URL and attaches it as a source",
  mode: "model",
  uses: ["page"],
  output: z.object({
    object: z.literal("script_source"),
    script_id: z.string(),
    source: sourceShape,
    created: z.boolean().describe("false when the address was attached already: its source was refreshed."),
    snippet_found: z.boolean().nullable().describe("Whether the page holds the snippet sent (case and spacing aside); null when none was sent."),
    read_url: z.string().describe("The address the page was read from, after redirects."),
    characters: z.number().int().describe("Characters of readable text on the page."),
    edit_id: z.string(),
    revision: z.number().int(),
    request: echoedRequest,
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const page = await setup.page();
    return { script_id: script.script_id, url: page.url, snippet: page.passage };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
  },
  async run({ graphql, providers, commit }, input) {
    let page: PageResult;
    try {
      page = await providers.get("page").read(input.url);
    } catch (error) {
      throw unreadable(error);
    }
    const snippet = input.snippet?.trim() ? input.snippet.trim() : clip(flat(page.excerpt ?? page.text.split(/\n\s*\n/u)[0] ?? ""), SNIPPET_CHARACTERS) || null;
    const snippetFound = input.snippet?.trim() ? flat(page.text).toLowerCase().includes(flat(input.snippet).toLowerCase()) : null;
    const fields = { title: page.title.trim() || null, snippet, excerpt: clip(page.text, EXCERPT_CHARACTERS), status: "confirmed" };
    return commit(async (tx) => {
      const write = await openForWrite(tx, graphql, input.script_id, "scripts.add_source");
      const existing = await tx.scriptSource.findFirst({ where: { script_id: input.script_id, kind: "source", url: input.url }, orderBy: { created_at: "asc" } });
      const source = existing
        ? await tx.scriptSource.update({ where: { source_id: existing.source_id }, data: fields })
        : await tx.scriptSource.create({ data: { source_id: newId("script_source"), script_id: input.script_id, kind: "source", url: input.url, ...fields } });
      const editId = await write.edit({
        kind: existing ? "source.refresh" : "source.add",
        before: existing ? presentSource(existing) : undefined,
        after: presentSource(source),
      });
      const script = await write.done();
      return {
        object: "script_source" as const,
        script_id: input.script_id,
        source: presentSource(source),
        created: !existing,
        snippet_found: snippetFound,
        read_url: page.url,
        characters: page.text.length,
        edit_id: editId,
        revision: script.revision,
        request: input.request ?? null,
      };
    });
  },
});
