// What scripts.research_topic and scripts.research_all share (docs/scripts.md, "Research"): one
// web search through the `search` provider, the results as a prompt shows them, and filing facts
// as the script's sources (kind `research`, status `confirmed`) inside the call's one write. A fact
// filed already — same address, same words — is not filed twice: its source is answered again.
import type { Tx } from "../../db/transaction.js";
import type { ModelContext } from "../../actions/framework/action.js";
import { newId } from "../../ids.js";
import type { SearchHit } from "../../providers/types.js";
import type { ScriptWrite } from "../document.js";
import { presentSource } from "../present.js";
import { languageCode } from "../timing.js";
import type { PassDocument } from "./pass.js";

/** Results read per web search. */
export const RESULTS_PER_SEARCH = 5;
/** Subjects scripts.research_all searches, at most (one web search each). */
export const RESEARCH_SUBJECTS = 4;
/** Facts scripts.research_topic files from one search, at most. */
export const FACTS_PER_TOPIC = 10;

/** One web search in the script's language; its results, at most RESULTS_PER_SEARCH. */
export async function webSearch(context: ModelContext, document: PassDocument, query: string): Promise<SearchHit[]> {
  const found = await context.providers.get("search").search({ query, limit: RESULTS_PER_SEARCH, language: languageCode(document.script.language) });
  return found.results.slice(0, RESULTS_PER_SEARCH);
}

/** Search results as a prompt shows them: numbered, with their address, title and snippet. */
export function resultsBlock(hits: readonly SearchHit[]): string {
  if (hits.length === 0) return "(the search found nothing)";
  return hits.map((hit, index) => `${index + 1}. ${hit.title}\n   ${hit.url}\n   ${hit.snippet.replace(/\s+/gu, " ").trim()}`).join("\n");
}

export interface Fact {
  /** The result the fact comes from. */
  hit: SearchHit;
  /** The fact, as filed (the source's snippet). */
  text: string;
}

/**
 * Files facts as research sources of the script, logging each new one (`source.add`); a fact filed
 * already (same address and words) is answered with its source and `created: false`. The log
 * entries written, in order.
 */
export async function fileFacts(tx: Tx, write: ScriptWrite, scriptId: string, facts: readonly Fact[]) {
  const filed = new Map<string, { source: ReturnType<typeof presentSource>; created: boolean }>();
  const answers: { source: ReturnType<typeof presentSource>; created: boolean }[] = [];
  const editIds: string[] = [];
  for (const fact of facts) {
    const key = JSON.stringify([fact.hit.url, fact.text]);
    let entry = filed.get(key);
    if (!entry) {
      const existing = await tx.scriptSource.findFirst({ where: { script_id: scriptId, kind: "research", url: fact.hit.url, snippet: fact.text }, orderBy: { created_at: "asc" } });
      if (existing) entry = { source: presentSource(existing), created: false };
      else {
        const row = await tx.scriptSource.create({
          data: { source_id: newId("script_source"), script_id: scriptId, kind: "research", url: fact.hit.url, title: fact.hit.title.trim() || null, snippet: fact.text, excerpt: fact.hit.snippet, status: "confirmed" },
        });
        entry = { source: presentSource(row), created: true };
        editIds.push(await write.edit({ kind: "source.add", after: entry.source }));
      }
      filed.set(key, entry);
    }
    answers.push(entry);
  }
  return { facts: answers, editIds };
}
