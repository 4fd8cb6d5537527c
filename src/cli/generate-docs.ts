// Writes the generated reference tables of docs/actions.md and docs/credits.md (npm run generate).
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import "../platform/catalogs.js";
import { generatedDocs, withGenerated } from "../actions/docs-tables.js";

const docsDir = fileURLToPath(new URL("../../docs/", import.meta.url));
for (const [file, generated] of Object.entries(generatedDocs())) {
  const current = await readFile(`${docsDir}${file}`, "utf8");
  const next = withGenerated(current, generated);
  if (next !== current) await writeFile(`${docsDir}${file}`, next);
}
console.error("wrote the reference tables of docs/actions.md and docs/credits.md");
