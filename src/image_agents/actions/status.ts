// image_agents.status (catalog 4.7): where several image generation jobs stand, in the order asked
// (images.generate's and image_agents.generate's alike): status, progress from the job's
// operation, the images stored so far as fresh signed links, credits consumed, the error. Every id
// must be an image generation of the caller's workspace: another workspace's is 403, an unknown
// one (or another kind of generation) 404, before anything is answered.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { ids } from "../../actions/catalog/define.js";
import { ApiError, notFound } from "../../errors/api-error.js";

const jobStatus = z
  .object({
    object: z.literal("image_generation_status"),
    generation_id: z.string(),
    status: z.enum(["pending", "running", "completed", "failed"]),
    progress: z.number().describe("Percent, 0 to 100."),
    count: z.number().int().describe("Images asked for."),
    images_done: z.number().int().describe("Images drawn and stored so far."),
    output_urls: z.array(z.string()).describe("Signed links to the images stored so far (fresh on each call)."),
    credits_consumed: z.number().int().describe("Credits held while it runs; what it used once it ended."),
    error_message: z.string().nullable(),
    created_at: z.iso.datetime({ offset: true }),
    completed_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: "ImageGenerationStatus", description: "Where one image generation job stands." });

const storedFiles = (value: unknown): { key: string }[] => {
  const files = (value as { files?: unknown } | null)?.files;
  return Array.isArray(files) ? (files as { key: string }[]).filter((file) => typeof file?.key === "string") : [];
};

export default defineAction({
  name: "image_agents.status",
  method: "POST",
  scopes: ["generations:read"],
  credits: false,
  input: z.strictObject({ generation_ids: ids(100) }),
  weight: 1,
  purpose: "status of one or more image generation jobs",
  output: z.object({ object: z.literal("image_generation_statuses"), data: z.array(jobStatus) }),
  async example(setup) {
    const agent = await setup.action("image_agents.create", { agent_name: "Poster painter", agent_prompt_template: "A poster of a lighthouse" });
    const job = await setup.action("image_agents.generate", { agent_id: agent.agent_id });
    return { generation_ids: [job.generation_id] };
  },
  async run({ tx, graphql }, input) {
    const wanted = [...new Set(input.generation_ids)];
    const rows = await tx.generation.findMany({ where: { generation_id: { in: wanted } } });
    const operations = await tx.operation.findMany({ where: { subject_id: { in: wanted }, kind: "image_generation" }, select: { subject_id: true, progress: true, checkpoint: true } });
    const data = wanted.map((generationId) => {
      const row = rows.find((candidate) => candidate.generation_id === generationId);
      if (!row || row.agent_type !== "image") throw notFound("image generation", generationId, "generation_ids");
      if (row.workspace_id !== graphql.auth.workspaceId) throw new ApiError("workspace_mismatch", `The generation '${generationId}' belongs to another workspace.`, { param: "generation_ids" });
      const operation = operations.find((candidate) => candidate.subject_id === generationId);
      // A completed job lists its files on the record; until then (and when it failed) its operation's checkpoint does.
      const files = row.status === "completed" ? storedFiles(row.generation_metadata) : storedFiles(operation?.checkpoint);
      const count = Number((row.generation_metadata as { count?: unknown } | null)?.count ?? files.length) || 1;
      return {
        object: "image_generation_status" as const,
        generation_id: row.generation_id,
        status: row.status as "pending" | "running" | "completed" | "failed",
        progress: row.status === "completed" ? 100 : (operation?.progress ?? 0),
        count,
        images_done: files.length,
        output_urls: files.map((file) => graphql.services.files.signedUrl(file.key)),
        credits_consumed: row.credits_consumed,
        error_message: row.error_message,
        created_at: row.created_at.toISOString(),
        completed_at: row.completed_at?.toISOString() ?? null,
      };
    });
    return { object: "image_generation_statuses" as const, data };
  },
});
