// scripts.research_all (catalog 4.9): fact-checks the whole script. The text model picks at most
// four claims worth checking (figures, dates, names, versions; `question` narrows the choice),
// each is searched once on the web, and the model judges each claim against its own results only.
// A claim is confirmed only when the verdict cites one of its results; confirmed claims are filed
// as the script's sources (kind `research`) in one write that refuses with 409 when the document
// changed during the calls; the rest come back in `unconfirmed` with the reason. Priced per subject
// searched: 8 credits are held (and quoted), and what ran is spent.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, idempotencyKey, prompt, request } from "../../actions/catalog/define.js";
import type { SearchHit } from "../../providers/types.js";
import { sourceShape } from "../present.js";
import { documentBlock, openIfUnchanged, readForPass } from "../writing/pass.js";
import { askModel, enoughParagraphs, idsOf, passPrompt, readingFields, requireParagraphs } from "../writing/reading.js";
import { RESEARCH_SUBJECTS, RESULTS_PER_SEARCH, fileFacts, resultsBlock, webSearch } from "../writing/research.js";

const claimFields = {
  claim: z.string().describe("The claim as the script makes it."),
  paragraph_id: z.string().describe("The paragraph that makes it."),
  query: z.string().describe("The web search run for it."),
};

export default defineAction({
  name: "scripts.research_all",
  method: "POST",
  scopes: ["scripts:execute"],
  credits: true,
  input: z.strictObject({
    script_id: id(),
    question: prompt().optional(),
    request: request().optional(),
    idempotency_key: idempotencyKey().optional(),
  }),
  price: {
    credits: 2,
    per: "subject",
    max_units: 4,
    note: "per subject searched (one web search each); the model picks the subjects, so 8 credits are checked and quoted, and what ran is spent",
  },
  weight: 2,
  purpose:
    "fact-checks the whole script; searches at most 4 subjects, one web search each; files sources and what could not be confirmed",
  mode: "model",
  uses: ["search", "text"],
  output: z.object({
    object: z.literal("script_fact_check"),
    ...readingFields,
    revision: z.number().int().describe("The script's revision after the call (unchanged when nothing new was filed)."),
    subjects_searched: z.number().int().describe("Claims searched, one web search each (at most 4): the price units spent."),
    confirmed: z.array(
      z.object({
        ...claimFields,
        source: sourceShape,
        created: z.boolean().describe("false when the same fact from the same address was filed already."),
      }).meta({ id: "ScriptConfirmedClaim" }),
    ),
    unconfirmed: z.array(z.object({ ...claimFields, reason: z.string() }).meta({ id: "ScriptUnconfirmedClaim" })),
    edit_ids: z.array(z.string()).describe("The log entries of the sources filed (`source.add`)."),
  }),
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Fact-check example" });
    await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Cats purr at a frequency between 25 and 150 hertz." });
    return { script_id: script.script_id };
  },
  async check(context, input) {
    await requireParagraphs(context, input.script_id, 1, "Fact-checking");
  },
  // The model picks the subjects: the hold (and a test key's quote) is the bound.
  async units() {
    return RESEARCH_SUBJECTS;
  },
  async run(context, input) {
    const document = await readForPass(context.db, context.graphql, input.script_id);
    enoughParagraphs(document.paragraphs.length, 1, "Fact-checking");
    const base = { object: "script_fact_check" as const, script_id: input.script_id, request: input.request ?? null };
    const picked = await askModel(context, document, "document", {
      ...passPrompt(
        document,
        "You are a fact-checker for a video script. You pick the claims a viewer could check: figures, prices, dates, names, versions, records. Opinions and the writer's own experience are not claims to check.",
        `Pick at most ${RESEARCH_SUBJECTS} claims of this script most worth checking${input.question?.trim() ? ` (the writer asks: ${input.question.trim()})` : ""}, the most consequential first. For each: the claim as the script makes it, the id of its paragraph, and one web search query that would confirm or refute it. Pick none if the script makes no checkable claim.`,
      ),
      schema: z.object({
        claims: z.array(z.object({ claim: z.string().min(1).max(1000), paragraph_id: idsOf(document.paragraphs.map((paragraph) => paragraph.paragraph_id)), query: z.string().min(1).max(200) })).max(RESEARCH_SUBJECTS),
      }),
      schemaName: "script_claims",
    });
    const claims = picked.object.claims.slice(0, RESEARCH_SUBJECTS);
    if (claims.length === 0) {
      context.ran(0);
      return { ...base, model: picked.model, revision: document.revision, subjects_searched: 0, confirmed: [], unconfirmed: [], edit_ids: [] };
    }
    const found: SearchHit[][] = await Promise.all(claims.map((claim) => webSearch(context, document, claim.query)));
    context.ran(claims.length);

    const judged = await askModel(context, document, "document", {
      ...passPrompt(
        document,
        "You are a fact-checker. You judge each claim only against the search results given for it; a claim they do not clearly state is unconfirmed. You never rely on what you know besides them.",
        `For each numbered claim, say whether its own search results confirm it. When they do, give the number of the result that states it and the sentence of evidence as the result puts it. When they do not (silent, vague or contradicting), say why.\n\n${claims
          .map((claim, index) => `Claim ${index + 1} (paragraph [${claim.paragraph_id}]): ${claim.claim}\nResults for "${claim.query}":\n${resultsBlock(found[index]!)}`)
          .join("\n\n")}`,
        `The script, for context:\n${documentBlock(document.paragraphs)}`,
      ),
      schema: z.object({
        verdicts: z.array(z.object({
          claim: z.number().int().min(1).max(claims.length),
          confirmed: z.boolean(),
          result: z.number().int().min(1).max(RESULTS_PER_SEARCH).nullable(),
          evidence: z.string().max(1000),
          reason: z.string().max(1000),
        })).max(claims.length * 2),
      }),
      schemaName: "script_fact_check",
    });
    const verdicts = new Map<number, (typeof judged.object.verdicts)[number]>();
    for (const verdict of judged.object.verdicts) if (!verdicts.has(verdict.claim)) verdicts.set(verdict.claim, verdict);
    const confirmed: { claim: (typeof claims)[number]; hit: SearchHit; evidence: string }[] = [];
    const unconfirmed: (typeof claims[number] & { reason: string })[] = [];
    claims.forEach((claim, index) => {
      const verdict = verdicts.get(index + 1);
      const hit = verdict?.confirmed && verdict.result !== null ? found[index]![verdict.result - 1] : undefined;
      if (verdict?.confirmed && hit && verdict.evidence.trim()) confirmed.push({ claim, hit, evidence: verdict.evidence.trim() });
      else unconfirmed.push({ ...claim, reason: unconfirmedReason(verdict, found[index]!) });
    });
    const answered = { ...base, model: judged.model, subjects_searched: claims.length, unconfirmed };
    if (confirmed.length === 0) return { ...answered, revision: document.revision, confirmed: [], edit_ids: [] };
    return context.commit(async (tx) => {
      const write = await openIfUnchanged(tx, context.graphql, document, "scripts.research_all");
      const filed = await fileFacts(tx, write, input.script_id, confirmed.map((entry) => ({ hit: entry.hit, text: entry.evidence })));
      const script = filed.editIds.length ? await write.done() : await write.unchanged();
      return {
        ...answered,
        revision: script.revision,
        confirmed: confirmed.map((entry, index) => ({ ...entry.claim, ...filed.facts[index]! })),
        edit_ids: filed.editIds,
      };
    });
  },
});

function unconfirmedReason(verdict: { confirmed: boolean; result: number | null; evidence: string; reason: string } | undefined, hits: readonly SearchHit[]): string {
  if (hits.length === 0) return "The search found nothing.";
  if (!verdict) return "The model gave no verdict on this claim.";
  if (!verdict.confirmed) return verdict.reason.trim() || "The results do not state it.";
  return "The verdict named no result that states it.";
}
