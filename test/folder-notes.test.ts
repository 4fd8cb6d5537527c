// Every folder of src/ holding code has a short note, README.md: what lives there and what it may
// import (the layer rule of tools/eslint/layers.js). A new folder without one fails here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

function holdsCode(folder: string): boolean {
  return readdirSync(folder, { withFileTypes: true }).some((entry) =>
    entry.isDirectory() ? holdsCode(path.join(folder, entry.name)) : entry.name.endsWith(".ts"),
  );
}

describe("folder notes", () => {
  // src/generated is the Prisma client, written by `npm run generate:client` and not checked in.
  const folders = readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "generated" && holdsCode(path.join(SRC, entry.name)))
    .map((entry) => entry.name);

  it("finds the folders of src/", () => {
    expect(folders).toEqual(expect.arrayContaining(["actions", "http", "platform", "renders"]));
  });

  it.each(folders)("src/%s has a README.md saying what lives there and what it may import", (folder) => {
    const note = path.join(SRC, folder, "README.md");
    expect(existsSync(note), `src/${folder}/README.md`).toBe(true);
    const text = readFileSync(note, "utf8");
    expect(text.length).toBeGreaterThan(100);
    expect(text).toMatch(/import/);
  });
});
