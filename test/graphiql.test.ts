// GraphiQL at /graphql works on a machine without internet: a real headless Chromium loads the
// page, finds the Authorization template in the headers editor, puts a key there, runs a query
// and sees its result, loads the schema explorer, and never asks for anything beyond this service.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** The text of a Monaco editor, as a user sees it (one line per row, no-break spaces as spaces). */
async function editorText(page: Page, index: number): Promise<string> {
  const text = await page.locator(".graphiql-editor:not(.hidden) .monaco-editor .view-lines").nth(index).innerText();
  return text.replace(/\u00a0/g, " ");
}

describe("GraphiQL", () => {
  it("is served with its assets inlined: no script, style or font from another host", async () => {
    const response = await fetch(`${service.url}/graphql`, { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="(https?:)?\/\//);
    expect(html).toContain("Cutroom GraphQL");
  });

  it("opens with an Authorization template, runs a query with the key put there, and stays on this machine", { timeout: 120_000 }, async () => {
    const fixture = await createFixture(service);
    await fixture.client.post("/api/v1/videos", { video_name: "Shown in GraphiQL", video_format: "square" });

    const context = await browser.newContext();
    const requests = recordRequests(context);
    try {
      const page = await context.newPage();
      await page.goto(`${service.url}/graphql`);
      const run = page.locator(".graphiql-execute-button");
      await run.waitFor({ timeout: 60_000 });

      // Editors: the query, then the headers (variables are hidden behind their tab).
      expect(await editorText(page, 1)).toContain('"Authorization": "Bearer <your key>"');

      // The schema explorer works before any key: introspection needs none (README), so the
      // page does not open on a 401.
      await page.getByLabel(/Show Documentation Explorer/).first().click();
      await expect.poll(async () => (await page.locator(".graphiql-plugin").innerText()).replace(/\s+/g, " "), { timeout: 30_000 }).toContain("query: Query");
      expect(await page.locator(".graphiql-response").innerText()).not.toMatch(/missing_credentials|401/);

      // What a user does: replace the template with their key, then press run.
      await page.locator(".graphiql-editor:not(.hidden) .monaco-editor").nth(1).click();
      await page.keyboard.press("Control+A");
      await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${fixture.key}` }));
      // The editor closes brackets and quotes by itself; drop what it added after the cursor.
      await page.keyboard.press("Shift+Control+End");
      await page.keyboard.press("Delete");
      await run.click();

      const result = page.locator(".graphiql-response");
      await expect.poll(async () => (await result.innerText()).replace(/\s+/g, " "), { timeout: 30_000 }).toContain('"video_name": "Shown in GraphiQL"');
      expect((await result.innerText()).replace(/\s+/g, " ")).toContain('"video_format": "square"');

      expect(requests.length).toBeGreaterThan(0);
      expect(offMachine(requests)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
