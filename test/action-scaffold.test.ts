// npm run new:action: a pending declaration moves, as written, out of its family's catalog file
// into an action file of its own with an output and a handler to write, plus a test that fails
// until the behaviour is written. Every action of the catalog is live now, so it is checked on a
// copy of a family file from when tools were pending (fixtures/catalog-tools.ts.txt), without
// writing anything.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ACTIONS } from "../src/actions/catalog.js";
import { isLiveAction } from "../src/actions/framework/action.js";
import { scaffoldAction } from "../src/actions/scaffold.js";

const FIXTURE = readFileSync(new URL("./fixtures/catalog-tools.ts.txt", import.meta.url), "utf8");
/** The names the fixture declares, in order. */
const fixtureNames = [...FIXTURE.matchAll(/name: "([a-z_]+\.[a-z_]+)"/gu)].map((match) => match[1]!);

function syntaxErrors(source: string): string[] {
  const output = ts.transpileModule(source, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return (output.diagnostics ?? []).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

describe("new:action", () => {
  it("has nothing pending in the real catalog: every action has its file", () => {
    expect(ACTIONS.filter((action) => !isLiveAction(action)).map((action) => action.name)).toEqual([]);
  });

  it.each([fixtureNames[0]!, fixtureNames.at(-1)!])("moves %s into a file of its own", (name) => {
    const source = FIXTURE;
    const scaffold = scaffoldAction(source, name)!;
    expect(scaffold).toBeDefined();
    // The family file keeps every other pending declaration, and parses.
    expect(scaffold.remaining).not.toContain(`name: "${name}"`);
    for (const other of fixtureNames.filter((item) => item !== name)) expect(scaffold.remaining, other).toContain(`name: "${other}"`);
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
