// scripts.models (catalog 4.8): the priced text models a script may name, as `model_ref` values
// (`<provider>/<model id>`, from this deployment's catalog: docs/providers.md). A script runs its
// whole-document passes on `model_ref` and its per-paragraph edits on `quick_model_ref`
// (scripts.settings); unset, they default to the deployment's configured text model and to the
// cheapest priced text model usable here. Answered whole: the catalog is a handful of models.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { scriptModels } from "../refs.js";

const modelShape = z
  .object({
    model_ref: z.string().describe("`<provider>/<model id>`: the value of model_ref or quick_model_ref."),
    provider: z.string(),
    model: z.string(),
    label: z.string(),
    price: z
      .object({ credits: z.number().describe("Credits per unit (may be a fraction)."), per: z.string().describe("The unit: 1k_tokens, request, …") })
      .nullable()
      .describe("The model's own price; null for a configured model the catalog does not know."),
    configured: z.boolean().describe("The text model this deployment runs by default."),
    default_for: z.array(z.enum(["model_ref", "quick_model_ref"])).describe("The settings it is the default of."),
  })
  .meta({ id: "ScriptModel", description: "A text model a script may run on." });

export default defineAction({
  name: "scripts.models",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({}),
  weight: 1,
  purpose:
    "priced model catalog as `model_ref` values (whole-document passes and per-paragraph edits use separate models)",
  output: z.object({
    object: z.literal("script_models"),
    defaults: z
      .object({
        model_ref: z.string().nullable().describe("Whole-document passes (draft, polish, translate, …) of a script without model_ref: the configured text model."),
        quick_model_ref: z.string().nullable().describe("Per-paragraph edits (rewrite, split, variants) of a script without quick_model_ref: the cheapest priced text model."),
      })
      .describe("The defaults of a script that names no model; each null when this deployment has no text model."),
    models: z.array(modelShape),
  }),
  async run({ graphql }) {
    const catalog = scriptModels(graphql.services.providers);
    return {
      object: "script_models" as const,
      defaults: { model_ref: catalog.documentDefault, quick_model_ref: catalog.quickDefault },
      models: catalog.models.map((model) => ({
        model_ref: model.ref,
        provider: model.provider,
        model: model.model,
        label: model.label,
        price: model.price ?? null,
        configured: model.configured,
        default_for: [
          ...(model.ref === catalog.documentDefault ? ["model_ref" as const] : []),
          ...(model.ref === catalog.quickDefault ? ["quick_model_ref" as const] : []),
        ],
      })),
    };
  },
});
