// The served documentation: /docs renders the live OpenAPI document with a self-hosted Redoc (in a
// real headless Chromium, offline), /docs/openapi.json is that document without a key, and every
// error's doc_url lands on an entry of /docs/api/errors generated from the closed code enum.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../src/errors/codes.js";
import { ERROR_CODE_DOCS } from "../src/errors/code-docs.js";
import { createFixture, useService } from "./support/service.js";
import { launchChromium, offMachine, recordRequests } from "./support/browser.js";

const service = useService();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Text as a browser would show it: tags dropped, entities decoded, spaces collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, " ");
}

describe("the API reference at /docs", () => {
  it("answers without a key, with no asset from another host, and forbids any by its CSP", async () => {
    const response = await fetch(`${service.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).not.toMatch(/(src|href|spec-url)="(https?:)?\/\//);
    expect(html).toContain('spec-url="/docs/openapi.json"');
    const bundle = await fetch(`${service.url}/docs/assets/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toMatch(/javascript/);
  });

  it("serves without a key the same OpenAPI document /api/v1/openapi.json serves to a key", async () => {
    const fixture = await createFixture(service);
    const keyless = await fetch(`${service.url}/docs/openapi.json`);
    expect(keyless.status).toBe(200);
    const withKey = await fixture.client.get("/api/v1/openapi.json");
    expect(withKey.status).toBe(200);
    expect(await keyless.json()).toEqual(withKey.body);
    // The /api/v1 copy stays behind the key, like every route but health.
    const refused = await fixture.client.get("/api/v1/openapi.json", { key: null });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("missing_credentials");
  });

  it("answers a wrong verb with 405 and an unknown page with 404, in the envelope", async () => {
    const client = (await createFixture(service)).client;
    const post = await client.post("/docs", {}, { key: null });
    expect(post.status).toBe(405);
    expect(post.body.error.code).toBe("method_not_allowed");
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const missing = await client.get("/docs/nothing-here", { key: null });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });

  it("renders in a real browser from the service alone", { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    const requests = recordRequests(context);
    try {
      const page = await context.newPage();
      await page.goto(`${service.url}/docs`);
      // Redoc has read the document: its title, a tag and an operation of it are on the page.
      await page.getByRole("heading", { name: /Cutroom API/ }).first().waitFor({ timeout: 60_000 });
      await page.getByText("/videos/{video_id}").filter({ visible: true }).first().waitFor({ timeout: 30_000 });
      expect(await page.locator("[role=menuitem]").count()).toBeGreaterThan(20);
      expect(requests).toContain(`${service.url}/docs/openapi.json`);
      expect(offMachine(requests)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("the error codes page every doc_url points to", () => {
  it("has one entry per code of the closed enum, with its status, retryable, meaning and what to do", async () => {
    const response = await fetch(`${service.url}/docs/api/errors`);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const section = new RegExp(`<section id="${code}">([\\s\\S]*?)</section>`).exec(html)?.[1];
      expect(section, `entry for ${code}`).toBeDefined();
      const text = visibleText(section!);
      expect(text).toContain(`HTTP status ${ERROR_CODES[code].status}`);
      expect(text).toContain(`type ${ERROR_CODES[code].type}`);
      expect(text).toContain(`retryable ${ERROR_CODES[code].retryable}`);
      expect(text).toContain(ERROR_CODE_DOCS[code].meaning);
      expect(text).toContain(ERROR_CODE_DOCS[code].action);
    }
  });

  it("is where a real error's doc_url leads, and shows that entry in the browser", { timeout: 120_000 }, async () => {
    const refused = await (await createFixture(service)).client.get("/api/v1/videos", { key: null });
    expect(refused.body.error.doc_url).toBe(`${service.url}/docs/api/errors#missing_credentials`);

    const context = await browser.newContext();
    const requests = recordRequests(context);
    try {
      const page = await context.newPage();
      const response = await page.goto(refused.body.error.doc_url);
      expect(response?.status()).toBe(200);
      const entry = page.locator("section#missing_credentials");
      await expect.poll(() => entry.isVisible()).toBe(true);
      expect(await entry.innerText()).toContain(ERROR_CODE_DOCS.missing_credentials.action);
      expect(offMachine(requests)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
