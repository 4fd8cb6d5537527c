// Writes the checked-in contract files: schema/schema.graphql (SDL) and schema/openapi.json.
// A test fails when they differ from what the code produces, so they never go stale unseen.
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { printedContracts } from "../platform/contracts.js";

const schemaDir = fileURLToPath(new URL("../../schema/", import.meta.url));
await mkdir(schemaDir, { recursive: true });
const { sdl, openapi } = printedContracts();
await writeFile(`${schemaDir}schema.graphql`, sdl);
await writeFile(`${schemaDir}openapi.json`, openapi);
console.error("wrote schema/schema.graphql and schema/openapi.json");
