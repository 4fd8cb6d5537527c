// scripts.retention's analysis (docs/scripts.md, "Retention"): for each paragraph, the reasons a
// viewer may stop there, each with a fixed weight; the risk is their sum (at most 1). No model;
// deterministic. The thresholds are in rules.ts.
import {
  CTA_LATE_SHARE, DENSE_NUMBERS, HOOK_MAX_MS, LONG_PARAGRAPH_MS, LONG_SENTENCE_WORDS, SAME_PACE_MS, closingPhrasesIn, numbersIn, openingOf, sentencesOf, spokenWords,
} from "./rules.js";
import type { ScriptView } from "./view.js";

export const RETENTION_REASONS = {
  slow_open: { weight: 0.4, message: `The opening runs over ${HOOK_MAX_MS / 1000} s before the viewer knows why to stay.` },
  weak_open: { weight: 0.3, message: "The video does not open with a hook." },
  long_paragraph: { weight: 0.3, message: `Over ${LONG_PARAGRAPH_MS / 1000} s of one paragraph without a change.` },
  long_sentence: { weight: 0.2, message: `A sentence of more than ${LONG_SENTENCE_WORDS} words is hard to follow by ear.` },
  dense_numbers: { weight: 0.2, message: `${DENSE_NUMBERS} or more numbers in one paragraph: more than a listener keeps.` },
  repeated_opening: { weight: 0.2, message: "Opens with the same words as the paragraph before: it sounds like a repeat." },
  same_pace: { weight: 0.3, message: `Over ${SAME_PACE_MS / 1000} s of body paragraphs in a row without an example, transition or punchline.` },
  early_cta: { weight: 0.4, message: "A call to action before the end gives the viewer a reason to leave." },
  ending_signal: { weight: 0.5, message: "The script signals its end here: viewers leave once they hear it." },
} as const;

export type RetentionReason = keyof typeof RETENTION_REASONS;

/** Risk below 0.3 is low, below 0.6 medium, otherwise high. */
export function levelOf(risk: number): "low" | "medium" | "high" {
  return risk < 0.3 ? "low" : risk < 0.6 ? "medium" : "high";
}

export function retentionOf(view: ScriptView) {
  let paceStart = 0;
  let previousOpening: string | null = null;
  const paragraphs = view.paragraphs.map((paragraph, index) => {
    const { row, timing } = paragraph;
    const reasons: RetentionReason[] = [];
    if (index === 0 && timing.duration_ms > HOOK_MAX_MS) reasons.push("slow_open");
    if (index === 0 && row.role !== "hook") reasons.push("weak_open");
    if (timing.duration_ms > LONG_PARAGRAPH_MS) reasons.push("long_paragraph");
    if (sentencesOf(row.text).some((sentence) => spokenWords(sentence).length > LONG_SENTENCE_WORDS)) reasons.push("long_sentence");
    if (numbersIn(row.text) >= DENSE_NUMBERS) reasons.push("dense_numbers");
    const opening = openingOf(row.text);
    if (opening && opening === previousOpening) reasons.push("repeated_opening");
    previousOpening = opening || null;
    // A stretch of body paragraphs runs from the end of the last paragraph that is not body.
    if (row.role !== "body") paceStart = timing.end_ms;
    else if (timing.end_ms - paceStart > SAME_PACE_MS) reasons.push("same_pace");
    if (row.role === "cta" && timing.start_ms < view.total_ms * CTA_LATE_SHARE) reasons.push("early_cta");
    if (row.role === "outro" || closingPhrasesIn(row.text).length > 0) reasons.push("ending_signal");
    const risk = Math.min(1, Math.round(reasons.reduce((sum, reason) => sum + RETENTION_REASONS[reason].weight, 0) * 100) / 100);
    return {
      paragraph_id: row.paragraph_id,
      position: row.position,
      role: row.role,
      start_ms: timing.start_ms,
      duration_ms: timing.duration_ms,
      timecode: paragraph.timecode,
      risk,
      level: levelOf(risk),
      reasons: reasons.map((code) => ({ code, weight: RETENTION_REASONS[code].weight, message: RETENTION_REASONS[code].message })),
    };
  });
  // Where a viewer is likely to stop: the first high-risk paragraph, else the first medium one.
  const likely = paragraphs.find((paragraph) => paragraph.level === "high") ?? paragraphs.find((paragraph) => paragraph.level === "medium") ?? null;
  return { paragraphs, likely_stop: likely };
}
