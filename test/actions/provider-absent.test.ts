// A deployment without models: an action that needs a capability nobody configured answers a clear
// 400 naming the setting, spends nothing and calls nothing, for live and test keys alike; discovery
// shows which capabilities are unavailable here. Local tools (speech, page reading) stay available.
import { describe, expect, it } from "vitest";
import { addCredits } from "../../src/credits/ledger.js";
import { loadConfig } from "../../src/config.js";
import { createFixture, useService } from "../support/service.js";

// No provider variables at all: only the local tools.
const service = useService({ providers: loadConfig({}).providers });
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

describe("a capability with no model configured", () => {
  it("is refused with 400 naming the setting, before any credit is held, for live and test keys", async () => {
    const fixture = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId: fixture.workspaceId, amount: 50, actionType: "grant" }));
    const test = await fixture.newKey({ mode: "test" });
    for (const [action, input, capability, setting] of [
      ["instructions.generate", { topic: "Tides" }, "text", "CUTROOM_TEXT_MODEL"],
      ["tools.generate_from_prompt", { prompt: "A fox" }, "image", "CUTROOM_IMAGE_MODEL"],
      ["music.generate", { prompt: "A march" }, "music", "CUTROOM_MUSIC_MODEL"],
      ["instructions.generate_with_news", { topic: "Tides" }, "search", "SEARXNG_URL"],
    ] as const) {
      for (const client of [fixture.client, test.client]) {
        const response = await client.post(`/api/v1/actions/${action}`, input);
        expect(response.status, response.text).toBe(400);
        expect(response.body.error).toMatchObject({ code: "invalid_request", details: { capability, available: false } });
        expect(response.body.error.details.setting, action).toContain(setting);
        expect(response.body.error.message).toContain(setting);
      }
    }
    expect((await prisma().workspace.findUniqueOrThrow({ where: { workspace_id: fixture.workspaceId } })).credit_balance).toBe(50);
    expect(await prisma().creditTransaction.count({ where: { workspace_id: fixture.workspaceId } })).toBe(1);
    expect(await prisma().generation.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await prisma().musicGeneration.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
  });

  it("is shown in GET /api/v1 as unavailable here, with what to set; local tools are available", async () => {
    const { client } = await createFixture(service);
    const discovery = (await client.get("/api/v1")).body as Row;
    const capabilities = new Map((discovery.capabilities as Row[]).map((entry) => [entry.capability, entry]));
    expect(capabilities.get("text")).toMatchObject({ available: false, model: null, setting: expect.stringContaining("CUTROOM_TEXT_MODEL") });
    expect(capabilities.get("speech")).toMatchObject({ available: true, model: "local/espeak-ng" });
    expect(capabilities.get("page")).toMatchObject({ available: true, model: "local/readability" });
    const actions = new Map((discovery.actions as Row[]).map((entry) => [entry.name, entry]));
    expect(actions.get("instructions.generate")).toMatchObject({ capabilities: ["text"], available: false, unavailable_capabilities: ["text"] });
    expect(actions.get("renders.create")).not.toHaveProperty("available");
    // The priced catalog lists only what can run here: the local tools.
    expect((discovery.models as Row[]).map((model) => model.ref).sort()).toEqual(["local/espeak-ng", "local/readability", "local/still"]);
  });
});
