// npm run new:action -- <family>.<name>
// Moves a pending catalog declaration out of src/actions/catalog/<family>.ts into its own file,
// src/<family>/actions/<name>.ts, with an output and a handler to write, and a test file that
// fails until the action's behaviour is written down; then regenerates the live-action list.
// The declaration is moved as written (the TypeScript compiler finds it), so nothing is retyped.
import { existsSync } from "node:fs";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { liveActionFiles, liveIndexSource } from "../actions/live-index.js";
import { scaffoldAction } from "../actions/scaffold.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const name = process.argv[2] ?? "";
const match = /^([a-z_]+)\.([a-z_]+)$/.exec(name);
if (!match) {
  console.error("Usage: npm run new:action -- <family>.<name>   (e.g. images.generate)");
  process.exit(2);
}
const [, family, action] = match as unknown as [string, string, string];
const catalogFile = path.join(root, "src/actions/catalog", `${family}.ts`);
const actionFile = path.join(root, "src", family, "actions", `${action}.ts`);
const testFile = path.join(root, "test/actions", `${name}.test.ts`);
if (existsSync(actionFile)) {
  console.error(`${path.relative(root, actionFile)} exists already.`);
  process.exit(1);
}

const source = await readFile(catalogFile, "utf8").catch(() => {
  console.error(`No pending declarations of the ${family} family (src/actions/catalog/${family}.ts).`);
  process.exit(1);
});
const scaffold = scaffoldAction(source, name);
if (!scaffold) {
  console.error(`${name} is not a pending declaration in src/actions/catalog/${family}.ts (is it live already?).`);
  process.exit(1);
}
const { actionSource, testSource, remaining } = scaffold;

await mkdir(path.dirname(actionFile), { recursive: true });
await mkdir(path.dirname(testFile), { recursive: true });
await writeFile(actionFile, actionSource);
if (!existsSync(testFile)) await writeFile(testFile, testSource);
if (/name: "/.test(remaining)) await writeFile(catalogFile, remaining);
else {
  // The family's last pending action: its catalog file goes, and catalog.ts stops importing it.
  const catalogPath = path.join(root, "src/actions/catalog.ts");
  const constant = /export const (\w+) = defineFamily/.exec(remaining)?.[1];
  const catalog = (await readFile(catalogPath, "utf8"))
    .split("\n")
    .filter((line) => !(constant && (line.includes(`import { ${constant} }`) || line.trim() === `...${constant},`)))
    .join("\n");
  await writeFile(catalogPath, catalog);
  await unlink(catalogFile);
}
await writeFile(path.join(root, "src/actions/live-actions.generated.ts"), liveIndexSource(liveActionFiles(path.join(root, "src"))));
console.log(`wrote ${path.relative(root, actionFile)} and ${path.relative(root, testFile)}; moved the declaration out of src/actions/catalog/${family}.ts`);
console.log("Next: declare its output, write run() and an example, write the test, then npm run generate.");
