// The project families' records (docs/generation.md): image_agents, app_screenshots and
// voice_projects list / create / update / delete, over REST and GraphQL, against the real database.
// The stand-in provides the deployment's image models, which an agent_model is checked against.
import { describe, expect, it } from "vitest";
import { createFixture, useService, useStandIn, type ApiResponse, type Client } from "./support/service.js";

type Row = Record<string, any>;

const overrides = {};
useStandIn(overrides);
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

const post = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);
const get = (client: Client, name: string, query = "") => client.get(`/api/v1/actions/${name}${query}`);

function ok(response: ApiResponse, status = 200): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error, response.text).toBeUndefined();
  return response.body as Row;
}

function refused(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error, response.text).toMatchObject({ code, status });
  return response.body.error as Row;
}

const eventTypes = async (workspaceId: string) =>
  (await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } })).map((event) => event.type);

describe("image_agents", () => {
  it("creates an image agent that is an agents record, updates only the fields sent, lists and deletes it, with agent.* events", async () => {
    const { client, workspaceId } = await createFixture(service);
    const created = ok(await post(client, "image_agents.create", {
      agent_name: "Poster painter",
      agent_description: "Bold flat posters",
      agent_model: "openai/gpt-image-1",
      agent_prompt_template: "A poster of {{subject}}",
      agent_settings: { quality: "high" },
    }));
    expect(created).toMatchObject({ object: "agent", agent_type: "image", agent_name: "Poster painter", agent_model: "openai/gpt-image-1", agent_settings: { quality: "high" } });
    // The same record the agents resource serves (and images.generate runs).
    expect(ok(await client.get(`/api/v1/agents/${created.agent_id}`))).toMatchObject({ agent_id: created.agent_id, agent_type: "image" });

    const updated = ok(await post(client, "image_agents.update", { agent_id: created.agent_id, agent_description: "Posters, flat colours" }));
    expect(updated).toMatchObject({ agent_name: "Poster painter", agent_description: "Posters, flat colours", agent_prompt_template: "A poster of {{subject}}", agent_model: "openai/gpt-image-1" });

    // A video agent of the same workspace is no image agent: not listed, not touched.
    const video = ok(await client.post("/api/v1/agents", { agent_name: "Clip maker", agent_type: "video" }), 201);
    const listed = ok(await get(client, "image_agents.list"));
    expect(listed).toMatchObject({ object: "list", has_more: false, next_cursor: null, limit: 25 });
    expect(listed.data.map((agent: Row) => agent.agent_id)).toEqual([created.agent_id]);
    refused(await post(client, "image_agents.update", { agent_id: video.agent_id, agent_name: "x" }), 404, "not_found");
    refused(await post(client, "image_agents.delete", { agent_id: video.agent_id }), 404, "not_found");

    expect(ok(await post(client, "image_agents.delete", { agent_id: created.agent_id }))).toMatchObject({ object: "agent", agent_id: created.agent_id, deleted: true });
    expect(await prisma().agent.count({ where: { agent_id: created.agent_id } })).toBe(0);
    refused(await post(client, "image_agents.delete", { agent_id: created.agent_id }), 404, "not_found");
    const events = await eventTypes(workspaceId);
    expect(events.filter((type) => type.startsWith("agent."))).toEqual(["agent.created", "agent.updated", "agent.created", "agent.deleted"]);
  });

  it("refuses a model this deployment cannot run and a bad field with a 422 that names them, writing nothing", async () => {
    const { client, workspaceId } = await createFixture(service);
    const model = refused(await post(client, "image_agents.create", { agent_name: "x", agent_model: "openai/gpt-4.1" }), 422, "validation_failed");
    expect(model.details.issues[0]).toMatchObject({ path: "agent_model", type: "any.only" });
    expect(model.details.issues[0].allowed).toContain("openai/gpt-image-1");
    const missing = refused(await post(client, "image_agents.create", { agent_description: "no name" }), 422, "validation_failed");
    expect(missing.details.issues[0]).toMatchObject({ path: "agent_name" });
    const unknown = refused(await post(client, "image_agents.create", { agent_name: "x", agent_modle: "openai/gpt-image-1" }), 422, "validation_failed");
    expect(unknown.details.issues[0]).toMatchObject({ path: "agent_modle", type: "object.unknown", did_you_mean: "agent_model" });
    expect(await prisma().agent.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("pages 25 at a time, newest first, by cursor, through GraphQL too; the catalog gives no limit", async () => {
    const { client, workspaceId } = await createFixture(service);
    const base = Date.parse("2026-11-01T00:00:00Z");
    const rows = Array.from({ length: 27 }, (_, index) => ({
      agent_id: `agt_paging${String(index).padStart(2, "0")}${workspaceId.slice(-12)}`,
      workspace_id: workspaceId,
      agent_name: `agent ${index}`,
      agent_type: "image",
      created_at: new Date(base + index * 1000),
    }));
    await prisma().agent.createMany({ data: rows });
    const first = ok(await get(client, "image_agents.list"));
    expect(first).toMatchObject({ has_more: true, limit: 25 });
    expect(first.data.map((agent: Row) => agent.agent_name)).toEqual(rows.slice(2).reverse().map((row) => row.agent_name));
    const second = ok(await get(client, "image_agents.list", `?cursor=${first.next_cursor}`));
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.data.map((agent: Row) => agent.agent_name)).toEqual(["agent 1", "agent 0"]);
    expect(refused(await get(client, "image_agents.list", "?limit=2"), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "limit", type: "object.unknown", allowed: [] });
    refused(await get(client, "image_agents.list", "?cursor=not-ours"), 400, "invalid_request");

    const graphql = await client.graphql(`query($input: ImageAgentsListInput) { image_agents_list(input: $input) { object has_more data { agent_name } } }`, { input: { cursor: first.next_cursor } });
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.image_agents_list).toEqual({ object: "list", has_more: false, data: [{ agent_name: "agent 1" }, { agent_name: "agent 0" }] });
    const made = await client.graphql(`mutation { image_agents_create(input: {agent_name: "four"}) { object agent_id agent_type } }`);
    expect(made.body.errors, made.text).toBeUndefined();
    expect(made.body.data.image_agents_create).toMatchObject({ object: "agent", agent_type: "image" });
  });
});

describe("app_screenshots", () => {
  it("creates an empty project, fills it with an image agent, references and screens, keeps screen ids across updates, and deletes it", async () => {
    const { client, workspaceId } = await createFixture(service);
    const project = ok(await post(client, "app_screenshots.create", { project_name: "Habit tracker" }));
    expect(project).toMatchObject({ object: "app_screenshot_project", project_name: "Habit tracker", global_prompt: null, global_references: [], agent_id: null, screens: [] });
    const agent = ok(await post(client, "image_agents.create", { agent_name: "Screens" }));

    const filled = ok(await post(client, "app_screenshots.update", {
      project_id: project.project_id,
      global_prompt: "Pastel UI on a phone",
      global_references: ["https://example.com/brand.png"],
      agent_id: agent.agent_id,
      screens: [{ title: "Today", prompt: "The checklist" }, { title: "Stats", references: ["https://example.com/chart.png"] }],
    }));
    expect(filled).toMatchObject({ project_name: "Habit tracker", global_prompt: "Pastel UI on a phone", global_references: ["https://example.com/brand.png"], agent_id: agent.agent_id });
    expect(filled.screens).toEqual([
      { screen_id: expect.stringMatching(/^scn_/), title: "Today", prompt: "The checklist", references: [] },
      { screen_id: expect.stringMatching(/^scn_/), title: "Stats", prompt: "", references: ["https://example.com/chart.png"] },
    ]);
    const [today, stats] = filled.screens as Row[];

    // Replacing the list: Stats kept (same id) and moved first, Today dropped, a new screen added; nothing else changes.
    const reordered = ok(await post(client, "app_screenshots.update", { project_id: project.project_id, screens: [{ screen_id: stats!.screen_id, title: "Stats" }, { title: "Settings" }] }));
    expect(reordered.screens.map((screen: Row) => screen.title)).toEqual(["Stats", "Settings"]);
    expect(reordered.screens[0].screen_id).toBe(stats!.screen_id);
    expect(reordered).toMatchObject({ global_prompt: "Pastel UI on a phone", agent_id: agent.agent_id });
    // A screen id the project does not have (any more) is refused.
    const gone = refused(await post(client, "app_screenshots.update", { project_id: project.project_id, screens: [{ screen_id: today!.screen_id, title: "Today" }] }), 422, "validation_failed");
    expect(gone.details.issues[0]).toMatchObject({ path: "screens.0.screen_id", type: "any.invalid" });

    // null clears the agent; deleting the agent would too.
    expect(ok(await post(client, "app_screenshots.update", { project_id: project.project_id, agent_id: null })).agent_id).toBeNull();
    expect(ok(await post(client, "app_screenshots.update", { project_id: project.project_id, agent_id: agent.agent_id })).agent_id).toBe(agent.agent_id);
    ok(await post(client, "image_agents.delete", { agent_id: agent.agent_id }));
    expect(ok(await get(client, "app_screenshots.list")).data[0]).toMatchObject({ project_id: project.project_id, agent_id: null });

    expect(ok(await post(client, "app_screenshots.delete", { project_id: project.project_id }))).toEqual(expect.objectContaining({ object: "app_screenshot_project", project_id: project.project_id, deleted: true }));
    expect(await prisma().appScreenshotProject.count({ where: { workspace_id: workspaceId } })).toBe(0);
    // The contract lists no app-screenshot record events: only the audit feed.
    expect((await eventTypes(workspaceId)).filter((type) => type.startsWith("app_screenshot"))).toEqual([]);
  });

  it("refuses bad screens, references and agents with a 422 naming the field, and a bound past its size", async () => {
    const { client } = await createFixture(service);
    const project = ok(await post(client, "app_screenshots.create", { project_name: "Bounds" }));
    const update = (body: Row) => post(client, "app_screenshots.update", { project_id: project.project_id, ...body });
    expect(refused(await update({ screens: [{ title: "x", caption: "y" }] }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "screens.0.caption", type: "object.unknown" });
    expect(refused(await update({ screens: [{ prompt: "no title" }] }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "screens.0.title" });
    expect(refused(await update({ screens: Array.from({ length: 21 }, (_, index) => ({ title: `s${index}` })) }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "screens" });
    expect(refused(await update({ global_references: ["ftp://example.com/a.png"] }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "global_references.0" });
    const video = ok(await client.post("/api/v1/agents", { agent_name: "Clips", agent_type: "video" }), 201);
    expect(refused(await update({ agent_id: video.agent_id }), 422, "validation_failed").details.issues[0]).toMatchObject({ path: "agent_id" });
    refused(await update({ agent_id: "agt_0000000000000000000000" }), 404, "not_found");
    // Nothing of those calls was kept.
    expect(ok(await get(client, "app_screenshots.list")).data[0]).toMatchObject({ screens: [], global_references: [], agent_id: null });
  });

  it("works through GraphQL", async () => {
    const { client } = await createFixture(service);
    const made = await client.graphql(`mutation { app_screenshots_create(input: {project_name: "Via GraphQL"}) { object project_id screens { screen_id } } }`);
    expect(made.body.errors, made.text).toBeUndefined();
    const projectId = made.body.data.app_screenshots_create.project_id;
    const updated = await client.graphql(`mutation($input: AppScreenshotsUpdateInput!) { app_screenshots_update(input: $input) { project_id screens { title prompt references } } }`, {
      input: { project_id: projectId, screens: [{ title: "Home", prompt: "Launch screen" }] },
    });
    expect(updated.body.errors, updated.text).toBeUndefined();
    expect(updated.body.data.app_screenshots_update).toEqual({ project_id: projectId, screens: [{ title: "Home", prompt: "Launch screen", references: [] }] });
  });
});

describe("voice_projects", () => {
  it("creates with the catalog's fields (a sent project_id is ignored), updates only what is sent, lists by project_id and deletes", async () => {
    const { client, workspaceId } = await createFixture(service);
    const created = ok(await post(client, "voice_projects.create", {
      project_id: "vpj_mine",
      project_name: "Chapter 1",
      project_original_language: "en",
      project_target_language: "fr",
      project_main_voice_details: { voice_ref: "vc_narrator", speed: 1 },
      original_text_value: "Once upon a time.",
      original_text_last_edit: "2026-11-26T10:00:00+01:00",
      text_segmented_value: [{ text: "Once upon a time." }],
    }));
    expect(created.project_id).toMatch(/^vpj_[0-9A-Za-z]{22}$/);
    expect(created).toMatchObject({
      object: "voice_project", project_name: "Chapter 1", project_status: "draft", project_published: false,
      project_main_voice_details: { voice_ref: "vc_narrator", speed: 1 }, original_text_last_edit: "2026-11-26T09:00:00.000Z",
      translated_text_value: null, translated_text_last_edit: null,
    });
    const other = ok(await post(client, "voice_projects.create", { project_name: "Chapter 2" }));

    const updated = ok(await post(client, "voice_projects.update", { project_id: created.project_id, translated_text_value: "Il était une fois.", project_published: true, project_main_voice_details: null }));
    expect(updated).toMatchObject({ project_name: "Chapter 1", original_text_value: "Once upon a time.", translated_text_value: "Il était une fois.", project_published: true, project_main_voice_details: null });

    expect(ok(await get(client, "voice_projects.list")).data.map((project: Row) => project.project_id)).toEqual([other.project_id, created.project_id]);
    const one = ok(await get(client, "voice_projects.list", `?project_id=${created.project_id}`));
    expect(one.data.map((project: Row) => project.project_id)).toEqual([created.project_id]);
    refused(await get(client, "voice_projects.list", "?project_id=vpj_0000000000000000000000"), 404, "not_found");

    expect(ok(await post(client, "voice_projects.delete", { project_id: created.project_id }))).toMatchObject({ object: "voice_project", project_id: created.project_id, deleted: true });
    expect(await prisma().voiceProject.count({ where: { workspace_id: workspaceId } })).toBe(1);
    // The contract lists no voice-project record events: only the audit feed.
    expect((await eventTypes(workspaceId)).filter((type) => !type.startsWith("action."))).toEqual([]);

    const graphql = await client.graphql(`query { voice_projects_list { object data { project_id project_name } } }`);
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.voice_projects_list).toEqual({ object: "list", data: [{ project_id: other.project_id, project_name: "Chapter 2" }] });
  });

  it("refuses bad input with a 422 naming each field", async () => {
    const { client, workspaceId } = await createFixture(service);
    const error = refused(await post(client, "voice_projects.create", { project_name: "", original_text_last_edit: "yesterday", project_published: "yes" }), 422, "validation_failed");
    expect(error.details.issues.map((issue: Row) => issue.path).sort()).toEqual(["original_text_last_edit", "project_name", "project_published"]);
    const big = refused(await post(client, "voice_projects.create", { project_name: "Big", text_segmented_value: ["x".repeat(200_001)] }), 422, "validation_failed");
    expect(big.details.issues[0]).toMatchObject({ path: "text_segmented_value" });
    // Through GraphQL the same refusal comes as the error's extensions.
    const graphql = await client.graphql(`mutation { voice_projects_create(input: {project_name: "x", project_publihsed: true}) { project_id } }`);
    expect(graphql.body.errors?.[0]?.extensions, graphql.text).toMatchObject({ code: "validation_failed", status: 422 });
    expect(graphql.body.errors[0].extensions.details.issues[0]).toMatchObject({ path: "project_publihsed", type: "object.unknown", did_you_mean: "project_published" });
    expect(await prisma().voiceProject.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });
});

describe("another workspace's records and test keys", () => {
  it("refuses update and delete of another workspace's record with 403 and leaves it as it was", async () => {
    const owner = await createFixture(service);
    const intruder = await createFixture(service);
    const agent = ok(await post(owner.client, "image_agents.create", { agent_name: "Mine" }));
    const screens = ok(await post(owner.client, "app_screenshots.create", { project_name: "Mine" }));
    const voice = ok(await post(owner.client, "voice_projects.create", { project_name: "Mine" }));

    refused(await post(intruder.client, "image_agents.update", { agent_id: agent.agent_id, agent_name: "Theirs" }), 403, "workspace_mismatch");
    refused(await post(intruder.client, "image_agents.delete", { agent_id: agent.agent_id }), 403, "workspace_mismatch");
    refused(await post(intruder.client, "app_screenshots.update", { project_id: screens.project_id, project_name: "Theirs" }), 403, "workspace_mismatch");
    refused(await post(intruder.client, "app_screenshots.delete", { project_id: screens.project_id }), 403, "workspace_mismatch");
    refused(await post(intruder.client, "voice_projects.update", { project_id: voice.project_id, project_name: "Theirs" }), 403, "workspace_mismatch");
    refused(await post(intruder.client, "voice_projects.delete", { project_id: voice.project_id }), 403, "workspace_mismatch");
    refused(await get(intruder.client, "voice_projects.list", `?project_id=${voice.project_id}`), 403, "workspace_mismatch");
    // Nor may a project of theirs point at the owner's agent.
    const theirs = ok(await post(intruder.client, "app_screenshots.create", { project_name: "Theirs" }));
    refused(await post(intruder.client, "app_screenshots.update", { project_id: theirs.project_id, agent_id: agent.agent_id }), 403, "workspace_mismatch");
    // Their lists do not show the owner's records.
    expect(ok(await get(intruder.client, "image_agents.list")).data).toEqual([]);
    expect(ok(await get(intruder.client, "voice_projects.list")).data).toEqual([]);

    expect(await prisma().agent.findUniqueOrThrow({ where: { agent_id: agent.agent_id } })).toMatchObject({ agent_name: "Mine" });
    expect(await prisma().appScreenshotProject.findUniqueOrThrow({ where: { project_id: screens.project_id } })).toMatchObject({ project_name: "Mine" });
    expect(await prisma().voiceProject.findUniqueOrThrow({ where: { project_id: voice.project_id } })).toMatchObject({ project_name: "Mine" });
  });

  it("with a test key every write answers the record and writes no row and no event", async () => {
    const fixture = await createFixture(service);
    const test = await fixture.newKey({ mode: "test" });
    const agent = ok(await post(test.client, "image_agents.create", { agent_name: "Simulated" }));
    expect(agent).toMatchObject({ object: "agent", agent_type: "image", livemode: false });
    const screens = ok(await post(test.client, "app_screenshots.create", { project_name: "Simulated" }));
    expect(screens).toMatchObject({ object: "app_screenshot_project", livemode: false });
    const voice = ok(await post(test.client, "voice_projects.create", { project_name: "Simulated" }));
    expect(voice).toMatchObject({ object: "voice_project", livemode: false });

    // Updates and deletes of live records are simulated too: the records stay as they were.
    const live = ok(await post(fixture.client, "voice_projects.create", { project_name: "Live" }));
    expect(ok(await post(test.client, "voice_projects.update", { project_id: live.project_id, project_name: "Renamed" }))).toMatchObject({ project_name: "Renamed", livemode: false });
    ok(await post(test.client, "voice_projects.delete", { project_id: live.project_id }));
    expect(await prisma().voiceProject.findMany({ where: { workspace_id: fixture.workspaceId } })).toEqual([expect.objectContaining({ project_id: live.project_id, project_name: "Live" })]);

    expect(await prisma().agent.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect(await prisma().appScreenshotProject.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    expect((await eventTypes(fixture.workspaceId)).filter((type) => !type.startsWith("action."))).toEqual([]);
  });
});
