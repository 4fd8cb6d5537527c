// What the scaffolders (`npm run new:action`, `npm run new:resource`) share: the contract's catalog
// row of an action, writing a set of new files without ever overwriting one, and regenerating the
// composition root's lists so a new declaration is picked up at once. Pure of side effects at
// import: the test runs the scaffolders' functions against a temporary copy of the repository.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generatedLists } from "../platform/list-sources.js";

/** A file a scaffolder writes: repository-relative path and content. */
export interface ScaffoldFile {
  path: string;
  content: string;
}

/** An action's row of the contract's catalog (document 2, section 4). */
export interface CatalogRow {
  name: string;
  /** `4.3` */
  section: string;
  method: "GET" | "POST";
  scopes: string[];
  credits: boolean;
  emits: string[];
  /** Input field names, or `video_fields` for the `<video fields>` marker. */
  input: string[] | "video_fields";
  purpose: string;
}

/** The contract's catalog, kept verbatim in the repository (test/action-catalog.test.ts pins it). */
export const CATALOG_COPY = "test/fixtures/action-catalog.md";

const splitList = (cell: string) => cell.split(",").map((item) => item.trim()).filter(Boolean);

/** Every action row of the catalog document, in document order. */
export function catalogRows(markdown: string): CatalogRow[] {
  const rows: CatalogRow[] = [];
  let section = "";
  let header: string[] | undefined;
  for (const line of markdown.split("\n")) {
    const heading = /^### (4\.\d+(?:[–-]4\.\d+)?) /.exec(line);
    if (heading) section = heading[1]!;
    if (line.startsWith("| Action")) {
      header = line.trim().slice(1, -1).split("|").map((cell) => cell.trim());
      continue;
    }
    if (!header || !line.startsWith("| ")) {
      if (!line.startsWith("|")) header = undefined;
      continue;
    }
    const cells = line.trim().slice(1, -1).split("|").map((cell) => cell.trim());
    const row = Object.fromEntries(header.map((column, index) => [column, cells[index] ?? ""]));
    const input = row["Input fields"] ?? "";
    rows.push({
      name: row.Action!,
      section,
      method: row.Method === "GET" ? "GET" : "POST",
      scopes: splitList(row.Scopes ?? ""),
      credits: row.Credits === "yes",
      emits: splitList(row.Emits ?? ""),
      input: input === "<video fields>" ? "video_fields" : input === "none" ? [] : splitList(input),
      purpose: row.Purpose ?? row.Notes ?? "",
    });
  }
  return rows;
}

/** The catalog row of an action in the repository's copy of the contract, or undefined. */
export function catalogRow(root: string, name: string): CatalogRow | undefined {
  const file = path.join(root, CATALOG_COPY);
  if (!existsSync(file)) return undefined;
  return catalogRows(readFileSync(file, "utf8")).find((row) => row.name === name);
}

/** Writes new files under root; refuses (before writing any) when one of them exists already. */
export function writeNewFiles(root: string, files: readonly ScaffoldFile[]): void {
  const existing = files.filter((file) => existsSync(path.join(root, file.path)));
  if (existing.length > 0) throw new Error(`Refusing to overwrite ${existing.map((file) => file.path).join(", ")}.`);
  for (const file of files) {
    const target = path.join(root, file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}

/** Rewrites src/platform/*.generated.ts from the declarations on disk (what `npm run generate` does first). */
export function regenerateLists(root: string): string[] {
  const sourceRoot = path.join(root, "src");
  const written: string[] = [];
  for (const { file, source } of generatedLists(sourceRoot)) {
    const target = path.join(sourceRoot, file);
    const current = existsSync(target) ? readFileSync(target, "utf8") : "";
    if (current !== source) {
      writeFileSync(target, source);
      written.push(`src/${file}`);
    }
  }
  return written;
}

/** `image_agents` → `ImageAgents`. */
export function pascalCase(snake: string): string {
  return snake.split(/[_-]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("");
}

/** `image_agents` → `imageAgents`. */
export function camelCase(snake: string): string {
  const pascal = pascalCase(snake);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}
