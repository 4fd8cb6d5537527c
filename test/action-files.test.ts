// Declare once: every src/<family>/actions/<name>.ts is the live action <family>.<name>, routed
// and in the schema; every `export const … = defineResource(` is served and every
// `export const … = defineOperationKind(` is run by the workers. The composition root's generated
// lists match the files on disk, so nothing can be left unlisted (or listed without its file)
// without this test failing.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { actionFiles, declarations, generatedLists } from "../src/platform/list-sources.js";
import { allActions } from "../src/actions/catalog.js";
import { isLiveAction, type LiveAction } from "../src/actions/framework/action.js";
import { platformOperations } from "../src/registry/operations.js";
import { servedResources } from "../src/registry/resources.js";
import { OPERATION_KINDS } from "../src/platform/jobs.js";
import "../src/platform/schema.js";

const sourceRoot = fileURLToPath(new URL("../src/", import.meta.url));

describe("the composition root's lists", () => {
  it("are current: each generated file is what the declarations on disk produce", () => {
    for (const { file, source } of generatedLists(sourceRoot)) {
      const current = readFileSync(new URL(`../src/${file}`, import.meta.url), "utf8");
      expect(current === source, `src/${file} is stale: run npm run generate`).toBe(true);
    }
  });

  it("hold exactly the action files, the resource declarations and the operation kinds", () => {
    // The same order actionFiles uses (localeCompare: `videos_ai.*` before `videos.*`).
    expect(actionFiles(sourceRoot).map((file) => file.name)).toEqual(allActions().map((action) => action.name).sort((a, b) => a.localeCompare(b)));
    expect(declarations(sourceRoot, "defineResource").length).toBe(servedResources().length);
    expect(declarations(sourceRoot, "defineOperationKind").length).toBe(OPERATION_KINDS.length);
    expect(new Set(OPERATION_KINDS.map((kind) => kind.kind)).size).toBe(OPERATION_KINDS.length);
  });

  it("each action file default-exports the action its path names", async () => {
    for (const { name, file } of actionFiles(sourceRoot)) {
      const module = (await import(`../src/${file.replace(/\.ts$/, ".js")}`)) as { default: LiveAction };
      expect(module.default.name, file).toBe(name);
      expect(isLiveAction(module.default), file).toBe(true);
    }
  });

  it("every action has its route", () => {
    const routed = new Set(platformOperations().filter((operation) => operation.tag === "actions").map((operation) => operation.path));
    for (const action of allActions()) expect(routed.has(`/actions/${action.name}`), action.name).toBe(true);
  });
});
