// What the faceless actions answer: a task (one of the video's operations) and the scene shape.
import { z } from "zod";
import type { OperationRow } from "../operations/kind.js";
import { facelessScene } from "./scene-shape.js";

export const taskShape = z.object({
  object: z.literal("faceless_task"),
  task_id: z.string().describe("The operation's id: faceless.check_status takes it."),
  kind: z.string().describe("faceless_audio, faceless_visual or faceless_pipeline."),
  video_id: z.string(),
  status: z.string().describe("queued, running, completed, failed or canceled."),
  progress: z.number(),
  credits_held: z.number().int(),
  credits_spent: z.number().int(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});

export function presentTask(row: OperationRow): z.input<typeof taskShape> {
  return {
    object: "faceless_task",
    task_id: row.operation_id,
    kind: row.kind,
    video_id: row.subject_id,
    status: row.status,
    progress: row.progress,
    credits_held: row.credits_held,
    credits_spent: row.credits_spent,
    error_code: row.error_code,
    error_message: row.error_message,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
  };
}

/** Scenes as answered: the stored shape. */
export const scenesOutput = z.array(facelessScene.meta({ id: "FacelessScene" }));
