// The review page a reviewer opens from a script's review link: rendered on the server, no
// JavaScript at all, one inline style allowed by its hash. Every piece of script text and every
// input is HTML-escaped. When notes are allowed each paragraph carries a plain form (a POST to
// `<link>/notes`), and one more form takes a note on the whole script.
import { createHash } from "node:crypto";
import { escapeHtml } from "../../web/html.js";

/** Bounds of a reviewer's note (the form says them too; the server enforces them). */
export const NOTE_BODY_MAX = 2000;
export const NOTE_NAME_MAX = 100;

const STYLE = `
:root { color-scheme: light; }
body { font: 17px/1.6 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
header, main, footer { max-width: 46rem; margin: 0 auto; padding: 0 1.25rem; }
header { padding-top: 2rem; }
.eyebrow { text-transform: uppercase; letter-spacing: 0.08em; font-size: 0.75rem; color: #5b6478; margin: 0; }
h1 { margin: 0.2rem 0 0.3rem; line-height: 1.25; }
h2 { margin: 2rem 0 0.5rem; font-size: 1.1rem; color: #3b4458; }
.meta { color: #5b6478; margin: 0 0 1.5rem; font-size: 0.9rem; }
.notice { background: #e7f6ec; border: 1px solid #9fd6b0; padding: 0.6rem 0.9rem; border-radius: 6px; }
.closed { background: #f1f3f7; border: 1px solid #dde1ea; padding: 0.6rem 0.9rem; border-radius: 6px; }
article { background: #fff; border: 1px solid #dde1ea; border-radius: 8px; padding: 0.9rem 1.1rem; margin: 0 0 0.9rem; }
article:target { border-color: #7a9cf0; box-shadow: 0 0 0 3px #dfe8fd; }
.who { font-size: 0.8rem; color: #5b6478; display: flex; gap: 0.75rem; flex-wrap: wrap; }
.speaker { font-weight: 600; color: #1d2330; }
.text { white-space: pre-wrap; margin: 0.35rem 0 0; overflow-wrap: anywhere; }
details { margin-top: 0.6rem; }
summary { cursor: pointer; color: #2f5bd3; font-size: 0.9rem; }
form { display: grid; gap: 0.5rem; margin-top: 0.5rem; }
label { display: grid; gap: 0.2rem; font-size: 0.85rem; color: #3b4458; }
input, textarea { font: inherit; padding: 0.4rem 0.5rem; border: 1px solid #c5cbd8; border-radius: 5px; }
button { justify-self: start; font: inherit; padding: 0.35rem 0.9rem; border: 0; border-radius: 5px; background: #2f5bd3; color: #fff; cursor: pointer; }
footer { color: #5b6478; font-size: 0.85rem; padding-bottom: 3rem; }
`;

/** The Content-Security-Policy of every review answer: nothing but this page's own style and forms. */
export const REVIEW_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

export interface ReviewParagraph {
  paragraph_id: string;
  /** 1-based, as a reviewer counts. */
  number: number;
  role: string;
  speaker: string;
  chapter: string | null;
  /** Where it starts in the running order. */
  start_ms: number;
  text: string;
}

export interface ReviewView {
  title: string;
  language: string;
  /** The link's own path (`/review/<token>`); forms post to `<path>/notes`. */
  path: string;
  allowNotes: boolean;
  paragraphs: ReviewParagraph[];
  runtimeMs: number;
  /** The note just sent, to thank the reviewer for. */
  sent: boolean;
}

function frame(title: string, language: string, body: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function noteForm(view: ReviewView, paragraphId: string, label: string): string {
  return `<details>
<summary>${escapeHtml(label)}</summary>
<form method="post" action="${escapeHtml(view.path)}/notes">
<input type="hidden" name="paragraph_id" value="${escapeHtml(paragraphId)}">
<label>Your name (optional)<input name="name" maxlength="${NOTE_NAME_MAX}" autocomplete="name"></label>
<label>Note<textarea name="body" required maxlength="${NOTE_BODY_MAX}" rows="3"></textarea></label>
<button type="submit">Send note</button>
</form>
</details>`;
}

/** m:ss, to the nearest second. */
function clock(ms: number): string {
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

export function reviewPage(view: ReviewView): string {
  const parts: string[] = [];
  let chapter: string | null = null;
  for (const paragraph of view.paragraphs) {
    if (paragraph.chapter && paragraph.chapter !== chapter) parts.push(`<h2>${escapeHtml(paragraph.chapter)}</h2>`);
    chapter = paragraph.chapter;
    parts.push(`<article id="p-${paragraph.number}" data-paragraph-id="${escapeHtml(paragraph.paragraph_id)}">
<div class="who"><span class="speaker">${escapeHtml(paragraph.speaker)}</span><span class="role">${escapeHtml(paragraph.role)}</span><span class="at">${clock(paragraph.start_ms)}</span><span class="n">¶ ${paragraph.number}</span></div>
<p class="text">${escapeHtml(paragraph.text)}</p>
${view.allowNotes ? noteForm(view, paragraph.paragraph_id, "Leave a note on this paragraph") : ""}
</article>`);
  }
  const count = view.paragraphs.length;
  return frame(
    `${view.title} · for review`,
    view.language,
    `<header>
<p class="eyebrow">Script for review</p>
<h1>${escapeHtml(view.title)}</h1>
<p class="meta">${count} paragraph${count === 1 ? "" : "s"} · about ${clock(view.runtimeMs)} spoken</p>
${view.sent ? `<p class="notice" role="status">Thank you: your note was sent to the author.</p>` : ""}
</header>
<main>
${count === 0 ? `<p class="closed">This script has no paragraphs yet.</p>` : parts.join("\n")}
${view.allowNotes ? `<section class="script-note">${noteForm(view, "", "Leave a note on the whole script")}</section>` : `<p class="closed">Notes are not open on this link.</p>`}
</main>
<footer><p>Shared for review. This page is private to whoever has its link.</p></footer>`,
  );
}

/** A short page for an answer that is not the script (404, 403, 422, …). */
export function messagePage(title: string, message: string, back?: string): string {
  return frame(
    title,
    "en",
    `<header><p class="eyebrow">Script review</p><h1>${escapeHtml(title)}</h1></header>
<main><p>${escapeHtml(message)}</p>${back ? `<p><a href="${escapeHtml(back)}">Back to the script</a></p>` : ""}</main>`,
  );
}
