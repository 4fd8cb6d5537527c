// npm run new:action: a pending declaration moves, as written, out of its family's catalog file
// into an action file of its own with an output and a handler to write, plus a test that fails
// until the behaviour is written. Checked here on the real catalog files, without writing them.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ACTIONS } from "../src/actions/catalog.js";
import { isLiveAction } from "../src/actions/framework/action.js";
import { scaffoldAction } from "../src/actions/scaffold.js";

const pending = ACTIONS.filter((action) => !isLiveAction(action));

function syntaxErrors(source: string): string[] {
  const output = ts.transpileModule(source, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return (output.diagnostics ?? []).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

describe("new:action", () => {
  // One pending action of every family that still has some (its alphabetically first).
  const samples = [...new Map(pending.map((action) => [action.family, action.name] as const).reverse()).values()];
  it.each(samples)("moves %s into a file of its own", (name) => {
    const family = name.split(".")[0]!;
    const source = readFileSync(new URL(`../src/actions/catalog/${family}.ts`, import.meta.url), "utf8");
    const scaffold = scaffoldAction(source, name)!;
    expect(scaffold).toBeDefined();
    // The family file keeps every other pending declaration, and parses.
    expect(scaffold.remaining).not.toContain(`name: "${name}"`);
    for (const other of pending.filter((action) => action.family === family && action.name !== name)) expect(scaffold.remaining, other.name).toContain(`name: "${other.name}"`);
    expect(syntaxErrors(scaffold.remaining)).toEqual([]);
    // The action file holds the declaration as written, an output and a handler, and parses.
    expect(scaffold.actionSource).toContain(`name: "${name}"`);
    expect(scaffold.actionSource).toContain("export default defineAction({");
    expect(scaffold.actionSource).toMatch(/output: z\.object\(/);
    expect(syntaxErrors(scaffold.actionSource)).toEqual([]);
    // Its test fails until the behaviour is written.
    expect(scaffold.testSource).toContain('expect.fail("write the behaviour');
  });

  it("imports every field helper the declaration uses, and exports the family's own helpers it needs", () => {
    const source = readFileSync(new URL("./fixtures/catalog-tools.ts.txt", import.meta.url), "utf8");
    const { actionSource, remaining } = scaffoldAction(source, "tools.image_modification")!;
    expect(actionSource).toMatch(/import \{ [^}]*\bbase64\b[^}]*\} from "\.\.\/\.\.\/actions\/catalog\/tools\.js";/);
    expect(actionSource).toMatch(/import \{ [^}]*\bprompt\b[^}]*\} from "\.\.\/\.\.\/actions\/catalog\/define\.js";/);
    expect(remaining).toMatch(/export const base64 = /);
  });

  it("refuses an action that is not pending in that file", () => {
    const source = readFileSync(new URL("./fixtures/catalog-tools.ts.txt", import.meta.url), "utf8");
    expect(scaffoldAction(source, "renders.create")).toBeUndefined();
  });
});
