// The error codes page (/docs/api/errors): one entry per code of the closed enum, anchored by the
// code, so every `doc_url` (`{base}/docs/api/errors#<code>`) lands on its own entry.
import { ERROR_CODES, type ErrorCode } from "../errors/codes.js";
import { ERROR_CODE_DOCS } from "../errors/code-docs.js";
import { escapeHtml, page } from "../web/html.js";

function entry(code: ErrorCode): string {
  const spec = ERROR_CODES[code];
  const doc = ERROR_CODE_DOCS[code];
  return `<section id="${code}">
  <h2><a href="#${code}"><code>${code}</code></a></h2>
  <dl>
    <dt>HTTP status</dt><dd>${spec.status}</dd>
    <dt>type</dt><dd><code>${spec.type}</code></dd>
    <dt>retryable</dt><dd><code>${spec.retryable}</code></dd>
    <dt>Meaning</dt><dd>${escapeHtml(doc.meaning)}</dd>
    <dt>What to do</dt><dd>${escapeHtml(doc.action)}</dd>
  </dl>
</section>`;
}

export function errorCodesPage(): string {
  const codes = (Object.keys(ERROR_CODES) as ErrorCode[]).sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status);
  const index = codes.map((code) => `<li><a href="#${code}"><code>${code}</code></a> ${ERROR_CODES[code].status}</li>`).join("\n");
  return page(
    "Cutroom API: error codes",
    `<h1>Error codes</h1>
<p>Every failure, on REST and GraphQL alike, is one envelope under a top-level <code>error</code> key:
<code>type</code>, <code>code</code>, <code>status</code>, <code>message</code>, and where they apply <code>param</code>,
<code>details</code>, <code>hint</code>, then <code>retryable</code>, <code>livemode</code>, <code>request_id</code> (also in the
<code>X-Request-Id</code> header) and <code>doc_url</code>, the link to the entry below. Branch on <code>code</code>:
codes are stable, messages are not. <code>retryable</code> says whether sending the identical request again can ever
succeed. GraphQL answers carry the same fields in each error's <code>extensions</code>.</p>
<nav><ul class="codes">${index}</ul></nav>
${codes.map(entry).join("\n")}`,
  );
}
