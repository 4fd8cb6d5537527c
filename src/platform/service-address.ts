// The address `npm start` listens on, left in its data directory while it runs, so that a CLI
// refused the embedded database (it is held by that process) can name the running service
// exactly, whatever PORT or HOST it was started with.
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

const FILE = "service-url";

export async function writeServiceAddress(dataDir: string, url: string): Promise<void> {
  await writeFile(path.join(dataDir, FILE), `${url}\n`, "utf8");
}

export async function removeServiceAddress(dataDir: string): Promise<void> {
  await rm(path.join(dataDir, FILE), { force: true });
}

/** The running service's address, if it left one that reads as an http(s) URL. */
export async function readServiceAddress(dataDir: string): Promise<string | undefined> {
  const text = (await readFile(path.join(dataDir, FILE), "utf8").catch(() => "")).trim();
  return /^https?:\/\/[^\s]+$/.test(text) ? text : undefined;
}
