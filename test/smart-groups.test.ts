// Smart groups (docs/faceless.md, "Smart groups") against the provider stand-in: generate writes a
// quiz, ranking or dialogue from the text model into the video's smart_groups (validated by the
// exported shape), create_qcm from the caller's questions (free, field-level 422s), and action runs
// the actions a group declares — model ones for 2 credits, shuffle and reverse settled to 0.
import { describe, expect, it } from "vitest";
import { addCredits } from "../src/credits/ledger.js";
import type { Config } from "../src/config.js";
import { smartGroups } from "../src/smart_groups/shape.js";
import { createFixture, useService, useStandIn, type Client } from "./support/service.js";
import { balanceOf, ok, refused } from "./support/action-calls.js";

const overrides: Partial<Config> = {};
const providers = useStandIn(overrides);
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/smart_groups.${name}`, input);
const groupsOf = async (videoId: string) => smartGroups.parse((await prisma().video.findUniqueOrThrow({ where: { video_id: videoId } })).smart_groups);

async function videoFor(client: Client): Promise<string> {
  const response = await client.post("/api/v1/videos", { video_name: "Tides", video_keyword: "why the sea has tides" });
  expect(response.status, response.text).toBe(201);
  return response.body.video_id as string;
}

describe("smart groups", () => {
  it("generates a quiz, a ranking and a dialogue into the video, and refuses other types", async () => {
    const { client, workspaceId } = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 20, actionType: "grant" }));
    const videoId = await videoFor(client);
    providers.standIn.answerNext("openai.chat", { title: "Tide quiz", items: [{ question: "What pulls the sea?", choices: ["The Moon", "Fish"], correct_index: 0, explanation: "Gravity." }] });
    const quiz = ok(await call(client, "generate", { video_id: videoId, type: "quiz" }));
    expect(quiz).toMatchObject({ object: "smart_group", video_id: videoId, group: { type: "quiz", title: "Tide quiz", actions: ["regenerate", "extend", "shuffle"], items: [{ question: "What pulls the sea?", correct_index: 0 }] }, credits: { charged: 2 } });
    expect(providers.standIn.calls("openai.chat").at(-1)!.messages!.user).toContain("why the sea has tides");
    providers.standIn.answerNext("openai.chat", { title: "Biggest tides", items: [{ label: "Bay of Fundy", detail: "16 m" }, { label: "Ungava Bay", detail: "15 m" }] });
    const ranking = ok(await call(client, "generate", { video_id: videoId, type: "ranking", topic: "largest tides" }));
    expect(ranking.group.items.map((item: Row) => item.rank)).toEqual([1, 2]);
    ok(await call(client, "generate", { video_id: videoId, type: "dialogue" }));
    const groups = await groupsOf(videoId);
    expect(groups.map((group) => group.type)).toEqual(["quiz", "ranking", "dialogue"]);
    const wrong = refused(await call(client, "generate", { video_id: videoId, type: "poll" }), 422, "validation_failed");
    expect(wrong.details.issues[0]).toMatchObject({ path: "type", type: "any.only", allowed: ["quiz", "ranking", "dialogue"] });
    expect(await balanceOf(service, workspaceId)).toBe(14);
  });

  it("creates a qcm from questions, free, with a 422 naming each bad field", async () => {
    const { client, workspaceId } = await createFixture(service);
    const videoId = await videoFor(client);
    const group = ok(await call(client, "create_qcm", {
      video_id: videoId,
      questions: [
        { question: "What pulls the tides?", choices: ["The Moon", "The wind"], correct_index: 0 },
        { question: "How many a day?", answers: ["One", "Two"], correct_answer: "Two", explanation: "Twice daily." },
      ],
    }));
    expect(group.group).toMatchObject({ type: "qcm", actions: ["extend", "shuffle"], items: [{ correct_index: 0, explanation: null }, { choices: ["One", "Two"], correct_index: 1 }] });
    expect(await balanceOf(service, workspaceId)).toBe(0);
    const bad = refused(await call(client, "create_qcm", { video_id: videoId, questions: [{ question: "Q?", choices: ["A", "B"], correct_answer: "C" }, { question: "R?", choices: ["A"], correct_index: 0, colour: "red" }] }), 422, "validation_failed");
    expect(bad.details.issues.map((issue: Row) => issue.path)).toEqual(expect.arrayContaining(["questions.0.correct_answer", "questions.1.colour"]));
    expect(await groupsOf(videoId)).toHaveLength(1);
    refused(await call(client, "create_qcm", { video_id: "vid_missing", questions: [{ question: "Q?", choices: ["A", "B"], correct_index: 0 }] }), 404, "not_found");
  });

  it("runs a group's declared actions: extend by the model, shuffle and reverse for nothing", async () => {
    const { client, workspaceId } = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 10, actionType: "grant" }));
    const videoId = await videoFor(client);
    const qcm = ok(await call(client, "create_qcm", { video_id: videoId, questions: [{ question: "A?", choices: ["1", "2"], correct_index: 0 }, { question: "B?", choices: ["1", "2"], correct_index: 1 }] }));
    const groupId = qcm.group.group_id as string;
    providers.standIn.answerNext("openai.chat", { title: "More", items: [{ question: "C?", choices: ["x", "y", "z"], correct_index: 2, explanation: "" }] });
    const extended = ok(await call(client, "action", { video_id: videoId, group_id: groupId, action: "extend" }));
    expect(extended).toMatchObject({ action: "extend", items_before: 2, items_after: 3, credits: { charged: 2 } });
    const calls = providers.standIn.calls().length;
    const shuffled = ok(await call(client, "action", { video_id: videoId, group_id: groupId, action: "shuffle" }));
    expect(shuffled.credits.charged).toBe(0);
    expect(shuffled.group.items.map((item: Row) => item.question).sort()).toEqual(["A?", "B?", "C?"]);
    expect(providers.standIn.calls().length).toBe(calls);
    const wrong = refused(await call(client, "action", { video_id: videoId, group_id: groupId, action: "reverse" }), 422, "validation_failed");
    expect(wrong.details.issues[0]).toMatchObject({ path: "action", allowed: ["extend", "shuffle"] });
    refused(await call(client, "action", { video_id: videoId, group_id: "sgp_missing", action: "extend" }), 404, "not_found");
    expect(await balanceOf(service, workspaceId)).toBe(8);

  });

  it("with a test key quotes the model actions and rolls create_qcm back", async () => {
    const fixture = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId: fixture.workspaceId, amount: 10, actionType: "grant" }));
    const videoId = await videoFor(fixture.client);
    const test = await fixture.newKey({ mode: "test" });
    const calls = providers.standIn.calls().length;
    expect(ok(await call(test.client, "generate", { video_id: videoId, type: "quiz" }))).toMatchObject({ object: "action_quote", credits: { cost: 2, charged: 0 } });
    expect(ok(await call(test.client, "create_qcm", { video_id: videoId, questions: [{ question: "Q?", choices: ["A", "B"], correct_index: 0 }] }))).toMatchObject({ livemode: false, group: { type: "qcm" } });
    expect((await prisma().video.findUniqueOrThrow({ where: { video_id: videoId } })).smart_groups).toBeNull();
    expect(providers.standIn.calls().length).toBe(calls);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(10);
  });
});
