// Writes src/actions/live-actions.generated.ts from the action files on disk (run by
// `npm run generate` before the schema is printed).
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { liveActionFiles, liveIndexSource } from "../actions/live-index.js";

const sourceRoot = fileURLToPath(new URL("../", import.meta.url));
const target = fileURLToPath(new URL("../actions/live-actions.generated.ts", import.meta.url));
const source = liveIndexSource(liveActionFiles(sourceRoot));
const current = await readFile(target, "utf8").catch(() => "");
if (current !== source) await writeFile(target, source);
console.error(`wrote src/actions/live-actions.generated.ts (${liveActionFiles(sourceRoot).length} live actions)`);
