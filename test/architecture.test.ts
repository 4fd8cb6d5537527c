// The import structure (docs/architecture.md, "Layers"): no import cycle spans more than one
// folder, and the lint rule that keeps imports running down the layers refuses what it should.
// ESLint runs the rule over the code in `npm test`; this file checks the rule itself and the one
// property a per-import rule cannot see, cycles.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { refusal } from "../tools/eslint/layers.js";

const root = fileURLToPath(new URL("../", import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(relative);
    return entry.name.endsWith(".ts") ? [relative] : [];
  });
}

/** file → the files it imports (relative imports only), both repository-relative. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sourceFiles("src"), ...sourceFiles("rest")]) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, file), "utf8"), true, true);
    graph.set(
      file,
      importedFiles
        .map(({ fileName }) => fileName)
        .filter((name) => name.startsWith("."))
        .map((name) => path.posix.normalize(path.posix.join(path.posix.dirname(file), name)).replace(/\.js$/, ".ts")),
    );
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the import structure", () => {
  it("has no import cycle spanning more than one folder", () => {
    const spanning = cycles(importGraph()).filter((component) => new Set(component.map((file) => path.posix.dirname(file))).size > 1);
    expect(spanning).toEqual([]);
  });

  it("finds a cycle when there is one (the check above can fail)", () => {
    const graph = new Map([["src/a/x.ts", ["src/b/y.ts"]], ["src/b/y.ts", ["src/a/x.ts"]], ["src/c/z.ts", []]]);
    expect(cycles(graph)).toEqual([["src/a/x.ts", "src/b/y.ts"]]);
  });

  it("lets a file import its own folder, lower layers, and another domain's face", () => {
    expect(refusal("src/renders/render-operation.ts", "src/renders/composition.ts")).toBeUndefined();
    expect(refusal("src/renders/render-operation.ts", "src/operations/kind.ts")).toBeUndefined();
    expect(refusal("src/db/transaction.ts", "src/context/request-context.ts")).toBeUndefined();
    expect(refusal("src/scripts/actions/to_video.ts", "src/video-model/index.ts")).toBeUndefined();
    expect(refusal("rest/handler.ts", "src/resources/service.ts")).toBeUndefined();
    expect(refusal("src/platform/schema.ts", "src/api-keys/graphql.ts")).toBeUndefined();
  });

  it("refuses a lower layer importing a higher one, another domain's inside, and the composition root", () => {
    expect(refusal("src/actions/framework/input.ts", "src/video-model/resource.ts")).toMatch(/lower layer never imports a higher one/);
    expect(refusal("src/config.ts", "src/publishing/settings.ts")).toMatch(/lower layer/);
    expect(refusal("src/graphql/context.ts", "rest/responses.ts")).toMatch(/lower layer/);
    expect(refusal("src/account/actions/limits.ts", "rest/body.ts")).toMatch(/lower layer/);
    expect(refusal("src/db/transaction.ts", "src/guards/idempotency.ts")).toMatch(/lower layer/);
    expect(refusal("src/faceless/video.ts", "src/video-model/resource.ts")).toMatch(/another domain's inside/);
    expect(refusal("src/resources/service.ts", "src/platform/resources.generated.ts")).toMatch(/composition root/);
  });
});
