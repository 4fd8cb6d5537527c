// npm run new:action -- <family>.<name>
// Writes src/<family>/actions/<name>.ts (catalog entry, zod input and output, example, handler,
// each with its TODOs) and test/actions/<family>.<name>.test.ts (a happy, an error and a security
// test to fill in), then rewrites the generated action list so the service picks the action up.
// When the contract's catalog lists the name, its row (method, scopes, credits, emits, inputs,
// purpose) is copied into the entry; an action the contract does not list is not served
// (test/action-catalog.test.ts refuses it): the file says so. docs/actions.md, "Writing an action".
import { fileURLToPath, pathToFileURL } from "node:url";
import { FAMILIES } from "../actions/catalog.js";
import { actionFiles } from "./templates/action.js";
import { CATALOG_COPY, catalogRow, catalogRows, regenerateLists, writeNewFiles } from "./scaffold.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { runMain } from "./run-main.js";

const USAGE = "usage: npm run new:action -- <family>.<name>   (snake_case, e.g. tools.image_crop)";

export interface NewAction {
  /** Repository-relative paths written. */
  written: string[];
  /** Whether the contract's catalog lists the name. */
  inCatalog: boolean;
}

/** Scaffolds the action `name` in the repository at `root`. */
export function newAction(root: string, name: string): NewAction {
  if (!/^[a-z_]+\.[a-z_]+$/.test(name)) throw new Error(`${name}: an action is <family>.<name> in snake_case.\n${USAGE}`);
  const family = name.split(".")[0]!;
  if (!FAMILIES.some((known) => known.family === family)) {
    throw new Error(`${family} is not a family of the catalog (${FAMILIES.map((known) => known.family).join(", ")}): src/actions/catalog.ts lists them in the contract's order.`);
  }
  const row = catalogRow(root, name);
  const familyRow = catalogRows(readFileSync(path.join(root, CATALOG_COPY), "utf8")).find((candidate) => candidate.name.startsWith(`${family}.`));
  const files = actionFiles({ name, row, fallbackScopes: familyRow?.scopes.slice(0, 1) ?? [] });
  writeNewFiles(root, files);
  regenerateLists(root);
  return { written: [...files.map((file) => file.path), "src/platform/actions.generated.ts"], inCatalog: row !== undefined };
}

async function main(args: string[]): Promise<number> {
  const name = args.filter((arg) => arg !== "--")[0];
  if (!name || args.length > 2) {
    console.error(USAGE);
    return 2;
  }
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const { written, inCatalog } = newAction(root, name);
  console.error(written.map((file) => `wrote ${file}`).join("\n"));
  if (!inCatalog) {
    console.error(`\n${name} is not in the contract's catalog (${CATALOG_COPY}): test/action-catalog.test.ts refuses it until the contract lists it.`);
  }
  console.error(
    "\nNext: fill every TODO in both files, then `npm run generate` (docs tables, schema/ snapshots) and\n" +
      `\`npx vitest run test/actions/${name}.test.ts test/security-suite.test.ts test/action-catalog.test.ts\`.`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runMain(main);
