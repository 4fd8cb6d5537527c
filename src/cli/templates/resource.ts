// The files `npm run new:resource -- <name>` writes: the declaration (src/<name>/resource.ts), the
// domain's face and note when the folder is new, a migration creating its table, its Prisma model
// (appended to prisma/schema.prisma, with the workspace's back-relation) and a test file with a
// happy, an error and a security test. Places left to the author are marked `TODO`. Two of them
// stop the compiler on purpose until done: the id prefix (src/ids.ts) and the scope group
// (src/auth/scopes.ts, the contract's scopes).
import { camelCase, pascalCase, type ScaffoldFile } from "../scaffold.js";

export interface ResourceScaffold {
  /** Plural snake_case: the path segment and the table (`playlists`). */
  name: string;
  /** Singular: the record's `object` and event family (`playlist`). */
  kind: string;
  /** The migration folder's timestamp, `YYYYMMDDHHMMSS`. */
  timestamp: string;
}

export const modelName = ({ kind }: ResourceScaffold) => pascalCase(kind);

/** src/<name>/resource.ts */
export function resourceSource(scaffold: ResourceScaffold): string {
  const { name, kind } = scaffold;
  return [
    `// ${pascalCase(name)}: TODO what a record is, who writes it and what the contract says of it (table 2.2).`,
    "// The declaration is the resource: GraphQL types and fields, REST routes, OpenAPI, scope checks,",
    "// validation and record events are derived from it (docs/resources.md; src/registry/resource.ts",
    "// documents every member). Field names, types and nullability come from the Prisma model.",
    'import { defineResource } from "../registry/resource.js";',
    "",
    `export const ${camelCase(name)} = defineResource({`,
    `  name: ${JSON.stringify(name)},`,
    `  kind: ${JSON.stringify(kind)},`,
    `  model: ${JSON.stringify(modelName(scaffold))},`,
    `  idField: "${kind}_id",`,
    `  // TODO: add \`${kind}: "<2 to 4 letters>"\` to ID_PREFIXES in src/ids.ts (the compiler refuses this line until then).`,
    `  idPrefix: ${JSON.stringify(kind)},`,
    "  // TODO: the contract's scope group of the resource (SCOPE_GROUPS in src/auth/scopes.ts).",
    `  scopeGroup: ${JSON.stringify(name)},`,
    '  createdAtField: "created_at",',
    '  routes: ["list", "get", "create", "update", "delete"],',
    "  bulk: true,",
    "  // TODO: the fields table 2.2 makes sortable, filterable, searchable and heavy.",
    '  sortable: ["created_at"],',
    '  filterable: ["created_at"],',
    "  searchable: [],",
    "  heavy: [],",
    '  internal: ["workspace_id"],',
    '  serviceSet: ["created_at", "updated_at"],',
    "  // TODO: rules of writable fields beyond their column type (zod), references to other resources.",
    "  // A resource beyond the contract's table 2.2 is `platform: true` (test/resources-registry.test.ts holds the table).",
    "  fieldRules: {},",
    `  description: ${JSON.stringify(`TODO: a ${kind}, in one line.`)},`,
    "});",
    "",
  ].join("\n");
}

/** src/<name>/index.ts, when the folder is new. */
export function faceSource({ name }: ResourceScaffold): string {
  return [
    `// The face of src/${name}/: what other domains import from it (tools/eslint/layers.js refuses deeper imports).`,
    `export { ${camelCase(name)} } from "./resource.js";`,
    "",
  ].join("\n");
}

/** src/<name>/README.md, when the folder is new. */
export function folderNote({ name }: ResourceScaffold): string {
  return [
    `# src/${name}`,
    "",
    `The \`${name}\` resource: its declaration (\`resource.ts\`). TODO: what else lives here.`,
    "",
    "A domain folder: it may import the layers below the domains (tools/eslint/layers.js) and another",
    "domain only through that domain's `index.ts`; other folders import it through its own `index.ts`.",
    "",
  ].join("\n");
}

/** The Prisma model appended to prisma/schema.prisma (aligned as `prisma format` would). */
export function prismaModel(scaffold: ResourceScaffold): string {
  const { name, kind } = scaffold;
  const column = (field: string) => field.padEnd(Math.max(`${kind}_id`.length, "workspace_id".length));
  return [
    "",
    `/// TODO: what a ${kind} is (resource ${name}).`,
    `model ${modelName(scaffold)} {`,
    `  ${column(`${kind}_id`)} String   @id`,
    "  /// internal: owning workspace",
    `  ${column("workspace_id")} String`,
    "  // TODO: the resource's fields (and the same columns in its migration)",
    `  ${column("created_at")} DateTime @default(now()) @db.Timestamptz(3)`,
    "  /// set by the service on every change",
    `  ${column("updated_at")} DateTime @default(now()) @updatedAt @db.Timestamptz(3)`,
    "",
    "  workspace Workspace @relation(fields: [workspace_id], references: [workspace_id], onDelete: Cascade)",
    "",
    `  @@index([workspace_id, created_at(sort: Desc), ${kind}_id(sort: Desc)])`,
    `  @@map(${JSON.stringify(name)})`,
    "}",
    "",
  ].join("\n");
}

/** prisma/schema.prisma with the model appended and the workspace's back-relation added. */
export function withPrismaModel(schema: string, scaffold: ResourceScaffold): string {
  const model = modelName(scaffold);
  if (new RegExp(`^model ${model} \\{`, "m").test(schema)) throw new Error(`prisma/schema.prisma already has a model ${model}.`);
  const workspace = /^model Workspace \{\n([\s\S]*?)^\}/m.exec(schema);
  if (!workspace) throw new Error("prisma/schema.prisma has no model Workspace to relate the records to.");
  const body = workspace[1]!;
  const mapAt = body.search(/^ {2}@@/m);
  const width = Math.max(scaffold.name.length, ...[...body.matchAll(/^ {2}(\w+) +\S/gm)].map((match) => match[1]!.length));
  const backRelation = `  ${scaffold.name.padEnd(width)} ${model}[]\n`;
  const newBody = mapAt === -1 ? `${body}${backRelation}` : `${body.slice(0, mapAt).replace(/\n*$/, "\n")}${backRelation}\n${body.slice(mapAt)}`;
  const start = workspace.index + "model Workspace {\n".length;
  return `${schema.slice(0, start)}${newBody}${schema.slice(start + body.length).replace(/\n*$/, "\n")}${prismaModel(scaffold)}`;
}

/** prisma/migrations/<timestamp>_<name>/migration.sql */
export function migrationSource({ name, kind }: ResourceScaffold): string {
  return [
    `-- The ${name} resource's table. TODO: what it holds, and its columns: the same as the model in`,
    "-- prisma/schema.prisma (test/migrations.test.ts compares the migrated database with it column by",
    "-- column). A migration is never edited once applied: change the table with a new one.",
    `CREATE TABLE "${name}" (`,
    `    "${kind}_id" TEXT NOT NULL,`,
    '    "workspace_id" TEXT NOT NULL,',
    '    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,',
    '    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,',
    "",
    `    CONSTRAINT "${name}_pkey" PRIMARY KEY ("${kind}_id")`,
    ");",
    "",
    `CREATE INDEX "${name}_workspace_id_created_at_${kind}_id_idx" ON "${name}"("workspace_id", "created_at" DESC, "${kind}_id" DESC);`,
    "",
    `ALTER TABLE "${name}" ADD CONSTRAINT "${name}_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;`,
    "",
  ].join("\n");
}

/** test/resources/<name>.test.ts */
export function resourceTestSource({ name, kind }: ResourceScaffold): string {
  const id = `${kind}_id`;
  return [
    `// The ${name} resource over REST (GraphQL serves the same resolvers): what a caller relies on.`,
    "// TODO: each test below fails until the resource and the test are written; fill in the records and",
    "// assert the behaviour, never a hard-coded result.",
    'import { describe, expect, it } from "vitest";',
    'import { ok, refused } from "../support/action-calls.js";',
    'import { createFixture, useService } from "../support/service.js";',
    "",
    "const service = useService();",
    "",
    `describe("${name}", () => {`,
    "  it(\"creates a record and reads it back as it was written\", async () => {",
    "    const { client } = await createFixture(service);",
    "    // TODO: a valid record: every required field, and what the service sets is absent.",
    "    const input = {};",
    `    const created = await client.post("/api/v1/${name}", input);`,
    "    expect(created.status, created.text).toBe(201);",
    `    expect(created.body).toMatchObject({ object: "${kind}", ...input });`,
    `    const read = ok(await client.get(\`/api/v1/${name}/\${created.body.${id}}\`));`,
    "    expect(read).toEqual(created.body);",
    "    // TODO: the fields the service sets, and an update read back; then remove this line.",
    "    expect.unreachable(\"TODO: assert what the caller relies on\");",
    "  });",
    "",
    "  it(\"refuses a field outside its rules with 422 naming the field\", async () => {",
    "    const { client } = await createFixture(service);",
    "    // TODO: a value the field's rule refuses (too long, out of its set).",
    `    const error = refused(await client.post("/api/v1/${name}", { TODO: "" }), 422, "validation_failed");`,
    '    expect(error.param).toBe("TODO");',
    "  });",
    "",
    "  it(\"shows a record to its own workspace only, and to a key with the read scope\", async () => {",
    "    const owner = await createFixture(service);",
    "    // TODO: the same valid record as above.",
    `    const created = await owner.client.post("/api/v1/${name}", {});`,
    "    expect(created.status, created.text).toBe(201);",
    "    const stranger = await createFixture(service);",
    `    refused(await stranger.client.get(\`/api/v1/${name}/\${created.body.${id}}\`), 404, "not_found");`,
    '    const unscoped = await owner.newKey({ scopes: ["usage:read"] });',
    `    refused(await unscoped.client.get(\`/api/v1/${name}/\${created.body.${id}}\`), 403, "insufficient_scope");`,
    "  });",
    "});",
    "",
  ].join("\n");
}

/** The new files (the schema edit is separate: it changes an existing file). */
export function resourceFiles(scaffold: ResourceScaffold, folderIsNew: boolean): ScaffoldFile[] {
  return [
    { path: `src/${scaffold.name}/resource.ts`, content: resourceSource(scaffold) },
    ...(folderIsNew
      ? [
          { path: `src/${scaffold.name}/index.ts`, content: faceSource(scaffold) },
          { path: `src/${scaffold.name}/README.md`, content: folderNote(scaffold) },
        ]
      : []),
    { path: `prisma/migrations/${scaffold.timestamp}_${scaffold.name}/migration.sql`, content: migrationSource(scaffold) },
    { path: `test/resources/${scaffold.name}.test.ts`, content: resourceTestSource(scaffold) },
  ];
}
