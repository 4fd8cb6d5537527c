// scripts.voice through remote speech providers, against the provider stand-in: ElevenLabs' own
// word timings are kept on the take, OpenAI's stock voices speak through its adapter, and a
// provider that fails after its retries fails the call: 502, nothing written, the hold released.
import { describe, expect, it } from "vitest";
import { addCredits } from "../src/credits/ledger.js";
import { ELEVENLABS_DEFAULT_VOICE } from "../src/providers/adapters/elevenlabs.js";
import type { Config } from "../src/config.js";
import { createFixture, useService, useStandIn, type Client } from "./support/service.js";
import { ok } from "./support/action-calls.js";

const overrides: Partial<Config> = {};
const providers = useStandIn(overrides);
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);

async function scriptWith(client: Client, texts: string[]) {
  const { script_id: scriptId } = ok(await call(client, "create", {}));
  const ids: string[] = [];
  for (const text of texts) ids.push(ok(await call(client, "insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
  return { scriptId, ids };
}

describe("scripts.voice with remote voices", () => {
  it("keeps the provider's word timings, and speaks OpenAI's stock voices through OpenAI", async () => {
    const { client, workspaceId } = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 50, actionType: "grant" }));
    const { scriptId, ids } = await scriptWith(client, ["Tides follow the moon.", "Waves follow the wind."]);
    // With a speech provider configured, a new script's default voice is that provider's own.
    expect((await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } })).default_voice_ref).toBe(`elevenlabs/${ELEVENLABS_DEFAULT_VOICE}`);
    const eleven = providers.standIn.calls("elevenlabs.speech").length;
    const voiced = ok(await call(client, "voice", { script_id: scriptId, paragraph_ids: [ids[0]] }));
    expect(voiced.voiced[0]).toMatchObject({ voice_ref: `elevenlabs/${ELEVENLABS_DEFAULT_VOICE}`, model: expect.stringMatching(/^elevenlabs\//) });
    expect(providers.standIn.calls("elevenlabs.speech").length).toBe(eleven + 1);
    const take = ok(await client.get(`/api/v1/actions/scripts.takes?script_id=${scriptId}&paragraph_ids=${ids[0]}`)).paragraphs[0].takes[0];
    expect(take.words_source).toBe("provider");
    expect(take.words.map((word: Row) => word.word)).toEqual(["Tides", "follow", "the", "moon"]);

    const openai = providers.standIn.calls("openai.audio.speech").length;
    const second = ok(await call(client, "voice", { script_id: scriptId, paragraph_ids: [ids[1]], voice_ref: "openai/alloy", force: true }));
    // The call's voice outranks the script's default (the speaker has none).
    expect(second.voiced[0]).toMatchObject({ voice_ref: "openai/alloy", voice_from: "call", model: expect.stringMatching(/^openai\//) });
    await prisma().scriptParagraph.update({ where: { paragraph_id: ids[1] }, data: { voice_ref: "openai/alloy" } });
    const third = ok(await call(client, "voice", { script_id: scriptId, paragraph_ids: [ids[1]], force: true }));
    expect(third.voiced[0]).toMatchObject({ voice_ref: "openai/alloy", voice_from: "paragraph", model: expect.stringMatching(/^openai\//) });
    expect(providers.standIn.calls("openai.audio.speech").length).toBe(openai + 2);
  });

  it("fails the whole call on a provider failure: 502, no take written, the hold given back", async () => {
    const { client, workspaceId } = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 20, actionType: "grant" }));
    const { scriptId } = await scriptWith(client, ["One line.", "Another line."]);
    ok(await call(client, "settings", { script_id: scriptId, default_voice_ref: `elevenlabs/${ELEVENLABS_DEFAULT_VOICE}` }));
    providers.standIn.failNext("elevenlabs.speech", { status: 500, times: 10 });
    const failed = await call(client, "voice", { script_id: scriptId });
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error).toMatchObject({ code: "upstream_error", details: { provider: "elevenlabs", capability: "speech" } });
    expect(await prisma().scriptTake.count({ where: { script_id: scriptId } })).toBe(0);
    expect((await prisma().workspace.findUniqueOrThrow({ where: { workspace_id: workspaceId } })).credit_balance).toBe(20);
  });
});
