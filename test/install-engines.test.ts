// A clean install on the Node version we run: every package the lockfile installs accepts this
// Node (no EBADENGINE warnings from `npm ci`), and install scripts are all reviewed (no
// allowScripts warnings). package.json's overrides hold the pins that make this true
// (docs/install.md).
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = new URL("..", import.meta.url);

interface LockPackage {
  version?: string;
  engines?: Record<string, string> | string[];
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
}

async function readJson<T>(name: string): Promise<T> {
  return JSON.parse(await readFile(fileURLToPath(new URL(name, ROOT)), "utf8")) as T;
}

/** Optional packages for other platforms (ffmpeg for darwin, ...) are never installed here. */
function installsHere(entry: LockPackage): boolean {
  return (!entry.os || entry.os.includes(process.platform)) && (!entry.cpu || entry.cpu.includes(process.arch));
}

/** `node_modules/a/node_modules/@b/c` -> `@b/c` */
function packageName(lockPath: string): string {
  return lockPath.slice(lockPath.lastIndexOf("node_modules/") + "node_modules/".length);
}

describe("clean install", () => {
  it("installs only packages whose engines accept the Node version the project runs on", async () => {
    const lock = await readJson<{ packages: Record<string, LockPackage> }>("package-lock.json");
    const refusing: string[] = [];
    for (const [lockPath, entry] of Object.entries(lock.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (lockPath === "" || !range) continue;
      if (!semver.satisfies(process.versions.node, range)) refusing.push(`${packageName(lockPath)}@${entry.version} wants node ${range}`);
    }
    expect(refusing).toEqual([]);
  });

  it("runs on the Node version package.json declares", async () => {
    const manifest = await readJson<{ engines: { node: string } }>("package.json");
    expect(semver.satisfies(process.versions.node, manifest.engines.node)).toBe(true);
  });

  it("has a reviewed allowScripts decision for every package with an install script", async () => {
    const lock = await readJson<{ packages: Record<string, LockPackage> }>("package-lock.json");
    const manifest = await readJson<{ allowScripts: Record<string, boolean> }>("package.json");
    const withScripts = Object.entries(lock.packages).filter(([lockPath, entry]) => lockPath !== "" && entry.hasInstallScript && installsHere(entry)).map(([lockPath]) => packageName(lockPath));
    const unreviewed = [...new Set(withScripts)].filter((name) => !(name in manifest.allowScripts));
    expect(unreviewed).toEqual([]);
  });
});
