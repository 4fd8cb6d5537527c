// The files `npm run new:action -- <family>.<name>` writes: the action (its catalog entry, zod
// input and output, an example call and a handler) and its test file with a happy, an error and a
// security test. Every place left to its author is marked `TODO`; the action file compiles and
// loads as written (the catalog's invariants hold), its handler answers 500 until written, and
// its tests fail until they are.
import type { CatalogRow, ScaffoldFile } from "../scaffold.js";

export interface ActionScaffold {
  /** `tools.image_crop` */
  name: string;
  /** The action's row of the contract's catalog; undefined for a name the contract does not list. */
  row: CatalogRow | undefined;
  /** Scopes to start from when the contract does not list the name (a scope of its family). */
  fallbackScopes: readonly string[];
}

const quoted = (values: readonly string[]) => `[${values.map((value) => JSON.stringify(value)).join(", ")}]`;

function entryNote({ name, row }: ActionScaffold): string[] {
  if (row) {
    return [
      `// The contract's catalog lists ${name} (section ${row.section}): method, scopes, credits, emits,`,
      "// input field names and purpose below are copied from its row, and test/action-catalog.test.ts",
      "// checks them against it: keep them as they are.",
    ];
  }
  return [
    `// ${name} is NOT in the contract's catalog (test/fixtures/action-catalog.md, its verbatim copy):`,
    "// the service loads it, but test/action-catalog.test.ts refuses every action the contract does",
    "// not list. An action is served once the contract lists it: copy the new contract in whole",
    "// (with its SHA-256 in that test), then make method, scopes, credits, emits, inputs and purpose",
    "// below match its row. TODO: all of them are placeholders.",
  ];
}

function inputLines(row: CatalogRow | undefined): string[] {
  const fields = row?.input ?? [];
  if (fields === "video_fields") return ["  input: VIDEO_FIELDS,"];
  if (fields.length === 0) return ["  // TODO: the input fields (a strict object: an unknown field is a 422 naming it).", "  input: z.strictObject({}),"];
  return [
    "  // TODO: each field's type and bounds (the field types in src/actions/catalog/define.ts and",
    "  // src/validation/; docs/actions.md, \"Input types\"), and which are required.",
    "  input: z.strictObject({",
    ...fields.map((field) => `    ${field}: z.unknown().optional(),`),
    "  }),",
  ];
}

/** src/<family>/actions/<name>.ts */
export function actionSource(scaffold: ActionScaffold): string {
  const { name, row } = scaffold;
  const credits = row?.credits ?? false;
  const scopes = row?.scopes ?? scaffold.fallbackScopes;
  const objectName = name.replace(".", "_");
  const videoFields = row?.input === "video_fields";
  return [
    `// ${name}${row ? ` (catalog ${row.section})` : ""}: ${row?.purpose || "TODO: what it does, in one line"}.`,
    "// TODO: what a caller gets, what the action reads and writes, and each choice the contract leaves",
    "// open (write those down in docs/ too, and test them).",
    "//",
    ...entryNote(scaffold),
    'import { z } from "zod";',
    'import { defineAction } from "../../actions/framework/action.js";',
    ...(videoFields ? ['import { VIDEO_FIELDS } from "../../actions/catalog/define.js";'] : []),
    "",
    "export default defineAction({",
    `  name: ${JSON.stringify(name)},`,
    `  method: ${JSON.stringify(row?.method ?? "POST")},`,
    `  scopes: ${quoted(scopes)},`,
    `  credits: ${credits},`,
    ...(credits
      ? [
          "  // TODO: the price (docs/credits.md): credits per call, or per unit of an input field.",
          '  price: { credits: 1, per: "call" },',
          "  // TODO: 5 when it renders or generates media, 2 when it runs a text or vision model (docs/guards.md, \"Weights\").",
          "  weight: 2,",
        ]
      : ["  weight: 1,"]),
    ...(row && row.emits.length > 0 ? [`  emits: ${quoted(row.emits)},`] : []),
    `  purpose: ${JSON.stringify(row?.purpose || "TODO")},`,
    ...inputLines(row),
    "  // TODO: the answer: a zod object with a literal `object` (records: recordSchema(resource); lists:",
    "  // listOutput(item), src/actions/framework/outputs.ts). Every answer is checked against it in tests.",
    `  output: z.strictObject({ object: z.literal(${JSON.stringify(objectName)}) }),`,
    "  // TODO: a valid call built in the caller's workspace (setup.create, setup.action, setup.image):",
    "  // the shared security suite replays it with too few scopes, from another workspace and with a",
    "  // test key (required when the input has required fields).",
    "  async example() {",
    "    return {};",
    "  },",
    "  // TODO: the work. By default (`mode: \"transaction\"`) it runs inside the call's one transaction with",
    "  // its credit spend and events: write through `context.tx`, queue long work with",
    "  // `context.queueOperation`. An action that calls a provider declares `mode: \"model\"` and `uses`, reads",
    "  // through `context.db`, calls `context.providers` and writes once through `context.commit`",
    "  // (docs/actions.md, \"Running a call\"). Refusals throw ApiError (src/errors/): never a plain Error.",
    "  async run(_context, _input) {",
    `    throw new Error(${JSON.stringify(`${name} is not written yet`)});`,
    "  },",
    "});",
    "",
  ].join("\n");
}

/** test/actions/<family>.<name>.test.ts */
export function actionTestSource({ name, row }: ActionScaffold): string {
  const method = row?.method ?? "POST";
  const credits = row?.credits ?? false;
  return [
    `// ${name}: what a caller relies on, over REST against the real service, database and Redis.`,
    "// TODO: each test below fails until the action and the test are written; fill in the inputs and",
    "// assert the behaviour (records, answer fields, credits and ledger, events), never a hard-coded",
    "// result. Providers are reached through the real adapter against a stand-in on loopback",
    "// (test/support/provider-standin).",
    'import { describe, expect, it } from "vitest";',
    `import { ${credits ? "balanceOf, " : ""}funded, ok, refused } from "../support/action-calls.js";`,
    'import { useService, type Client } from "../support/service.js";',
    "",
    "const service = useService();",
    "",
    `/** One call of ${name}: the input as ${method === "GET" ? "query parameters" : "the JSON body"}. */`,
    "function call(client: Client, input: Record<string, unknown>) {",
    ...(method === "GET"
      ? [
          "  const query = new URLSearchParams(Object.entries(input).map(([field, value]) => [field, typeof value === \"string\" ? value : JSON.stringify(value)]));",
          `  return client.get(\`/api/v1/actions/${name}?\${query.toString()}\`);`,
        ]
      : [`  return client.post("/api/v1/actions/${name}", input);`]),
    "}",
    "",
    `describe(${JSON.stringify(name)}, () => {`,
    "  it(\"does its work for a key with its scopes (TODO: say what)\", async () => {",
    `    const { client${credits ? ", workspaceId" : ""} } = await funded(service, 100);`,
    "    // TODO: a valid input.",
    "    const body = ok(await call(client, {}));",
    `    expect(body.object).toBe(${JSON.stringify(name.replace(".", "_"))});`,
    ...(credits ? ["    // TODO: the price, spent exactly once.", "    expect(await balanceOf(service, workspaceId)).toBe(100 - 1);"] : []),
    "    // TODO: what was written, read back through the API; then remove this line.",
    "    expect.unreachable(\"TODO: assert what the caller relies on\");",
    "  });",
    "",
    "  it(\"refuses an input it cannot run with a 4xx naming the field (TODO: which)\", async () => {",
    "    const { client } = await funded(service, 100);",
    "    // TODO: an input the schema accepts but the action must refuse (a record in the wrong state, a",
    "    // value out of range), and the error's param and details.",
    "    const error = refused(await call(client, {}), 422, \"validation_failed\");",
    "    expect(error.param).toBe(\"TODO\");",
    "  });",
    "",
    "  it(\"keeps to the caller's workspace (TODO: another workspace's records are 404, nothing changes)\", async () => {",
    "    const owner = await funded(service, 100);",
    "    const stranger = await funded(service, 100);",
    "    // TODO: a record of `owner`, named in the input of a call by `stranger`.",
    "    void owner;",
    "    refused(await call(stranger.client, {}), 404, \"not_found\");",
    "  });",
    "});",
    "",
  ].join("\n");
}

export function actionFiles(scaffold: ActionScaffold): ScaffoldFile[] {
  const [family, action] = scaffold.name.split(".") as [string, string];
  return [
    { path: `src/${family}/actions/${action}.ts`, content: actionSource(scaffold) },
    { path: `test/actions/${scaffold.name}.test.ts`, content: actionTestSource(scaffold) },
  ];
}
