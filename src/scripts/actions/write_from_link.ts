// scripts.write_from_link (catalog 4.8): a script written from one to four pages, read through the
// URL guard by the page reader (outside any transaction), on the script's `model_ref`. It replaces
// the unlocked paragraphs (locked ones stay) and files every page as a source of the script.
// Numbers, prices, dates and versions come only from the pages: after the model answers, every
// sentence holding a figure no page holds is taken out of the text and returned in `unverified`
// (src/scripts/writing/figures.ts defines a figure). `answers` are the author's own answers to
// questions of the caller's (`experience`, `product`, …); the answer `experience` decides whether
// first-person claims are allowed (true or a description of the author's experience: allowed;
// absent, false, empty, "no" or "none": not, and first-person sentences go to `unverified`).
import { z } from "zod";
import { ApiError } from "../../errors/api-error.js";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, jsonObject, prompt, request, url } from "../../actions/catalog/define.js";
import { paragraphCount } from "../fields.js";
import type { PageResult } from "../../providers/types.js";
import { readScript } from "../document.js";
import { sourceShape } from "../present.js";
import { PassWriter, passOutput } from "../writing/apply.js";
import { cleanDraft, countLine, draftSchema, lockedContext, writeDraft } from "../writing/draft.js";
import { backedFigures, checkParagraph, figuresIn, type Unverified } from "../writing/figures.js";
import { pageForPrompt, readPage } from "../writing/pages.js";
import { openIfUnchanged, passBrief, passText, readForPass } from "../writing/pass.js";

/** Whether the author's `experience` answer allows first-person claims, and what it says. */
export function experienceOf(answers: Record<string, unknown> | undefined): { allowed: boolean; description: string | null } {
  const value = answers?.experience;
  if (value === true) return { allowed: true, description: null };
  if (typeof value === "string" && value.trim() && !/^(no|none|false)$/iu.test(value.trim())) return { allowed: true, description: value.trim() };
  return { allowed: false, description: null };
}

const unverifiedShape = z
  .object({
    statement: z.string(),
    reason: z.enum(["figure_not_in_sources", "first_person", "model"]).describe("figure_not_in_sources: it holds a figure no page holds; first_person: a first-person claim the `experience` answer does not allow; model: the model could not back it from the pages."),
    figures: z.array(z.string()).describe("The figures no page holds, as written."),
  })
  .meta({ id: "ScriptUnverifiedStatement", description: "A statement left out of the text because the pages do not back it." });

export default defineAction({
  name: "scripts.write_from_link",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    urls: z.array(url()).min(1).max(4),
    angle: prompt().optional(),
    answers: jsonObject().optional(),
    instruction: prompt().optional(),
    paragraph_count: paragraphCount().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: { credits: 2, per: "url", unit_field: "urls" },
  weight: 2,
  purpose:
    "reads one to four pages; replaces paragraphs; numbers, prices, dates and versions come only from the pages; unverifiable statements return in `unverified`; the answer `experience` decides whether first-person claims are allowed",
  mode: "model",
  uses: ["text", "page"],
  output: passOutput("script_draft", {
    pages: z.array(z.object({ url: z.string(), read_url: z.string(), title: z.string().nullable(), characters: z.number().int() })).describe("The pages read, in the order sent."),
    sources: z.array(sourceShape).describe("The pages filed as sources of the script."),
    unverified: z.array(unverifiedShape).describe("Statements taken out of the text (or flagged by the model) because the pages do not back them."),
    first_person_allowed: z.boolean().describe("Whether the `experience` answer allowed first-person claims."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const page = await setup.page();
    return { script_id: script.script_id, urls: [page.url], angle: "The science, simply", answers: { experience: false }, paragraph_count: 2 };
  },
  async check({ graphql }, input) {
    await readScript(graphql.prisma, graphql, input.script_id);
  },
  async run({ graphql, db, providers, commit }, input) {
    const document = await readForPass(db, graphql, input.script_id);
    const pages: PageResult[] = [];
    for (const [index, address] of input.urls.entries()) pages.push(await readPage(providers, address, `urls.${index}`));
    const experience = experienceOf(input.answers);
    const answers = Object.entries(input.answers ?? {}).filter(([key]) => key !== "experience");
    const { model, text } = passText(providers, graphql, document.script, "document");
    const answer = await text.generateObject({
      system: "You write video scripts from web pages: short spoken paragraphs, each with its role. Every number, price, date and version comes from the pages, written as the pages write it; never invent one. A claim the pages do not back goes to `unverified`, not into the script. Follow the house style.",
      prompt: [
        passBrief(document),
        countLine(input.paragraph_count),
        input.angle?.trim() ? `Angle: ${input.angle.trim()}` : undefined,
        input.instruction?.trim() ? `Instruction: ${input.instruction.trim()}` : undefined,
        experience.allowed
          ? `The author has first-hand experience and may speak in the first person${experience.description ? `: ${experience.description}` : "."}`
          : "The author has no first-hand experience of this: no first-person claims (no \"I tried\", \"my\", \"in my experience\").",
        ...answers.map(([key, value]) => `Author's answer, ${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`),
        lockedContext(document.paragraphs),
        ...pages.flatMap((page, index) => ["", `Page ${index + 1}: ${page.title || page.url} (${page.url})`, pageForPrompt(page.text)]),
      ].filter((line) => line !== undefined).join("\n"),
      schema: z.object({ paragraphs: draftSchema(input.paragraph_count), unverified: z.array(z.string().min(1).max(2_000)).max(50) }),
      schemaName: "script_draft",
    });
    // The check runs on what the model wrote: figures against the pages and the author's answers.
    const backed = backedFigures([...pages.map((page) => `${page.title}\n${page.text}`), JSON.stringify(input.answers ?? {})]);
    const unverified: Unverified[] = answer.object.unverified.map((statement) => ({ statement: statement.trim(), reason: "model" as const, figures: figuresIn(statement) }));
    const draft = cleanDraft(answer.object.paragraphs).flatMap((paragraph) => {
      const checked = checkParagraph(paragraph.text, backed, { firstPerson: experience.allowed });
      unverified.push(...checked.unverified);
      return checked.text ? [{ role: paragraph.role, text: checked.text }] : [];
    });
    // Nothing backed is left: the script keeps its text (a pass never empties a document), nothing
    // is charged, and the answer says what was dropped.
    if (draft.length === 0) {
      throw new ApiError("validation_failed", "The pages back none of the drafted sentences: the script is left as it was and nothing is charged.", {
        param: "urls",
        hint: "Send pages that hold the figures, or answer `experience` if first-person claims are yours.",
        details: { issues: [{ path: "urls", message: "The pages back none of the drafted sentences.", type: "draft.unbacked" }], unverified },
      });
    }
    return commit(async (tx) => {
      const writer = new PassWriter(tx, await openIfUnchanged(tx, graphql, document, "scripts.write_from_link"), input.script_id);
      await writeDraft(writer, document.paragraphs, draft, { replace: true });
      const sources = [];
      for (const [index, page] of pages.entries()) sources.push(await writer.fileSource({ url: input.urls[index]!, title: page.title, text: page.text }));
      const { common } = await writer.finish(document, model, input.request, document.paragraphs.filter((row) => row.locked).map((row) => row.paragraph_id));
      return {
        object: "script_draft" as const,
        ...common,
        pages: pages.map((page, index) => ({ url: input.urls[index]!, read_url: page.url, title: page.title.trim() || null, characters: page.text.length })),
        sources,
        unverified,
        first_person_allowed: experience.allowed,
      };
    });
  },
});
