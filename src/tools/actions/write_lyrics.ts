// tools.write_lyrics (catalog 4.5): song lyrics made from a post's comments by the text model, as
// structured output, every line keeping the id of the comment it comes from (the model may only
// name ids it was given: the schema enumerates them). Comments are objects with an id (`comment_id`
// or `id`) and a text (`body` or `text`), the shape tools.read_comments answers; `post` (any JSON,
// its `title` and `body` used when present) gives the theme. `ai_model_id` or `model_ref` picks a
// text model of the model catalog; `workspace_id`, when sent, must be the caller's. A billed
// generation (2 credits, src/generations/billed-generation.ts).
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { flag, id, integer, json, label, language, modelRef, prompt } from "../../actions/catalog/define.js";
import type { GraphQLContext } from "../../graphql/context.js";
import { ApiError } from "../../errors/api-error.js";
import { validationFailed, type ValidationIssue } from "../../validation/issues.js";
import { billedGeneration } from "../../generations/index.js";

const PRICE = 2;
const SECTIONS = ["intro", "verse", "pre_chorus", "chorus", "bridge", "outro"] as const;
const SECONDS_PER_LINE = 4;
const COMMENT_CHARACTERS = 600;

interface Comment {
  id: string;
  text: string;
  author: string | null;
}

const asId = (value: unknown) => (typeof value === "string" && value.length > 0 && value.length <= 128 ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : undefined);
const asText = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

/** The comments as id, text and author; a comment without them is the caller's 422. */
function commentsOf(raw: readonly unknown[]): Comment[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const comments: Comment[] = [];
  raw.forEach((entry, index) => {
    const record = entry && typeof entry === "object" && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
    const commentId = asId(record?.comment_id ?? record?.id);
    const text = asText(record?.body ?? record?.text);
    if (!commentId) issues.push({ path: `comments.${index}.comment_id`, message: "Each comment needs an id: comment_id (or id), a string or a number.", type: "any.required" });
    else if (seen.has(commentId)) issues.push({ path: `comments.${index}.comment_id`, message: `The id ${commentId} is sent twice.`, type: "array.unique" });
    if (!text) issues.push({ path: `comments.${index}.body`, message: "Each comment needs its text: body (or text).", type: "any.required" });
    if (commentId && text && !seen.has(commentId)) comments.push({ id: commentId, text: text.slice(0, COMMENT_CHARACTERS), author: asText(record?.author) ?? null });
    if (commentId) seen.add(commentId);
  });
  if (issues.length) throw validationFailed(issues);
  return comments;
}

/** The text model the call asks for (ai_model_id or model_ref, one of the catalog's), or undefined for the configured one. */
function chosenModel(graphql: GraphQLContext, input: { ai_model_id?: string; model_ref?: string }): string | undefined {
  if (input.ai_model_id && input.model_ref && input.ai_model_id !== input.model_ref) {
    throw validationFailed([{ path: "model_ref", message: "ai_model_id and model_ref name different models; send one.", type: "object.xor" }]);
  }
  const ref = input.model_ref ?? input.ai_model_id;
  if (ref === undefined) return undefined;
  const usable = graphql.services.providers.catalog().filter((model) => model.capability === "text").map((model) => model.ref);
  if (!usable.includes(ref)) throw validationFailed([{ path: input.model_ref ? "model_ref" : "ai_model_id", message: `Must be one of: ${usable.join(", ")}.`, type: "any.only", allowed: usable }]);
  return ref;
}

const postText = (post: unknown) => {
  if (post === undefined || post === null) return "";
  if (typeof post === "string") return post;
  if (typeof post === "object" && !Array.isArray(post)) {
    const record = post as Record<string, unknown>;
    const parts = [asText(record.title), asText(record.body ?? record.text ?? record.selftext)].filter(Boolean);
    if (parts.length) return parts.join("\n\n");
  }
  return JSON.stringify(post);
};

const lineShape = z.object({
  section: z.enum(SECTIONS),
  text: z.string(),
  comment_id: z.string(),
  comment_author: z.string().nullable(),
});

export default defineAction({
  name: "tools.write_lyrics",
  method: "POST",
  scopes: ["generations:execute"],
  credits: true,
  input: z.strictObject({
    post: json().optional(),
    comments: z.array(json()).min(1).max(500),
    genre: label().optional(),
    language: language().optional(),
    target_seconds: integer(10, 600).optional(),
    extra_direction: prompt().optional(),
    clean: flag().optional(),
    ai_model_id: modelRef().optional(),
    model_ref: modelRef().optional(),
    workspace_id: id().optional(),
  }),
  price: { credits: PRICE, per: "call" },
  weight: 2,
  purpose: "turn comments into song lyrics, each line keeping its comment id",
  mode: "model",
  uses: ["text"],
  output: z.object({
    object: z.literal("lyrics"),
    generation_id: z.string().describe("The generations record of these lyrics."),
    title: z.string(),
    genre: z.string().nullable(),
    language: z.string().nullable(),
    target_seconds: z.number().int(),
    clean: z.boolean(),
    lines: z.array(lineShape).describe("In singing order; each keeps the id of the comment it comes from."),
    text: z.string().describe("The lyrics as one text: sections headed [Verse], [Chorus], ..."),
    comment_ids_used: z.array(z.string()),
    model: z.string().describe("`<provider>/<model id>` that wrote them."),
  }),
  async example() {
    return {
      post: { title: "What does your cat do at 3 am?" },
      comments: [
        { comment_id: "c1", author: "nightowl", body: "Mine sprints down the hallway like it owes money." },
        { comment_id: "c2", author: "purrfect", body: "Sits on my chest and stares until I wake up." },
      ],
      genre: "pop punk",
      target_seconds: 30,
    };
  },
  async check({ graphql }, input) {
    if (input.workspace_id !== undefined && input.workspace_id !== graphql.auth.workspaceId) {
      throw new ApiError("workspace_mismatch", "workspace_id is not the workspace of this key.", { param: "workspace_id" });
    }
    chosenModel(graphql, input);
    commentsOf(input.comments);
  },
  async run(context, input) {
    const { providers, graphql } = context;
    const comments = commentsOf(input.comments);
    const picked = chosenModel(graphql, input);
    const model = picked ?? graphql.services.providers.model("text")!.ref;
    const targetSeconds = input.target_seconds ?? 60;
    const lineCount = Math.max(4, Math.min(80, Math.round(targetSeconds / SECONDS_PER_LINE)));
    const clean = input.clean ?? false;
    const ids = comments.map((comment) => comment.id) as [string, ...string[]];
    const schema = z.object({
      title: z.string().min(1).max(200),
      lines: z.array(z.object({ section: z.enum(SECTIONS), text: z.string().min(1).max(300), comment_id: z.enum(ids) })).min(1).max(lineCount * 2),
    });
    const theme = postText(input.post);
    const instruction = [
      `Write song lyrics of about ${lineCount} lines (about ${targetSeconds} seconds sung)${input.genre ? ` in the style of ${input.genre}` : ""}${input.language ? `, in ${input.language}` : ""}.`,
      "Every line must come from one of the comments below: paraphrase or quote it, and give that comment's id as the line's comment_id. Use as many different comments as you can.",
      clean ? "Keep it clean: no profanity, slurs or sexual content, even if a comment has them." : "",
      input.extra_direction ? `Direction: ${input.extra_direction}` : "",
      theme ? `The post the comments answer:\n${theme.slice(0, 4000)}` : "",
      `Comments (id: text):\n${comments.map((comment) => `${comment.id}: ${comment.text.replace(/\s+/g, " ")}`).join("\n")}`,
    ].filter(Boolean).join("\n\n");
    const authors = new Map(comments.map((comment) => [comment.id, comment.author]));
    return billedGeneration(
      context,
      { action: "tools.write_lyrics", agentType: "text", model, prompt: instruction.slice(0, 20_000), metadata: { genre: input.genre ?? null, language: input.language ?? null, target_seconds: targetSeconds, clean, comments: comments.length } },
      async () => {
        const text = picked ? providers.getModel("text", picked) : providers.get("text");
        const { object } = await text.generateObject({ system: "You are a songwriter who turns what people wrote into singable lyrics.", prompt: instruction, schema, schemaName: "lyrics" });
        const lines = object.lines.map((line) => ({ section: line.section, text: line.text.trim(), comment_id: line.comment_id, comment_author: authors.get(line.comment_id) ?? null }));
        return { outputUrls: [], metadata: { title: object.title, lines }, value: { title: object.title, lines } };
      },
      async (_tx, generation, lyrics) => ({
        object: "lyrics" as const,
        generation_id: generation.generation_id,
        title: lyrics.title,
        genre: input.genre ?? null,
        language: input.language ?? null,
        target_seconds: targetSeconds,
        clean,
        lines: lyrics.lines,
        text: lyricsText(lyrics.lines),
        comment_ids_used: [...new Set(lyrics.lines.map((line) => line.comment_id))],
        model,
      }),
    );
  },
});

/** The lines as one text, a `[Section]` heading wherever the section changes. */
function lyricsText(lines: readonly { section: string; text: string }[]): string {
  const out: string[] = [];
  let section = "";
  for (const line of lines) {
    if (line.section !== section) {
      if (out.length) out.push("");
      out.push(`[${line.section.replace("_", "-").replace(/^./, (first) => first.toUpperCase())}]`);
      section = line.section;
    }
    out.push(line.text);
  }
  return out.join("\n");
}
