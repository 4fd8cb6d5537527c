// Writes the composition root's lists (src/platform/*.generated.ts) from the declarations on disk;
// run by `npm run generate` before the schema is printed.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { generatedLists } from "../platform/list-sources.js";

const sourceRoot = fileURLToPath(new URL("../", import.meta.url));
for (const { file, source, count } of generatedLists(sourceRoot)) {
  const target = `${sourceRoot}${file}`;
  const current = await readFile(target, "utf8").catch(() => "");
  if (current !== source) await writeFile(target, source);
  console.error(`wrote src/${file} (${count})`);
}
