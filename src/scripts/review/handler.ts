// The review link's routes, served without a key (docs/scripts.md, "Review"):
//   GET  /review/<token>        the script, paragraphs in order with their speakers
//   POST /review/<token>/notes  a reviewer's note (an HTML form), when the link allows notes
// A token that is unknown, rotated away or switched off is 404, on both. The link is its own
// permission, like a signed file link; its address is counted against the keyless window by the
// caller (src/http/app.ts). A note is the reviewer's, not a change of the document: it takes no
// restore point and does not move the revision.
import type { PrismaClient } from "../../generated/prisma/client.js";
import { currentRequestContext } from "../../context/request-context.js";
import { newId } from "../../ids.js";
import { assertDeclaredLengthWithin, withBufferedBody } from "../../web/request-body.js";
import { loadDocument } from "../document.js";
import { chosenRecordings } from "../recordings.js";
import { languageCode, timeline } from "../timing.js";
import { NOTE_BODY_MAX, NOTE_NAME_MAX, REVIEW_CSP, messagePage, reviewPage } from "./page.js";
import { REVIEW_PATH, TOKEN_PATTERN } from "./token.js";
import { Response } from "../../response.js";

/** Largest note form read (a 2,000-character note, percent-encoded, fits many times over). */
export const REVIEW_FORM_MAX_BYTES = 32 * 1024;
/** Notes a script keeps from its review link (open and resolved); past it, more are refused. */
export const NOTES_PER_SCRIPT = 1000;

export function isReviewPath(path: string): boolean {
  return path === REVIEW_PATH || path.startsWith(`${REVIEW_PATH}/`);
}

/** The route a review request is logged under; its token is never logged. */
export function reviewRouteName(path: string): string {
  return path.endsWith("/notes") ? `${REVIEW_PATH}/{token}/notes` : `${REVIEW_PATH}/{token}`;
}

function html(request: Request, status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(request.method === "HEAD" ? null : body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": REVIEW_CSP,
      // The token is in the address: it must not travel on in a Referer, a cache or a search index.
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "x-robots-tag": "noindex, nofollow",
      ...headers,
    },
  });
}

const GONE = "This review link does not exist, was replaced by a new one, or was switched off. Ask the author for the current link.";

export function createReviewHandler(prisma: PrismaClient) {
  async function sharedScript(token: string) {
    if (!TOKEN_PATTERN.test(token)) return null;
    return prisma.script.findFirst({ where: { share_token: token, share_enabled: true } });
  }

  async function showScript(request: Request, url: URL, token: string): Promise<Response> {
    const script = await sharedScript(token);
    if (!script) return html(request, 404, messagePage("Review link not found", GONE));
    const [document, recordings] = await Promise.all([loadDocument(prisma, script.script_id), chosenRecordings(prisma, script.script_id)]);
    const timed = timeline(document.paragraphs, script.language, recordings);
    const base = document.speakers.find((speaker) => speaker.is_base) ?? document.speakers[0];
    const speakers = new Map(document.speakers.map((speaker) => [speaker.speaker_id, speaker.name]));
    const chapters = new Map(document.chapters.map((chapter) => [chapter.chapter_id, chapter.title]));
    const page = reviewPage({
      title: script.title?.trim() || "Untitled script",
      language: languageCode(script.language),
      path: `${REVIEW_PATH}/${token}`,
      allowNotes: script.share_allow_notes,
      runtimeMs: timed.at(-1)?.end_ms ?? 0,
      sent: url.searchParams.get("sent") === "1",
      paragraphs: document.paragraphs.map((paragraph, index) => ({
        paragraph_id: paragraph.paragraph_id,
        number: index + 1,
        role: paragraph.role,
        speaker: (paragraph.speaker_id && speakers.get(paragraph.speaker_id)) || base?.name || "Narrator",
        chapter: paragraph.chapter_id ? (chapters.get(paragraph.chapter_id) ?? null) : null,
        start_ms: timed[index]!.start_ms,
        text: paragraph.text,
      })),
    });
    return html(request, 200, page);
  }

  async function leaveNote(request: Request, token: string): Promise<Response> {
    const back = `${REVIEW_PATH}/${token}`;
    const script = await sharedScript(token);
    if (!script) return html(request, 404, messagePage("Review link not found", GONE));
    if (!script.share_allow_notes) return html(request, 403, messagePage("Notes are not open", "This review link shows the script, but its author has not opened it to notes.", back));
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") {
      return html(request, 415, messagePage("Note not sent", "A note is sent with the page's form (application/x-www-form-urlencoded).", back));
    }
    assertDeclaredLengthWithin(request, REVIEW_FORM_MAX_BYTES);
    const form = new URLSearchParams(await (await withBufferedBody(request, REVIEW_FORM_MAX_BYTES)).text());
    const context = currentRequestContext();
    if (context) context.bodyRead = true;
    const body = (form.get("body") ?? "").replace(/\r\n?/g, "\n").trim();
    const name = (form.get("name") ?? "").replace(/\s+/gu, " ").trim();
    const paragraphId = (form.get("paragraph_id") ?? "").trim();
    const refuse = (message: string) => html(request, 422, messagePage("Note not sent", message, back));
    if (!body) return refuse("The note is empty: write what you want the author to know.");
    if ([...body].length > NOTE_BODY_MAX) return refuse(`A note holds at most ${NOTE_BODY_MAX} characters.`);
    if ([...name].length > NOTE_NAME_MAX) return refuse(`A name holds at most ${NOTE_NAME_MAX} characters.`);
    if (paragraphId && !(await prisma.scriptParagraph.findFirst({ where: { script_id: script.script_id, paragraph_id: paragraphId }, select: { paragraph_id: true } }))) {
      return refuse("That paragraph is no longer in the script: reload the page and leave the note again.");
    }
    const kept = await prisma.scriptNote.count({ where: { script_id: script.script_id, status: { in: ["open", "resolved"] } } });
    if (kept >= NOTES_PER_SCRIPT) return html(request, 429, messagePage("Note not sent", `This script holds its limit of ${NOTES_PER_SCRIPT} notes. Ask the author to clear some.`, back));
    await prisma.scriptNote.create({
      data: { note_id: newId("script_note"), script_id: script.script_id, paragraph_id: paragraphId || null, author_name: name || null, body },
    });
    // Post, redirect, get: a reload does not send the note twice.
    const number = paragraphId ? (await prisma.scriptParagraph.findFirst({ where: { paragraph_id: paragraphId }, select: { position: true } }))?.position : undefined;
    return html(request, 303, "", { location: `${back}?sent=1${number === undefined ? "" : `#p-${number + 1}`}` });
  }

  return async function serveReview(request: Request, url: URL): Promise<Response> {
    const match = /^\/review\/([^/]+)(\/notes)?\/?$/.exec(url.pathname);
    if (!match) return html(request, 404, messagePage("Review link not found", GONE));
    const [, token, notes] = match as unknown as [string, string, string | undefined];
    if (notes) {
      if (request.method !== "POST") return html(request, 405, messagePage("Not allowed", "Notes are sent with the page's form."), { allow: "POST" });
      return leaveNote(request, token);
    }
    if (request.method !== "GET" && request.method !== "HEAD") return html(request, 405, messagePage("Not allowed", "Open the review link in a browser."), { allow: "GET, HEAD" });
    return showScript(request, url, token);
  };
}
