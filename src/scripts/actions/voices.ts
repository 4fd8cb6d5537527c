// scripts.voices (catalog 4.8): the voices a script may name, as `voice_ref` values — the voices
// library the workspace can see (the shared global rows and its own, active ones: their id,
// `vc_…`), then the voices built into the speech providers usable here (`<provider>/<voice id>`:
// `openai/alloy`, `local/en-us`). `language` keeps voices of that language and multilingual ones,
// `provider` one provider, `search` looks in names and descriptions. Paged like every list: the
// library newest first, then the built-in voices.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { cursor, label, language, limit, text } from "../../actions/catalog/define.js";
import { listOutput } from "../../actions/framework/outputs.js";
import { pageOf } from "../../actions/framework/paging.js";
import { voicesPage } from "../refs.js";

const voiceShape = z
  .object({
    voice_ref: z.string().describe("What voice_ref, default_voice_ref and scripts.set_speaker_voice take."),
    name: z.string(),
    provider: z.string().describe("The speech provider that speaks it."),
    provider_voice_id: z.string().nullable().describe("The voice's id at its provider."),
    language: z.string().nullable().describe("Null: multilingual (or not labelled)."),
    gender: z.string().nullable(),
    accent: z.string().nullable(),
    description: z.string().nullable(),
    scope: z.string().describe("global, workspace or personal (the voices library), or provider (built into the provider)."),
    kind: z.string().describe("premade, cloned or designed."),
    preview_url: z.string().nullable(),
  })
  .meta({ id: "ScriptVoice", description: "A voice a script may use." });

export default defineAction({
  name: "scripts.voices",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    language: language().optional(),
    provider: label().optional(),
    search: text(200).optional(),
    limit: limit().optional(),
    cursor: cursor().optional(),
  }),
  weight: 1,
  purpose: "voices as `voice_ref` values",
  output: listOutput(voiceShape),
  async run({ tx, graphql }, input) {
    const filter = { language: input.language, provider: input.provider, search: input.search?.trim() || undefined };
    const page = await pageOf({ limit: input.limit, cursor: input.cursor }, ({ after, take }) => voicesPage(tx, graphql, filter, { after, take }), (entry) => entry.keyset);
    return {
      object: "list" as const,
      data: page.rows.map(({ keyset: _keyset, ...voice }) => voice),
      has_more: page.has_more,
      next_cursor: page.next_cursor,
      limit: page.limit,
    };
  },
});
