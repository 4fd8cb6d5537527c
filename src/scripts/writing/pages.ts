// Pages a writing pass reads (scripts.write_from_source's `source_url`, scripts.write_from_link's
// `urls`): through the page reader, hence the one URL guard (public addresses only, every redirect
// checked again), never inside a transaction. A page that cannot be read is the caller's to fix:
// 400 `invalid_request` at the field that named it, never a 5xx, and nothing is written.
import type { CallProviders } from "../../actions/framework/action.js";
import { ApiError } from "../../errors/api-error.js";
import type { PageResult } from "../../providers/types.js";
import { unreadable } from "../actions/add_source.js";

/** Characters of each page's readable text a prompt carries. */
export const PAGE_PROMPT_CHARACTERS = 20_000;

export async function readPage(providers: CallProviders, url: string, param: string): Promise<PageResult> {
  try {
    return await providers.get("page").read(url);
  } catch (error) {
    const refusal = unreadable(error, param);
    return Promise.reject(refusal.param === param ? refusal : new ApiError(refusal.code, refusal.message, { param, details: refusal.details, hint: refusal.hint }));
  }
}

/** A page's text as a prompt carries it: bounded. */
export function pageForPrompt(text: string): string {
  return text.length <= PAGE_PROMPT_CHARACTERS ? text : `${text.slice(0, PAGE_PROMPT_CHARACTERS)}\n[…]`;
}
