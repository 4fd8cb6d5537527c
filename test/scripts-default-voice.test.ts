// The default voice (docs/scripts.md, "Default voice"), offline on a default configuration: a
// script created without a voice gets the espeak-ng voice of its language as its document default,
// and scripts.voice with no voice named voices every paragraph with it; a voice named at creation,
// and the precedence above the document default, are kept.
import { describe, expect, it } from "vitest";
import { useService, type Client } from "./support/service.js";
import { funded, ok } from "./support/action-calls.js";

const service = useService();

type Row = Record<string, any>;
const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);

async function written(client: Client, create: Record<string, unknown>, texts: string[]) {
  const script = ok(await call(client, "create", create));
  const ids: string[] = [];
  for (const text of texts) ids.push(ok(await call(client, "insert_paragraph", { script_id: script.script_id, text })).paragraph.paragraph_id);
  return { script, ids };
}

describe("the default voice of a new script", () => {
  it("is the espeak-ng voice of an English script, and voices every paragraph with no voice named", async () => {
    const { client } = await funded(service, 20);
    const { script, ids } = await written(client, { title: "Tides", language: "en" }, ["The sea rises twice a day.", "The moon pulls it."]);
    expect(script.default_voice_ref).toBe("local/en-us");
    const voiced = ok(await call(client, "voice", { script_id: script.script_id }));
    expect(voiced.skipped).toEqual([]);
    expect(voiced.voiced.map((entry: Row) => [entry.paragraph_id, entry.voice_ref, entry.voice_from, entry.model])).toEqual([
      [ids[0], "local/en-us", "script", "local/espeak-ng"],
      [ids[1], "local/en-us", "script", "local/espeak-ng"],
    ]);
    // A script with no language at all is taken as English, the deployment's default language.
    expect(ok(await call(client, "create", {})).default_voice_ref).toBe("local/en-us");
    expect(ok(await call(client, "create", { language: "en-GB" })).default_voice_ref).toBe("local/en-gb");
  });

  it("is the French espeak-ng voice of a French script; a speaker's voice still ranks above it", async () => {
    const { client } = await funded(service, 20);
    const { script, ids } = await written(client, { title: "Marées", language: "fr", speaker: "Hôte" }, ["La mer monte deux fois par jour.", "La lune l'attire."]);
    expect(script.default_voice_ref).toBe("local/fr");
    const guest = ok(await call(client, "add_speaker", { script_id: script.script_id, name: "Invitée" })).speaker.speaker_id;
    ok(await call(client, "assign_speaker", { script_id: script.script_id, paragraph_ids: [ids[1]], speaker_id: guest }));
    ok(await call(client, "set_speaker_voice", { script_id: script.script_id, speaker_id: guest, voice_ref: "local/en-gb" }));
    const voiced = ok(await call(client, "voice", { script_id: script.script_id }));
    expect(voiced.voiced.map((entry: Row) => [entry.voice_ref, entry.voice_from])).toEqual([
      ["local/fr", "script"],
      ["local/en-gb", "speaker"],
    ]);
  });

  it("keeps a voice named at creation, and leaves none for a language no voice here speaks", async () => {
    const { client } = await funded(service, 20);
    expect(ok(await call(client, "create", { language: "fr", voice_ref: "local/de" })).default_voice_ref).toBe("local/de");
    const { script, ids } = await written(client, { language: "ja" }, ["こんにちは。"]);
    expect(script.default_voice_ref).toBeNull();
    const answer = ok(await call(client, "voice", { script_id: script.script_id }));
    expect(answer.skipped).toMatchObject([{ paragraph_id: ids[0], reason: "no_voice" }]);
  });
});
