// timeline.hydrate_tu_preferes (docs/timeline.md) against the provider stand-in: the text model's
// would-you-rather dilemmas become groups of question + two option blocks, each option with a
// picture from the image model stored and served by a signed link; a second hydration replaces the
// first's groups and keeps the caller's own blocks; credits are 5 per question; a failed picture
// gives the hold back and writes nothing; a test key gets a quote.
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { addCredits } from "../src/credits/ledger.js";
import type { Config } from "../src/config.js";
import { createFixture, useService, useStandIn, type Client } from "./support/service.js";
import { balanceOf, ok } from "./support/action-calls.js";

const overrides: Partial<Config> = {};
const providers = useStandIn(overrides);
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const call = (client: Client, input: Record<string, unknown>) => client.post("/api/v1/actions/timeline.hydrate_tu_preferes", input);

const dilemma = (n: number) => ({
  question: `Would you rather swim ${n} or fly ${n}?`,
  options: [{ text: `Swim ${n}`, image_prompt: "a swimmer" }, { text: `Fly ${n}`, image_prompt: "a bird" }],
});

describe("timeline.hydrate_tu_preferes", () => {
  it("writes a group per question with its option pictures, replaces its own groups on a second run, and charges 5 per question", async () => {
    const fixture = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId: fixture.workspaceId, amount: 100, actionType: "grant" }));
    const video = ok(await fixture.client.post("/api/v1/videos", { video_name: "Summer", video_keyword: "summer holidays", blocks: [{ block_id: "intro", text: "Hi!" }] }).then((response) => ({ ...response, status: response.status === 201 ? 200 : response.status })));
    const balance = await balanceOf(service, fixture.workspaceId);

    providers.standIn.answerNext("openai.chat", { questions: [dilemma(1), dilemma(2)] });
    const answer = ok(await call(fixture.client, { video_id: video.video_id, count: 2 }));
    expect(answer).toMatchObject({ object: "would_you_rather_timeline", topic: "summer holidays", credits: { cost: 10, charged: 10 } });
    expect(answer.questions).toHaveLength(2);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(balance - 10);
    const picture = answer.questions[0].options[1].image_url as string;
    const meta = await sharp(new Uint8Array(await (await fetch(picture)).arrayBuffer())).metadata();
    expect(meta.width).toBeGreaterThan(0);

    const stored = (await fixture.client.get(`/api/v1/videos/${video.video_id}`)).body as Row;
    expect(stored.blocks.map((block: Row) => block.block_id)).toEqual(["intro", "wyr_1_q", "wyr_1_a", "wyr_1_b", "wyr_2_q", "wyr_2_a", "wyr_2_b"]);
    expect(stored.blocks[1]).toMatchObject({ group_id: "wyr_1", type: "question", text: "Would you rather swim 1 or fly 1?" });
    expect(stored.blocks[3]).toMatchObject({ type: "option_b", text: "Fly 1", image_url: picture });
    expect(stored.groups).toEqual([
      { group_id: "wyr_1", name: "Question 1", type: "would_you_rather", block_ids: ["wyr_1_q", "wyr_1_a", "wyr_1_b"] },
      { group_id: "wyr_2", name: "Question 2", type: "would_you_rather", block_ids: ["wyr_2_q", "wyr_2_a", "wyr_2_b"] },
    ]);
    expect(await prisma().outboxEvent.count({ where: { workspace_id: fixture.workspaceId, type: "video.updated" } })).toBe(1);

    providers.standIn.answerNext("openai.chat", { questions: [dilemma(3)] });
    ok(await call(fixture.client, { video_id: video.video_id, count: 1 }));
    const again = (await fixture.client.get(`/api/v1/videos/${video.video_id}`)).body as Row;
    expect(again.blocks.map((block: Row) => block.block_id)).toEqual(["intro", "wyr_1_q", "wyr_1_a", "wyr_1_b"]);
    expect(again.blocks[1].text).toBe("Would you rather swim 3 or fly 3?");
    expect(again.groups).toHaveLength(1);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(balance - 15);

    providers.standIn.answerNext("openai.chat", { questions: [dilemma(4)] });
    providers.standIn.failNext("openai.images.generations", { status: 422 });
    const failed = await call(fixture.client, { video_id: video.video_id, count: 1 });
    expect(failed.status, failed.text).toBeGreaterThanOrEqual(500);
    expect(failed.status).not.toBe(500);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(balance - 15);
    expect(((await fixture.client.get(`/api/v1/videos/${video.video_id}`)).body as Row).blocks[1].text).toBe("Would you rather swim 3 or fly 3?");
  });

  it("a test key gets a quote: no provider call, no credit, nothing written", async () => {
    const fixture = await createFixture(service);
    const video = (await fixture.client.post("/api/v1/videos", { video_name: "Quiet" })).body as Row;
    const test = await fixture.newKey({ mode: "test" });
    const calls = providers.standIn.calls().length;
    const quote = ok(await call(test.client, { video_id: video.video_id, count: 3 }));
    expect(quote).toMatchObject({ object: "action_quote", action: "timeline.hydrate_tu_preferes", credits: { cost: 15, charged: 0 } });
    expect(providers.standIn.calls().length).toBe(calls);
    expect((await prisma().video.findUniqueOrThrow({ where: { video_id: video.video_id } })).blocks).toBeNull();
  });
});
