// The workspace's snippet shelf (docs/scripts.md, "Snippets"): reusable lines saved from a
// paragraph or typed in (scripts.save_snippet), listed and searched (scripts.snippets), dropped into
// a script unchanged (scripts.insert_snippet). The shelf belongs to the workspace, not to a script.
import { z } from "zod";
import type { Prisma } from "../generated/prisma/client.js";
import { wordsIn } from "./document.js";

export const snippetShape = z
  .object({
    snippet_id: z.string(),
    title: z.string().nullable(),
    text: z.string(),
    role: z.string().nullable().describe("The role a paragraph made from it takes (body when null)."),
    tags: z.array(z.string()),
    words: z.number().int(),
    source_script_id: z.string().nullable().describe("The script it was saved from."),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "ScriptSnippet", description: "A reusable line of the workspace's shelf." });

type SnippetRow = Prisma.ScriptSnippetGetPayload<object>;

export function presentSnippet(row: SnippetRow): z.output<typeof snippetShape> {
  return {
    snippet_id: row.snippet_id,
    title: row.title,
    text: row.text,
    role: row.role,
    tags: row.tags,
    words: wordsIn(row.text),
    source_script_id: row.source_script_id,
    created_at: row.created_at.toISOString(),
  };
}

/** Snippets of a workspace whose title or text contains `search` (any case), or that carry it as a tag. */
export function snippetFilter(workspaceId: string, search: string | undefined): Prisma.ScriptSnippetWhereInput {
  const term = search?.trim();
  if (!term) return { workspace_id: workspaceId };
  return {
    workspace_id: workspaceId,
    OR: [{ title: { contains: term, mode: "insensitive" } }, { text: { contains: term, mode: "insensitive" } }, { tags: { has: term } }],
  };
}

export const NEWEST_FIRST = [{ created_at: "desc" }, { snippet_id: "desc" }] satisfies Prisma.ScriptSnippetOrderByWithRelationInput[];
