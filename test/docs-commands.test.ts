// Commands the documentation tells a reader to run exist: every `npm run <script>` named in the
// README, docs/ and the folder notes is a script of package.json (a renamed or removed script
// leaves no dead command behind).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function markdownFiles(): string[] {
  const docs = readdirSync(path.join(ROOT, "docs"), { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`);
  const notes = ["src", "rest"].flatMap((top) =>
    readdirSync(path.join(ROOT, top), { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith("README.md")).map((name) => `${top}/${name}`),
  );
  return ["README.md", ...docs, ...notes].filter((file) => !file.includes("generated/"));
}

/** `npm run <script>` (and `npm run -s <script>`) in a text: the script names. */
function scriptsNamed(text: string): string[] {
  return [...text.matchAll(/npm run (?:-s )?([a-z][a-z0-9:-]*[a-z0-9])/g)].map((match) => match[1]!);
}

/** The commands of a text that name no script. */
const deadIn = (text: string, scripts: readonly string[]) => scriptsNamed(text).filter((script) => !scripts.includes(script));

describe("commands in the documentation", () => {
  const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);

  it("name scripts of package.json", () => {
    const files = markdownFiles();
    expect(files.flatMap((file) => scriptsNamed(readFileSync(path.join(ROOT, file), "utf8"))).length).toBeGreaterThan(20);
    expect(files.flatMap((file) => deadIn(readFileSync(path.join(ROOT, file), "utf8"), scripts).map((script) => `${file}: npm run ${script}`))).toEqual([]);
  });

  it("reads the script out of a sentence, and catches one that is gone", () => {
    const text = "Run `npm run -s key -- create`, then npm run new:action: done; npm run gone:away.";
    expect(scriptsNamed(text)).toEqual(["key", "new:action", "gone:away"]);
    expect(deadIn(text, scripts)).toEqual(["gone:away"]);
  });
});
