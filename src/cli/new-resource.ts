// npm run new:resource -- <name> [--kind <singular>]
// Writes src/<name>/resource.ts (the declaration, with its TODOs), the folder's face and note when
// the folder is new, prisma/migrations/<timestamp>_<name>/migration.sql (its table), its Prisma
// model (appended to prisma/schema.prisma, with the workspace's back-relation) and
// test/resources/<name>.test.ts (a happy, an error and a security test to fill in), then rewrites
// the generated resource list so the service picks the declaration up. docs/resources.md and
// docs/architecture.md, "Add a resource".
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { regenerateLists, writeNewFiles } from "./scaffold.js";
import { resourceFiles, withPrismaModel, type ResourceScaffold } from "./templates/resource.js";
import { runMain } from "./run-main.js";

const USAGE = "usage: npm run new:resource -- <name> [--kind <singular>]   (plural snake_case, e.g. playlists)";

/** `YYYYMMDDHHMMSS` in UTC, the migrations' folder prefix. */
export function migrationTimestamp(now = new Date()): string {
  return now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/** Scaffolds the resource in the repository at `root`; the repository-relative paths written. */
export function newResource(root: string, options: { name: string; kind?: string; now?: Date }): string[] {
  const { name } = options;
  if (!/^[a-z][a-z_]*[a-z]$/.test(name)) throw new Error(`${name}: a resource is named in plural snake_case.\n${USAGE}`);
  const kind = options.kind ?? name.replace(/s$/, "");
  if (!/^[a-z][a-z_]*[a-z]$/.test(kind) || kind === name) throw new Error(`${kind}: give the singular with --kind (\`object\` of a record, e.g. playlist).\n${USAGE}`);
  const scaffold: ResourceScaffold = { name, kind, timestamp: migrationTimestamp(options.now) };
  const folderIsNew = !existsSync(path.join(root, "src", name));
  const schemaFile = path.join(root, "prisma/schema.prisma");
  const schema = withPrismaModel(readFileSync(schemaFile, "utf8"), scaffold);
  const files = resourceFiles(scaffold, folderIsNew);
  writeNewFiles(root, files);
  writeFileSync(schemaFile, schema);
  regenerateLists(root);
  return [...files.map((file) => file.path), "prisma/schema.prisma", "src/platform/resources.generated.ts"];
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { kind: { type: "string" } }, allowPositionals: true });
  const names = positionals.filter((arg) => arg !== "--");
  if (names.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const name = names[0]!;
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const written = newResource(root, { name, kind: values.kind });
  console.error(written.map((file) => `wrote ${file}`).join("\n"));
  console.error(
    "\nNext: the id prefix (src/ids.ts) and the scope group (src/auth/scopes.ts) the declaration names;\n" +
      "the fields in the model and the migration alike; every TODO; a section in docs/resources.md.\n" +
      "Then `npm run generate` (Prisma client, lists, schema/ snapshots) and\n" +
      `\`npx vitest run test/resources/${name}.test.ts test/migrations.test.ts test/resources-registry.test.ts\`.`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runMain(main);
