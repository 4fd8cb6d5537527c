// The review link in a real headless Chromium (Debian's, driven by playwright-core): a reviewer
// opens the link with no key, reads the script (paragraphs in order with their speakers; script
// text shown as text, never run), leaves a note through the form and sees it thanked; the note is
// then in scripts.notes. A rotated link is 404; a link without notes has no form. Nothing leaves
// the machine and the page's policy blocks nothing the page needs.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixture, useService, type Client } from "../support/service.js";
import { launchChromium, offMachine, recordRequests } from "../support/browser.js";
import { newId } from "../../src/ids.js";
import { postReviewNote } from "../../src/scripts/review/client.js";
import { ok } from "../support/action-calls.js";

// The keyless window is shared by every test on this address; this file's service allows plenty.
const service = useService({ anonymousPerMinute: 100_000 });
const prisma = () => service.service.database.prisma;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

type Row = Record<string, any>;  

const post = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);

const HOSTILE = '<script>alert("pwned")</script><img src=x onerror=alert(2)> & more';

/** A browser tab that records every request, dialog and policy complaint. */
async function openTab(): Promise<{ context: BrowserContext; page: Page; requests: string[]; dialogs: string[]; complaints: string[] }> {
  const context = await browser.newContext();
  const requests = recordRequests(context);
  const page = await context.newPage();
  const dialogs: string[] = [];
  const complaints: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) complaints.push(message.text());
  });
  return { context, page, requests, dialogs, complaints };
}

describe("the review page in a browser", () => {
  it("shows the script, takes a note through its form, and the note reaches scripts.notes", { timeout: 120_000 }, async () => {
    const { client } = await createFixture(service);
    const { script_id: scriptId } = ok(await post(client, "create", { title: "Why cats purr", speaker: "Ada" }));
    const ids: string[] = [];
    for (const text of ["Cats purr.", HOSTILE, "Nobody fully knows why."]) ids.push(ok(await post(client, "insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
    const bo = await prisma().scriptSpeaker.create({ data: { speaker_id: newId("script_speaker"), script_id: scriptId, position: 1, name: "Bo" } });
    await prisma().scriptParagraph.update({ where: { paragraph_id: ids[2]! }, data: { speaker_id: bo.speaker_id } });
    const { url } = ok(await post(client, "share", { script_id: scriptId, enabled: true, allow_notes: true }));

    const { context, page, requests, dialogs, complaints } = await openTab();
    try {
      const opened = await page.goto(url);
      expect(opened?.status()).toBe(200);
      await expect.poll(() => page.locator("h1").innerText()).toBe("Why cats purr");
      // Paragraphs in order, each with its speaker; the hostile one is shown as text.
      const articles = page.locator("article");
      expect(await articles.count()).toBe(3);
      expect(await page.locator("article .text").allInnerTexts()).toEqual(["Cats purr.", HOSTILE, "Nobody fully knows why."]);
      expect(await page.locator("article .speaker").allInnerTexts()).toEqual(["Ada", "Ada", "Bo"]);
      expect(await page.locator("article img, main script").count()).toBe(0);
      // The inline style ran under the page's policy (its hash is allowed): articles are white cards.
      expect(await articles.first().evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(255, 255, 255)");

      // What a reviewer does: open the note form of the second paragraph, write, send.
      const second = articles.nth(1);
      await second.locator("summary").click();
      await second.locator('input[name="name"]').fill("Rosa");
      await second.locator('textarea[name="body"]').fill('Cut the <script> bit & say "purr" twice.');
      await Promise.all([page.waitForURL(/\?sent=1#p-2$/), second.locator("button[type=submit]").click()]);
      await expect.poll(() => page.locator(".notice").innerText()).toContain("your note was sent");

      const notes = ok(await client.get(`/api/v1/actions/scripts.notes?script_id=${scriptId}`)).notes;
      expect(notes).toEqual([expect.objectContaining({ paragraph_id: ids[1], author_name: "Rosa", body: 'Cut the <script> bit & say "purr" twice.', status: "open", paragraph_position: 1 })]);

      // A note on the whole script, from the form at the end, without a name.
      const whole = page.locator("section.script-note");
      await whole.locator("summary").click();
      await whole.locator('textarea[name="body"]').fill("Lovely overall.");
      await Promise.all([page.waitForURL(/\?sent=1$/), whole.locator("button[type=submit]").click()]);
      const all = ok(await client.get(`/api/v1/actions/scripts.notes?script_id=${scriptId}`)).notes;
      expect(all.map((note: Row) => [note.paragraph_id, note.author_name, note.body])).toEqual([[ids[1], "Rosa", 'Cut the <script> bit & say "purr" twice.'], [null, null, "Lovely overall."]]);

      expect(dialogs).toEqual([]);
      expect(complaints).toEqual([]);
      expect(offMachine(requests)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows 404 for a rotated link, and no form where notes are not allowed (a POST is refused)", { timeout: 120_000 }, async () => {
    const { client } = await createFixture(service);
    const { script_id: scriptId } = ok(await post(client, "create", { title: "Read only" }));
    const { paragraph } = ok(await post(client, "insert_paragraph", { script_id: scriptId, text: "Look, do not touch." }));
    const first = ok(await post(client, "share", { script_id: scriptId, enabled: true }));
    const rotated = ok(await post(client, "share", { script_id: scriptId, rotate: true }));

    const { context, page } = await openTab();
    try {
      const old = await page.goto(first.url);
      expect(old?.status()).toBe(404);
      await expect.poll(() => page.locator("h1").innerText()).toBe("Review link not found");
      expect(await page.locator("article").count()).toBe(0);

      const current = await page.goto(rotated.url);
      expect(current?.status()).toBe(200);
      expect(await page.locator("article .text").allInnerTexts()).toEqual(["Look, do not touch."]);
      expect(await page.locator("form, textarea, details").count()).toBe(0);
      await expect.poll(() => page.locator(".closed").innerText()).toBe("Notes are not open on this link.");
    } finally {
      await context.close();
    }
    expect((await postReviewNote(rotated.url, { paragraph_id: paragraph.paragraph_id, body: "Sneaky." }, { redirect: "manual" })).status).toBe(403);
    expect(ok(await client.get(`/api/v1/actions/scripts.notes?script_id=${scriptId}`)).notes).toEqual([]);
  });
});
