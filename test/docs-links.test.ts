// Links that resolve: every relative link in the README and docs/ names a file of the repository,
// and every #anchor a heading of that file (as GitHub renders it). The served pages have their own
// tests (api-reference.test.ts).
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

async function markdownFiles(): Promise<string[]> {
  const docs = (await readdir(path.join(ROOT, "docs"), { recursive: true })).filter((name) => name.endsWith(".md")).map((name) => path.join("docs", name));
  return ["README.md", ...docs];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

async function anchorsOf(file: string): Promise<Set<string>> {
  const text = await readFile(path.join(ROOT, file), "utf8");
  const withoutCode = text.replace(/```[\s\S]*?```/g, "");
  return new Set([...withoutCode.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => slug(match[1]!)));
}

describe("documentation links", () => {
  it("resolve to files and headings of the repository", async () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of await markdownFiles()) {
      const text = (await readFile(path.join(ROOT, file), "utf8")).replace(/```[\s\S]*?```/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue; // http(s), mailto: not ours to check here
        const [relative, anchor] = target!.split("#") as [string, string | undefined];
        const resolved = relative === "" ? file : path.join(path.dirname(file), relative);
        checked++;
        const exists = await stat(path.join(ROOT, resolved)).then(() => true, () => false);
        if (!exists) broken.push(`${file}: ${target} (no such file)`);
        else if (anchor && resolved.endsWith(".md") && !(await anchorsOf(resolved)).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});
