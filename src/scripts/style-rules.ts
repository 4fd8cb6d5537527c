// The workspace's style guide (docs/scripts.md, "Style guide"): rules of three kinds. `banned` and
// `preferred` shape the writing (and go into every writing prompt); `spoken` acts on the voice
// only. In every rule `term` is the wording looked for in a script and `replacement` what the
// house says instead. How a term is found is one rule for the three kinds (termPattern).
import { z } from "zod";
import type { Tx } from "../db/transaction.js";
import type { PrismaClient } from "../generated/prisma/client.js";

export const ruleShape = z
  .object({
    rule_id: z.string(),
    kind: z.string().describe("banned, preferred or spoken."),
    term: z.string().describe("The wording looked for in a script."),
    replacement: z.string().nullable().describe("What the house says instead (spoken: how the voice says the term)."),
    note: z.string().nullable().describe("Why the rule exists, for the writers."),
    brief: z.string().nullable().describe("The instruction writing passes are given with the rule."),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ScriptStyleRule", description: "A rule of the workspace's style guide." });

export type StyleRuleRow = {
  rule_id: string;
  kind: string;
  term: string;
  replacement: string | null;
  note: string | null;
  brief: string | null;
  created_at: Date;
};

export function presentRule(row: StyleRuleRow): z.output<typeof ruleShape> {
  return {
    rule_id: row.rule_id,
    kind: row.kind,
    term: row.term,
    replacement: row.replacement,
    note: row.note,
    brief: row.brief,
    created_at: row.created_at.toISOString(),
  };
}

/** Kinds in the order the guide lists them. */
export const RULE_KINDS = ["banned", "preferred", "spoken"] as const;

/** The workspace's rules: by kind (banned, preferred, spoken), then term. */
export async function workspaceRules(client: PrismaClient | Tx, workspaceId: string): Promise<StyleRuleRow[]> {
  const rows = await client.styleRule.findMany({ where: { workspace_id: workspaceId }, orderBy: [{ term: "asc" }, { rule_id: "asc" }] });
  return rows.sort((a, b) => RULE_KINDS.indexOf(a.kind as never) - RULE_KINDS.indexOf(b.kind as never));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Where a term occurs: as a whole (no letter or digit right before or after it), with runs of
 * spaces in the term matching any run of white space. Smart case: a term written all in lower
 * case matches any case ("utilize" finds "Utilize"); a term with a capital matches only as written
 * ("US" never finds "us").
 */
export function termPattern(term: string): RegExp {
  const body = term.trim().split(/\s+/u).map(escapeRegExp).join("\\s+");
  const caseless = term === term.toLowerCase();
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, caseless ? "giu" : "gu");
}

export interface TermMatch {
  /** The text as found. */
  match: string;
  /** Offset in the text (UTF-16 code units, as JavaScript counts). */
  index: number;
}

export function findTerm(text: string, term: string): TermMatch[] {
  return [...text.matchAll(termPattern(term))].map((found) => ({ match: found[0], index: found.index }));
}

/** Longest term first, so "e.g." is replaced before a rule for "e" could split it. */
function longestFirst<Rule extends { term: string }>(rules: readonly Rule[]): Rule[] {
  return [...rules].sort((a, b) => b.term.length - a.term.length || a.term.localeCompare(b.term));
}

export interface AppliedRule {
  rule_id: string;
  term: string;
  replacement: string;
  count: number;
}

/**
 * The words the voice is handed: each `spoken` rule with a replacement replaces its term,
 * longest term first, each rule applied once over the text the previous ones left.
 */
export function applySpoken(text: string, rules: readonly StyleRuleRow[]): { text: string; applied: AppliedRule[] } {
  let spoken = text;
  const applied: AppliedRule[] = [];
  for (const rule of longestFirst(rules.filter((candidate) => candidate.kind === "spoken" && candidate.replacement !== null))) {
    let count = 0;
    spoken = spoken.replace(termPattern(rule.term), () => {
      count++;
      return rule.replacement!;
    });
    if (count > 0) applied.push({ rule_id: rule.rule_id, term: rule.term, replacement: rule.replacement!, count });
  }
  return { text: spoken, applied };
}

export interface StyleBreak extends TermMatch {
  rule_id: string;
  kind: "banned" | "preferred";
  term: string;
  replacement: string | null;
}

/** Every occurrence of a banned or preferred rule's term in a text, in reading order. */
export function styleBreaks(text: string, rules: readonly StyleRuleRow[]): StyleBreak[] {
  const breaks: StyleBreak[] = [];
  for (const rule of rules) {
    if (rule.kind !== "banned" && rule.kind !== "preferred") continue;
    for (const found of findTerm(text, rule.term)) breaks.push({ ...found, rule_id: rule.rule_id, kind: rule.kind, term: rule.term, replacement: rule.replacement });
  }
  return breaks.sort((a, b) => a.index - b.index || a.term.localeCompare(b.term));
}
