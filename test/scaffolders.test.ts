// The scaffolders (`npm run new:action`, `npm run new:resource`; docs/actions.md, "Writing an
// action", and docs/architecture.md, "Add a resource") run in a temporary copy of the repository:
// the files they write exist, the generated lists name them, what they write compiles once its
// TODOs are filled with a minimal implementation (the TypeScript compiler, on those files only),
// and the places left to fill are really there. An action the contract lists starts from its
// catalog row; one it does not list says so.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAction } from "../src/cli/new-action.js";
import { newResource } from "../src/cli/new-resource.js";
import { catalogRow } from "../src/cli/scaffold.js";
import { generatedLists } from "../src/platform/list-sources.js";

const repository = fileURLToPath(new URL("../", import.meta.url));
let copy: string;

/** A copy of what the scaffolders and the compiler read; node_modules and the generated client are linked. */
function copyRepository(): string {
  const target = mkdtempSync(path.join(os.tmpdir(), "cutroom-scaffold-"));
  const skipGenerated = (source: string) => path.relative(repository, source) !== path.join("src", "generated");
  for (const part of ["src", "rest", "test/support", "test/fixtures/action-catalog.md", "prisma/schema.prisma", "tsconfig.json", "package.json"]) {
    cpSync(path.join(repository, part), path.join(target, part), { recursive: true, filter: skipGenerated });
  }
  symlinkSync(path.join(repository, "node_modules"), path.join(target, "node_modules"), "dir");
  symlinkSync(path.join(repository, "src/generated"), path.join(target, "src/generated"), "dir");
  return target;
}

const read = (file: string) => readFileSync(path.join(copy, file), "utf8");
const edit = (file: string, change: (text: string) => string) => writeFileSync(path.join(copy, file), change(read(file)));

/**
 * The compiler's errors in these files of the copy: the program reads what they import, but only
 * these files are checked (a whole-project check takes minutes).
 */
function compileErrors(files: readonly string[]): string[] {
  const { config } = ts.readConfigFile(path.join(copy, "tsconfig.json"), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, copy);
  const program = ts.createProgram(files.map((file) => path.join(copy, file)), { ...options, noEmit: true });
  return files.flatMap((file) => {
    const source = program.getSourceFile(path.join(copy, file))!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (diagnostic) => `${file}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
    );
  });
}

beforeAll(() => {
  copy = copyRepository();
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("npm run new:action", () => {
  it("writes an action the contract lists from its catalog row, with its test, and the generated list picks it up", () => {
    unlinkSync(path.join(copy, "src/playground/actions/random_prompt.ts"));
    const { written, inCatalog } = newAction(copy, "playground.random_prompt");
    expect(inCatalog).toBe(true);
    expect(written).toEqual(["src/playground/actions/random_prompt.ts", "test/actions/playground.random_prompt.test.ts", "src/platform/actions.generated.ts"]);
    for (const file of written) expect(existsSync(path.join(copy, file)), file).toBe(true);

    const source = read("src/playground/actions/random_prompt.ts");
    const row = catalogRow(repository, "playground.random_prompt")!;
    expect(row).toMatchObject({ method: "POST", scopes: ["generations:execute"], credits: true, input: ["theme", "style"] });
    expect(source).toContain('name: "playground.random_prompt"');
    expect(source).toContain('scopes: ["generations:execute"]');
    expect(source).toContain("credits: true");
    expect(source).toContain(`purpose: ${JSON.stringify(row.purpose)}`);
    expect(source).toMatch(/theme: .*\n\s+style: /);
    expect(source).toContain("TODO");

    const tests = read("test/actions/playground.random_prompt.test.ts");
    expect(tests.match(/\n {2}it\(/g)).toHaveLength(3);
    expect(tests).toContain('"/api/v1/actions/playground.random_prompt"');
    // A test left as written fails: none passes before its author says what it checks.
    expect(tests).toContain('expect.unreachable("TODO');
    expect(tests).toContain('expect(error.param).toBe("TODO")');

    const list = read("src/platform/actions.generated.ts");
    expect(list).toContain('import playground_random_prompt from "../playground/actions/random_prompt.js";');
    expect(list).toEqual(generatedLists(path.join(copy, "src")).find(({ file }) => file === "platform/actions.generated.ts")!.source);
  });

  it("writes an action the contract does not list, saying it is not served until the contract lists it", () => {
    const { written, inCatalog } = newAction(copy, "tools.scaffold_probe");
    expect(inCatalog).toBe(false);
    const source = read("src/tools/actions/scaffold_probe.ts");
    expect(source).toContain("NOT in the contract's catalog");
    expect(read("src/platform/actions.generated.ts")).toContain('import tools_scaffold_probe from "../tools/actions/scaffold_probe.js";');
    expect(written).toContain("test/actions/tools.scaffold_probe.test.ts");
  });

  it("refuses a file that exists, a family outside the catalog and a name that is not <family>.<name>", () => {
    expect(() => newAction(copy, "tools.image_crop")).toThrow(/Refusing to overwrite src\/tools\/actions\/image_crop\.ts/);
    expect(() => newAction(copy, "gadgets.spin")).toThrow(/gadgets is not a family of the catalog/);
    expect(() => newAction(copy, "Tools.Crop")).toThrow(/snake_case/);
    expect(read("src/tools/actions/image_crop.ts")).toBe(readFileSync(path.join(repository, "src/tools/actions/image_crop.ts"), "utf8"));
  });
});

describe("npm run new:resource", () => {
  it("writes the declaration, its face and note, a migration, the Prisma model and a test; the list picks it up", () => {
    const written = newResource(copy, { name: "playlists", now: new Date("2030-01-02T03:04:05Z") });
    expect(written).toEqual([
      "src/playlists/resource.ts",
      "src/playlists/index.ts",
      "src/playlists/README.md",
      "prisma/migrations/20300102030405_playlists/migration.sql",
      "test/resources/playlists.test.ts",
      "prisma/schema.prisma",
      "src/platform/resources.generated.ts",
    ]);
    for (const file of written) expect(existsSync(path.join(copy, file)), file).toBe(true);
    const list = read("src/platform/resources.generated.ts");
    expect(list).toContain('import { playlists } from "../playlists/resource.js";');
    expect(list).toEqual(generatedLists(path.join(copy, "src")).find(({ file }) => file === "platform/resources.generated.ts")!.source);

    const migration = read("prisma/migrations/20300102030405_playlists/migration.sql");
    expect(migration).toContain('CREATE TABLE "playlists"');
    expect(migration).toContain('REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE');
    const schema = read("prisma/schema.prisma");
    expect(schema).toMatch(/^model Playlist \{\n {2}playlist_id +String +@id\n/m);
    expect(schema).toContain('@@map("playlists")');
    expect(/^model Workspace \{\n[\s\S]*?^\}/m.exec(schema)![0]).toMatch(/\n {2}playlists +Playlist\[\]\n/);
    expect(read("test/resources/playlists.test.ts").match(/\n {2}it\(/g)).toHaveLength(3);
  });

  it("refuses a resource whose declaration or model exists, and a name without a plural", () => {
    expect(() => newResource(copy, { name: "folders" })).toThrow(/already has a model Folder/);
    expect(() => newResource(copy, { name: "music" })).toThrow(/--kind/);
  });
});

describe("what the scaffolders write, once its TODOs are filled", () => {
  const actions = [
    ["src/playground/actions/random_prompt.ts", "playground_random_prompt"],
    ["src/tools/actions/scaffold_probe.ts", "tools_scaffold_probe"],
  ] as const;
  const written = [
    ...actions.map(([file]) => file),
    "test/actions/playground.random_prompt.test.ts",
    "test/actions/tools.scaffold_probe.test.ts",
    "src/playlists/resource.ts",
    "src/playlists/index.ts",
    "test/resources/playlists.test.ts",
  ];

  it("compiles, with the handlers written, the fields typed, and the resource's id prefix and scope group declared", () => {
    for (const [file, object] of actions) {
      edit(file, (text) => {
        expect(text).toMatch(/throw new Error\(".+ is not written yet"\);/);
        return text
          .replace(/z\.unknown\(\)\.optional\(\)/g, "z.string().max(1000).optional()")
          .replace(/throw new Error\(".+ is not written yet"\);/, `return { object: "${object}" as const };`);
      });
    }
    // The two declarations the resource names but cannot add itself (the compiler refuses it until then).
    const resource = read("src/playlists/resource.ts");
    expect(resource).toMatch(/TODO: add `playlist: "<2 to 4 letters>"` to ID_PREFIXES in src\/ids\.ts.*\n\s+idPrefix: "playlist",/);
    expect(resource).toMatch(/TODO: the contract's scope group .*\n\s+scopeGroup: "playlists",/);
    edit("src/ids.ts", (text) => text.replace("export const ID_PREFIXES = {\n", 'export const ID_PREFIXES = {\n  playlist: "pl",\n'));
    edit("src/auth/scopes.ts", (text) => text.replace("export const SCOPE_GROUPS = {\n", 'export const SCOPE_GROUPS = {\n  playlists: ["read", "write", "delete"],\n'));
    expect(compileErrors(written)).toEqual([]);
  }, 180_000); // the compiler reads some 1,600 files (the service and its libraries' types) to check these
});
