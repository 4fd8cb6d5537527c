// docs/architecture.md walks a request through the code as it is: every repository path it names
// (in backticks, in the request diagram, anywhere) exists. Placeholders (`src/<domain>/index.ts`,
// `src/platform/*.generated.ts`) are patterns, not paths, and are left out.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Repository paths a markdown text names: tokens starting with a top-level folder of the repository. */
function namedPaths(markdown: string): string[] {
  const found = new Set<string>();
  for (const [token] of markdown.matchAll(/(?<![\w./-])(?:src|rest|test|tools|prisma|docs|schema)\/[^\s`'"()|,;]*/g)) {
    if (/[<>…*{}]/.test(token)) continue;
    found.add(token.replace(/[.:]+$/, ""));
  }
  return [...found].sort();
}

const missing = (paths: readonly string[]) => paths.filter((named) => !existsSync(path.join(ROOT, named)));

describe("docs/architecture.md", () => {
  const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");

  it("names only paths that exist", () => {
    const paths = namedPaths(doc);
    // The walk names the layers it goes through: a doc that lost them would pass the check below.
    expect(paths).toEqual(expect.arrayContaining([
      "src/http/app.ts", "src/graphql-endpoint/compiled-execution.ts", "rest/sofa.ts", "src/actions/framework/runner.ts",
      "src/db/transaction.ts", "src/outbox/record-event.ts", "src/operations/worker.ts", "src/platform/workers.ts", "tools/eslint/layers.js",
    ]));
    expect(missing(paths)).toEqual([]);
  });

  it("has the sections a contributor looks for", () => {
    const headings = [...doc.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings).toEqual(expect.arrayContaining(["A request, end to end", "Layers", "Add a resource", "Add an action", "Add a provider", "Add an operation kind"]));
  });

  it("the check finds a path that does not exist, and leaves placeholders and prose alone", () => {
    const sample = "See `src/http/app.ts`, src/db/gone.ts, `src/<domain>/index.ts`, `src/platform/*.generated.ts` and resources/service.";
    expect(namedPaths(sample)).toEqual(["src/db/gone.ts", "src/http/app.ts"]);
    expect(missing(namedPaths(sample))).toEqual(["src/db/gone.ts"]);
  });
});
