// scripts.report's analysis (docs/scripts.md, "Report"): runtime against target, shape by role,
// house-style breaks, repeated openings and stale recordings. No model; deterministic.
import { z } from "zod";
import { styleBreaks } from "../style-rules.js";
import { CTA_LATE_SHARE, HOOK_MAX_MS, INTRO_MAX_SHARE, ROLES, RUNTIME_TOLERANCE, openingOf } from "./rules.js";
import type { ScriptView, ViewParagraph } from "./view.js";

export const runtimeShape = z
  .object({
    total_ms: z.number().int().describe("The whole running order."),
    measured_ms: z.number().int().describe("The part timed from recordings."),
    estimated_ms: z.number().int().describe("The part estimated from words."),
    target_ms: z.number().int().nullable(),
    difference_ms: z.number().int().nullable().describe("Total minus target: positive runs long."),
    verdict: z.string().describe("no_target, on_target (within 10% of the target), long or short."),
    rate: z.object({ unit: z.string(), per_minute: z.number() }).describe("The speaking rate estimates use."),
  })
  .meta({ id: "ScriptRuntime", description: "How long a script runs, against its target." });

export type RuntimeVerdict = "no_target" | "on_target" | "long" | "short";

export function runtimeOf(view: ScriptView) {
  const measured = view.paragraphs.filter((paragraph) => paragraph.timing.source === "recording").reduce((sum, paragraph) => sum + paragraph.timing.duration_ms, 0);
  const target = view.target_ms;
  const difference = target === null ? null : view.total_ms - target;
  const verdict: RuntimeVerdict = target === null || difference === null ? "no_target" : Math.abs(difference) <= target * RUNTIME_TOLERANCE ? "on_target" : difference > 0 ? "long" : "short";
  return {
    total_ms: view.total_ms,
    measured_ms: measured,
    estimated_ms: view.total_ms - measured,
    target_ms: target,
    difference_ms: difference,
    verdict,
    rate: view.rate,
  };
}

export interface ShapeFinding {
  code: "empty" | "no_hook" | "long_hook" | "intro_heavy" | "no_cta" | "early_cta";
  message: string;
  paragraph_id: string | null;
}

const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 1000 : 0);

export function shapeOf(view: ScriptView) {
  const roles = ROLES.map((role) => {
    const of = view.paragraphs.filter((paragraph) => paragraph.row.role === role);
    const duration = of.reduce((sum, paragraph) => sum + paragraph.timing.duration_ms, 0);
    return { role, paragraphs: of.length, words: of.reduce((sum, paragraph) => sum + paragraph.row.word_count, 0), duration_ms: duration, share: share(duration, view.total_ms) };
  });
  const findings: ShapeFinding[] = [];
  const first = view.paragraphs[0];
  if (!first) findings.push({ code: "empty", message: "The script has no paragraphs yet.", paragraph_id: null });
  else {
    if (first.row.role !== "hook") findings.push({ code: "no_hook", message: `The script opens with a ${first.row.role} paragraph, not a hook.`, paragraph_id: first.row.paragraph_id });
    if (first.timing.duration_ms > HOOK_MAX_MS) findings.push({ code: "long_hook", message: `The opening runs ${seconds(first.timing.duration_ms)} s; over ${HOOK_MAX_MS / 1000} s it is slow to reach its point.`, paragraph_id: first.row.paragraph_id });
    const opening = roles.filter((role) => role.role === "hook" || role.role === "intro").reduce((sum, role) => sum + role.duration_ms, 0);
    if (view.total_ms > 0 && opening / view.total_ms > INTRO_MAX_SHARE) {
      findings.push({ code: "intro_heavy", message: `Hook and intro take ${Math.round((opening / view.total_ms) * 100)}% of the runtime; over ${INTRO_MAX_SHARE * 100}% they delay the substance.`, paragraph_id: null });
    }
    const ctas = view.paragraphs.filter((paragraph) => paragraph.row.role === "cta");
    if (ctas.length === 0) findings.push({ code: "no_cta", message: "No paragraph asks the viewer to act (role cta).", paragraph_id: null });
    for (const cta of ctas) {
      if (cta.timing.start_ms < view.total_ms * CTA_LATE_SHARE) {
        findings.push({ code: "early_cta", message: `A call to action at ${cta.timecode}, before the last ${Math.round((1 - CTA_LATE_SHARE) * 100)}% of the runtime, asks the viewer to leave early.`, paragraph_id: cta.row.paragraph_id });
      }
    }
  }
  return { roles, findings };
}

function seconds(ms: number): string {
  return (Math.round(ms / 100) / 10).toString();
}

export function styleBreaksOf(view: ScriptView) {
  const breaks = view.paragraphs.flatMap((paragraph) =>
    styleBreaks(paragraph.row.text, view.rules).map((found) => ({ paragraph_id: paragraph.row.paragraph_id, position: paragraph.row.position, ...found })),
  );
  return { banned: breaks.filter((found) => found.kind === "banned").length, preferred: breaks.filter((found) => found.kind === "preferred").length, breaks };
}

/** Groups of two or more paragraphs opening with the same words, in order of first use. */
export function repeatedOpenings(paragraphs: readonly ViewParagraph[]) {
  const groups = new Map<string, ViewParagraph[]>();
  for (const paragraph of paragraphs) {
    const opening = openingOf(paragraph.row.text);
    if (!opening) continue;
    groups.set(opening, [...(groups.get(opening) ?? []), paragraph]);
  }
  return [...groups.entries()]
    .filter(([, members]) => members.length > 1)
    .map(([opening, members]) => ({ opening, paragraph_ids: members.map((member) => member.row.paragraph_id), positions: members.map((member) => member.row.position) }));
}

export function recordingsOf(view: ScriptView) {
  const recorded = view.paragraphs.filter((paragraph) => paragraph.recording);
  return {
    recorded: recorded.length,
    unrecorded: view.paragraphs.length - recorded.length,
    stale: recorded.filter((paragraph) => paragraph.timing.stale).map((paragraph) => ({ paragraph_id: paragraph.row.paragraph_id, position: paragraph.row.position, take_id: paragraph.recording!.take_id })),
  };
}
