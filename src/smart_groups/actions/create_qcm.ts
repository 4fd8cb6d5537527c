// smart_groups.create_qcm (catalog 4.4): a multiple-choice group (type `qcm`) from the caller's
// questions, added to the video's smart_groups (video.updated). Each question is
// `{question, choices (2–6), correct_index | correct_answer, explanation?}` (`answers` is taken for
// `choices`); anything else is 422 at questions.<i>.<field>. Free; a test key's write is rolled back.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, jsonObject } from "../../actions/catalog/define.js";
import { newId } from "../../ids.js";
import { validationFailed, type ValidationIssue } from "../../validation/issues.js";
import { assertRoom, groupAnswer, loadGroups, writeGroups } from "../groups.js";
import { DECLARED_ACTIONS, questionItem, type SmartGroup } from "../shape.js";

const QUESTION_FIELDS = ["question", "choices", "answers", "correct_index", "correct_answer", "explanation"];
const sent = z.strictObject({
  question: z.string().trim().min(1).max(1_000),
  choices: z.array(z.string().trim().min(1).max(500)).min(2).max(6).optional(),
  answers: z.array(z.string().trim().min(1).max(500)).min(2).max(6).optional(),
  correct_index: z.number().int().min(0).optional(),
  correct_answer: z.string().optional(),
  explanation: z.string().max(2_000).optional(),
});

/** The stored questions, or every issue found (paths under `questions.`). */
function parseQuestions(questions: readonly Record<string, unknown>[]): z.output<typeof questionItem>[] {
  const issues: ValidationIssue[] = [];
  const parsed = questions.map((raw, index) => {
    const at = (field: string) => `questions.${index}.${field}`;
    const result = sent.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) {
        if (issue.code === "unrecognized_keys") for (const key of issue.keys) issues.push({ path: at(key), message: `Unknown field '${key}'.`, type: "object.unknown", allowed: QUESTION_FIELDS });
        else issues.push({ path: [`questions.${index}`, ...issue.path].join("."), message: issue.message, type: "any.invalid" });
      }
      return undefined;
    }
    const question = result.data;
    const choices = question.choices ?? question.answers;
    if (!choices) {
      issues.push({ path: at("choices"), message: "Give 2 to 6 choices.", type: "any.required" });
      return undefined;
    }
    const correct = question.correct_index ?? (question.correct_answer === undefined ? undefined : choices.indexOf(question.correct_answer.trim()));
    if (correct === undefined || correct < 0 || correct >= choices.length) {
      issues.push({ path: at(question.correct_answer === undefined ? "correct_index" : "correct_answer"), message: "Name the correct choice: correct_index (0-based) or correct_answer (one of the choices).", type: "any.invalid" });
      return undefined;
    }
    return questionItem.parse({ question: question.question, choices, correct_index: correct, explanation: question.explanation?.trim() || null });
  });
  if (issues.length > 0) throw validationFailed(issues);
  return parsed as z.output<typeof questionItem>[];
}

export default defineAction({
  name: "smart_groups.create_qcm",
  method: "POST",
  scopes: ["videos:write"],
  credits: false,
  input: z.strictObject({
    video_id: id(),
    questions: z.array(jsonObject()).min(1).max(100),
  }),
  weight: 1,
  purpose: "multiple-choice question group from a question set",
  output: groupAnswer,
  async example(setup) {
    const video = await setup.create("videos", { video_name: "Tides" });
    return { video_id: video.video_id, questions: [{ question: "What pulls the tides?", choices: ["The Moon", "The wind"], correct_index: 0 }] };
  },
  async run({ tx, graphql }, input) {
    const items = parseQuestions(input.questions);
    const video = await loadGroups(tx, graphql, input.video_id);
    assertRoom(video);
    const now = new Date().toISOString();
    const group: SmartGroup = { group_id: newId("smart_group"), type: "qcm", title: items[0]!.question.slice(0, 200), topic: null, actions: [...DECLARED_ACTIONS.qcm], items, created_at: now, updated_at: now };
    await writeGroups(tx, graphql, video, [...video.groups, group], false);
    return { object: "smart_group" as const, video_id: video.video_id, group };
  },
});
