// Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core
// (never a downloaded browser). A missing binary fails the test with the command that installs it.
import { access, constants } from "node:fs/promises";
import { chromium, type Browser, type BrowserContext } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";

// Without the background-networking flags Chromium keeps calling hosts this machine cannot reach.
const LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

export async function launchChromium(): Promise<Browser> {
  try {
    await access(CHROMIUM_PATH, constants.X_OK);
  } catch {
    throw new Error(
      `The browser tests need Debian's Chromium at ${CHROMIUM_PATH}: run \`apt-get update && apt-get install -y chromium\` ` +
        "(.ci/run installs it when it is missing).",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS, headless: true });
}

/** Every URL a browser context asks for, its pages' and workers' alike. */
export function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on("request", (request) => urls.push(request.url()));
  return urls;
}

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The recorded requests that would leave the machine (blob: and data: URLs never do). */
export function offMachine(urls: readonly string[]): string[] {
  return urls.filter((url) => {
    const parsed = new URL(url);
    if (parsed.protocol === "blob:" || parsed.protocol === "data:" || parsed.protocol === "about:") return false;
    return !LOCAL_HOSTS.has(parsed.hostname);
  });
}
