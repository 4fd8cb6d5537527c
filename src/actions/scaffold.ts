// Writing a new action from its pending catalog declaration (npm run new:action): the declaration
// moves as written (found with the TypeScript compiler) into src/<family>/actions/<name>.ts, with
// an output and a handler to write, and a test file that fails until the behaviour is written.
import ts from "typescript";

export interface Scaffold {
  actionSource: string;
  testSource: string;
  /** The family's catalog file without the declaration. */
  remaining: string;
}

/** The scaffold of `name` from the source of its family's catalog file; undefined if not pending there. */
export function scaffoldAction(source: string, name: string): Scaffold | undefined {
  const [family, action] = name.split(".") as [string, string];
  const file = ts.createSourceFile(`${family}.ts`, source, ts.ScriptTarget.ES2022, true);

  /** The object literal `{ name: "<family>.<action>", ... }` in the family's array. */
  function findDeclaration(node: ts.Node): ts.ObjectLiteralExpression | undefined {
    if (ts.isObjectLiteralExpression(node)) {
      const named = node.properties.some(
        (property) => ts.isPropertyAssignment(property) && property.name.getText(file) === "name" && ts.isStringLiteral(property.initializer) && property.initializer.text === name,
      );
      if (named) return node;
    }
    return ts.forEachChild(node, findDeclaration);
  }

  const declaration = findDeclaration(file);
  if (!declaration) return undefined;

  const body = declaration.properties.map((property) => `  ${property.getText(file).split("\n").map((line) => line.replace(/^ {4}/, "  ")).join("\n")},`).join("\n");
  // Identifiers outside string literals and property keys (a field named `text` is no use of text()).
  const words = new Set(body.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/[A-Za-z_$][\w$]*\s*:(?!:)/g, "").match(/[A-Za-z_$][\w$]*/g) ?? []);

  // What the declaration uses from the family file's imports, and from its own top-level helpers.
  const defineImports: string[] = [];
  const localHelpers: string[] = [];
  const helperStatements: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text === "./define.js") {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) if (words.has(element.name.text)) defineImports.push(element.name.text);
    }
    if (ts.isVariableStatement(statement)) {
      const exported = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      for (const variable of statement.declarationList.declarations) {
        if (ts.isIdentifier(variable.name) && words.has(variable.name.text) && !variable.name.text.endsWith("_ACTIONS")) {
          localHelpers.push(variable.name.text);
          // Exported from the family file when it is not yet.
          if (!exported) helperStatements.push(statement.getText(file));
        }
      }
    }
  }

  const purpose = /purpose:\s*"([^"]*)"/.exec(body)?.[1] ?? "";
  const actionSource = [
    `// ${name}: ${purpose}.`,
    'import { z } from "zod";',
    'import { defineAction } from "../../actions/framework/action.js";',
    ...(defineImports.length ? [`import { ${defineImports.join(", ")} } from "../../actions/catalog/define.js";`] : []),
    ...(localHelpers.length ? [`import { ${localHelpers.join(", ")} } from "../../actions/catalog/${family}.js";`] : []),
    "",
    "export default defineAction({",
    body,
    `  // The answer's shape: what a client selects in GraphQL and reads in OpenAPI.`,
    `  output: z.object({ object: z.literal("${family}_${action}") }),`,
    "  async run(context, input) {",
    `    throw new Error("${name} is not written yet");`,
    "  },",
    "});",
    "",
  ].join("\n");

  const testSource = [
    `// ${name}: what its users rely on, end to end on REST and GraphQL (the shared security suite`,
    "// covers scopes, other workspaces, test keys and unknown fields).",
    'import { describe, expect, it } from "vitest";',
    'import { createFixture, useService } from "../support/service.js";',
    "",
    "const service = useService();",
    "",
    `describe("${name}", () => {`,
    '  it("does what its purpose says", async () => {',
    "    const { client } = await createFixture(service);",
    `    const response = await client.${/method:\s*"GET"/.test(body) ? "get" : "post"}("/api/v1/actions/${name}"${/method:\s*"GET"/.test(body) ? "" : ", {}"});`,
    "    expect(response.status, response.text).toBe(200);",
    '    expect.fail("write the behaviour a user of this action relies on");',
    "  });",
    "});",
    "",
  ].join("\n");

  // The declaration leaves the family file (with the comma and line break after it); the helpers it
  // uses are exported from there.
  let end = declaration.getEnd();
  while (end < source.length && /[ ,]/.test(source.charAt(end))) end++;
  if (source.charAt(end) === "\n") end++;
  let remaining = `${source.slice(0, declaration.getFullStart())}\n${source.slice(end)}`.replace(/\[\n\n/, "[\n");
  for (const statement of new Set(helperStatements)) remaining = remaining.replace(statement, `export ${statement}`);
  remaining = withoutUnusedDefineImports(remaining);
  return { actionSource, testSource, remaining };
}

/** The family file with the field helpers it no longer uses dropped from its import of ./define.js. */
function withoutUnusedDefineImports(source: string): string {
  const file = ts.createSourceFile("family.ts", source, ts.ScriptTarget.ES2022, true);
  const statement = file.statements.find((node): node is ts.ImportDeclaration => ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text === "./define.js");
  const bindings = statement?.importClause?.namedBindings;
  if (!statement || !bindings || !ts.isNamedImports(bindings)) return source;
  const rest = source.slice(0, statement.getStart(file)) + source.slice(statement.getEnd());
  const used = new Set(rest.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/[A-Za-z_$][\w$]*/g) ?? []);
  const kept = bindings.elements.map((element) => element.getText(file)).filter((name) => used.has(name.split(/\s+as\s+/).pop()!));
  if (kept.length === bindings.elements.length) return source;
  const replacement = kept.length ? `import { ${kept.join(", ")} } from "./define.js";` : "";
  return source.slice(0, statement.getStart(file)) + replacement + source.slice(statement.getEnd());
}
