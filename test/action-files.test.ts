// One action, one file: every src/<family>/actions/<name>.ts is the live action <family>.<name>,
// routed and in the schema; the generated import list matches the files on disk, so a file can
// never be left unrouted (or a route left without its file) without this test failing.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { liveActionFiles, liveIndexSource } from "../src/actions/live-index.js";
import { LIVE_ACTIONS } from "../src/actions/live.js";
import { ACTIONS } from "../src/actions/catalog.js";
import { isLiveAction, type LiveAction } from "../src/actions/framework/action.js";
import { platformOperations } from "../src/registry/operations.js";
import "../src/graphql/schema.js";

const sourceRoot = fileURLToPath(new URL("../src/", import.meta.url));

describe("action files", () => {
  it("are exactly the live actions, and the generated import list is current", () => {
    const files = liveActionFiles(sourceRoot);
    // The same order liveActionFiles uses (localeCompare: `videos_ai.*` before `videos.*`).
    expect(files.map((file) => file.name)).toEqual(LIVE_ACTIONS.map((action) => action.name).sort((a, b) => a.localeCompare(b)));
    const generated = readFileSync(new URL("../src/actions/live-actions.generated.ts", import.meta.url), "utf8");
    expect(generated === liveIndexSource(files), "src/actions/live-actions.generated.ts is stale: run npm run generate").toBe(true);
  });

  it("each default-exports the action its path names", async () => {
    for (const { name, file } of liveActionFiles(sourceRoot)) {
      const module = (await import(`../src/${file}`)) as { default: LiveAction };
      expect(module.default.name, file).toBe(name);
      expect(isLiveAction(module.default), file).toBe(true);
    }
  });

  it("every live action has its route, and no pending declaration has one", () => {
    const routed = new Set(platformOperations().filter((operation) => operation.tag === "actions").map((operation) => operation.path));
    for (const action of ACTIONS) expect(routed.has(`/actions/${action.name}`), action.name).toBe(isLiveAction(action));
  });
});
