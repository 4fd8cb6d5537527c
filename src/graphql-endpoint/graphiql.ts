// GraphiQL at /graphql, served entirely by the service: @graphql-yoga/render-graphiql inlines the
// editor's scripts, styles and workers into the page, so it works on a machine without internet
// (yoga's default loads them from a CDN and shows only "Loading…" offline). The page opens with
// an Authorization template in its headers editor: queries need a key, the page itself does not.
import { renderGraphiQL as renderInlinedGraphiQL } from "@graphql-yoga/render-graphiql";
import type { GraphiQLOptions } from "graphql-yoga";

/** What the headers editor holds when the page opens; the README tells users to replace it. */
export const GRAPHIQL_HEADERS_TEMPLATE = JSON.stringify({ Authorization: "Bearer <your key>" }, null, 2);

const DEFAULT_QUERY = `# Replace <your key> in Headers (below) with a key,
# e.g. the one npm start printed, then press run.
{
  videos(limit: 5) {
    data { video_id video_name video_format }
    has_more
    next_cursor
  }
}
`;

export const GRAPHIQL_OPTIONS: GraphiQLOptions = {
  title: "Cutroom GraphQL",
  headers: GRAPHIQL_HEADERS_TEMPLATE,
  defaultQuery: DEFAULT_QUERY,
  // Open with the headers editor showing, so the key's place is the first thing seen.
  defaultEditorToolsVisibility: "headers",
};

// The page is about 9 MB (the editor is inlined); it depends only on the options, so it is built once.
const pages = new Map<string, string>();

export function renderGraphiQL(options: GraphiQLOptions): string {
  const cacheKey = JSON.stringify(options);
  let page = pages.get(cacheKey);
  if (!page) pages.set(cacheKey, (page = renderInlinedGraphiQL(options)));
  return page;
}
