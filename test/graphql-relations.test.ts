// Parent-to-child relations in GraphQL: Video.renders, Folder.videos, Character.tags,
// Agent.executions, Flow.executions (each a page in the list shape, with limit, cursor and
// order) and Script.video, ScheduledPost.video (single records). A nested list costs the same
// number of SQL statements for 3 parents as for 30 (counted on the service's own Prisma client),
// and nothing of another workspace shows through a relation.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type Fixture } from "./support/service.js";
import { newId } from "../src/ids.js";
import { waitFor } from "./support/wait.js";

const service = useService({ countQueries: true });
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

/** Seconds apart, so creation order (the order of child pages) is unambiguous. */
const at = (index: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, index));

/** SQL statements the service ran to answer one request (the key's own bookkeeping excluded). */
async function queriesFor(run: () => Promise<unknown>): Promise<number> {
  const database = service.service.database;
  const before = database.queryCount();
  await run();
  return database.queryCount() - before;
}

/** Uses a key once and waits for its last_used_at write, so it cannot fall inside a count. */
async function warmUp(fixture: Fixture): Promise<void> {
  await fixture.client.graphql("{ videos(limit: 1) { data { video_id } } }");
  await waitFor("the key's last_used_at to be written", async () => (await prisma().apiKey.findUnique({ where: { key_id: fixture.keyId }, select: { last_used_at: true } }))?.last_used_at, 2_000, 20);
}

interface RelationCase {
  name: string;
  /** Creates `parents` parents with 3 children each (or one referenced record each); returns the parent ids in list order. */
  seed(workspaceId: string, parents: number): Promise<void>;
  query(limit: number): string;
  /** The nested list (or record) of each parent in the answer. */
  nested(body: Row): Row[];
}

const PAGE = "has_more next_cursor";

const CASES: RelationCase[] = [
  {
    name: "Video.renders",
    async seed(workspaceId, parents) {
      for (let index = 0; index < parents; index++) {
        const video_id = newId("video");
        await prisma().video.create({ data: { video_id, workspace_id: workspaceId, video_name: `V${index}` } });
        await prisma().render.createMany({ data: [0, 1, 2].map((child) => ({ render_id: newId("render"), workspace_id: workspaceId, video_id, render_creation_date: at(child) })) });
      }
    },
    query: (limit) => `{ videos(limit: ${limit}) { data { video_id renders(limit: 2) { data { render_id video_id } ${PAGE} } } } }`,
    nested: (body) => body.data.videos.data.map((video: Row) => video.renders),
  },
  {
    name: "Folder.videos",
    async seed(workspaceId, parents) {
      for (let index = 0; index < parents; index++) {
        const folder_id = newId("folder");
        await prisma().folder.create({ data: { folder_id, workspace_id: workspaceId, folder_name: `F${index}` } });
        for (const child of [0, 1, 2]) {
          const video_id = newId("video");
          await prisma().video.create({ data: { video_id, workspace_id: workspaceId, video_name: `in ${index}`, video_created_at: at(child) } });
          await prisma().videoFolder.create({ data: { video_id, folder_id, position: child } });
        }
      }
    },
    query: (limit) => `{ folders(limit: ${limit}) { data { folder_id videos(limit: 2) { data { video_id folder_ids } ${PAGE} } } } }`,
    nested: (body) => body.data.folders.data.map((folder: Row) => folder.videos),
  },
  {
    name: "Character.tags",
    async seed(workspaceId, parents) {
      for (let index = 0; index < parents; index++) {
        const character_id = newId("character");
        await prisma().character.create({ data: { character_id, workspace_id: workspaceId, character_name: `C${index}` } });
        for (const child of [0, 1, 2]) {
          const tag_id = newId("character_tag");
          await prisma().characterTag.create({ data: { tag_id, workspace_id: workspaceId, tag_name: `t${index}.${child}`, created_at: at(child) } });
          await prisma().characterTagLink.create({ data: { character_id, tag_id, position: child } });
        }
      }
    },
    query: (limit) => `{ characters(limit: ${limit}) { data { character_id tags(limit: 2) { data { tag_id tag_name } ${PAGE} } } } }`,
    nested: (body) => body.data.characters.data.map((character: Row) => character.tags),
  },
  {
    name: "Agent.executions",
    async seed(workspaceId, parents) {
      for (let index = 0; index < parents; index++) {
        const agent_id = newId("agent");
        await prisma().agent.create({ data: { agent_id, workspace_id: workspaceId, agent_name: `A${index}` } });
        await prisma().agentExecution.createMany({ data: [0, 1, 2].map((child) => ({ execution_id: newId("agent_execution"), workspace_id: workspaceId, agent_id, created_at: at(child) })) });
      }
    },
    query: (limit) => `{ agents(limit: ${limit}) { data { agent_id executions(limit: 2) { data { execution_id agent_id } ${PAGE} } } } }`,
    nested: (body) => body.data.agents.data.map((agent: Row) => agent.executions),
  },
  {
    name: "Flow.executions",
    async seed(workspaceId, parents) {
      for (let index = 0; index < parents; index++) {
        const flow_id = newId("flow");
        await prisma().flow.create({ data: { flow_id, workspace_id: workspaceId, name: `Flow ${index}` } });
        await prisma().flowExecution.createMany({ data: [0, 1, 2].map((child) => ({ execution_id: newId("flow_execution"), workspace_id: workspaceId, flow_id, created_at: at(child) })) });
      }
    },
    query: (limit) => `{ flows(limit: ${limit}) { data { flow_id executions(limit: 2) { data { execution_id flow_id } ${PAGE} } } } }`,
    nested: (body) => body.data.flows.data.map((flow: Row) => flow.executions),
  },
  {
    name: "Script.video",
    async seed(workspaceId, parents) {
      for (let index = 0; index < parents; index++) {
        const video_id = newId("video");
        await prisma().video.create({ data: { video_id, workspace_id: workspaceId, video_name: `S${index}` } });
        await prisma().script.create({ data: { script_id: newId("script"), workspace_id: workspaceId, title: `Script ${index}`, video_id } });
      }
    },
    query: (limit) => `{ scripts(limit: ${limit}) { data { script_id video_id video { video_id video_name folder_ids } } } }`,
    nested: (body) => body.data.scripts.data.map((script: Row) => script.video),
  },
  {
    name: "ScheduledPost.video",
    async seed(workspaceId, parents) {
      for (let index = 0; index < parents; index++) {
        const video_id = newId("video");
        await prisma().video.create({ data: { video_id, workspace_id: workspaceId, video_name: `P${index}` } });
        await prisma().scheduledPost.create({ data: { post_id: newId("scheduled_post"), workspace_id: workspaceId, platform: "youtube", scheduled_at: at(index), video_id } });
      }
    },
    query: (limit) => `{ scheduled_posts(limit: ${limit}) { data { _id video_id video { video_id video_name } } } }`,
    nested: (body) => body.data.scheduled_posts.data.map((post: Row) => post.video),
  },
];

describe("GraphQL relations cost O(1) queries", () => {
  for (const relation of CASES) {
    it(`${relation.name}: 3 parents and 30 parents take the same number of SQL statements`, async () => {
      const few = await createFixture(service);
      const many = await createFixture(service);
      await relation.seed(few.workspaceId, 3);
      await relation.seed(many.workspaceId, 30);
      await warmUp(few);
      await warmUp(many);

      let fewBody: Row = {};
      let manyBody: Row = {};
      const fewQueries = await queriesFor(async () => (fewBody = (await few.client.graphql(relation.query(3))).body));
      const manyQueries = await queriesFor(async () => (manyBody = (await many.client.graphql(relation.query(30))).body));

      expect(fewBody.errors, JSON.stringify(fewBody.errors)).toBeUndefined();
      expect(manyBody.errors, JSON.stringify(manyBody.errors)).toBeUndefined();
      expect(relation.nested(fewBody)).toHaveLength(3);
      expect(relation.nested(manyBody)).toHaveLength(30);
      for (const nested of relation.nested(manyBody)) {
        expect(nested).not.toBeNull();
        // Lists: the newest 2 of 3 children, and a cursor to the third.
        if ("data" in nested) expect(nested).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
        if ("data" in nested) expect(nested.data).toHaveLength(2);
      }
      expect(manyQueries).toBe(fewQueries);
    });
  }
});

describe("the nested lists the benchmark reports (docs/benchmarks.md, Query counts)", () => {
  // Parents, then one statement per nested level (Folder.videos also reads each video's folder_ids).
  const budgets: Record<string, number> = { "Video.renders": 2, "Folder.videos": 4 };
  for (const relation of CASES.filter((candidate) => candidate.name in budgets)) {
    it(`${relation.name}: a page of 50 parents with their children takes ${budgets[relation.name]} SQL statements`, async () => {
      const fixture = await createFixture(service);
      await relation.seed(fixture.workspaceId, 50);
      await warmUp(fixture);
      let body: Row = {};
      const statements = await queriesFor(async () => (body = (await fixture.client.graphql(relation.query(50))).body));
      expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
      expect(relation.nested(body)).toHaveLength(50);
      expect(statements).toBe(budgets[relation.name]);
    }, 60_000);
  }
});

describe("paging a nested list", () => {
  it("walks a video's renders by cursor, newest first or oldest first with order: asc", async () => {
    const fixture = await createFixture(service);
    const video_id = newId("video");
    await prisma().video.create({ data: { video_id, workspace_id: fixture.workspaceId } });
    const renders = Array.from({ length: 5 }, (_, index) => ({ render_id: newId("render"), workspace_id: fixture.workspaceId, video_id, render_creation_date: at(index) }));
    await prisma().render.createMany({ data: renders });

    const page = async (args: string) => {
      const response = await fixture.client.graphql(`{ video(video_id: "${video_id}") { renders${args ? `(${args})` : ""} { object data { render_id } has_more next_cursor total } } }`);
      expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
      return response.body.data.video.renders as Row;
    };
    const newest = renders.map((render) => render.render_id).reverse();
    const first = await page("limit: 2");
    expect(first).toMatchObject({ object: "list", has_more: true, total: null });
    const second = await page(`limit: 2, cursor: "${first.next_cursor}"`);
    const third = await page(`limit: 2, cursor: "${second.next_cursor}"`);
    expect(third).toMatchObject({ has_more: false, next_cursor: null });
    expect([...first.data, ...second.data, ...third.data].map((render: Row) => render.render_id)).toEqual(newest);
    expect((await page("order: \"asc\"")).data.map((render: Row) => render.render_id)).toEqual([...newest].reverse());
    expect((await page("")).data).toHaveLength(5);
  });

  it("takes the list rules: the same limit message, and a cursor only with its own order", async () => {
    const fixture = await createFixture(service);
    const video_id = newId("video");
    await prisma().video.create({ data: { video_id, workspace_id: fixture.workspaceId } });
    await prisma().render.createMany({ data: [0, 1].map((index) => ({ render_id: newId("render"), workspace_id: fixture.workspaceId, video_id, render_creation_date: at(index) })) });
    const bad = await fixture.client.graphql(`{ video(video_id: "${video_id}") { renders(limit: 101) { data { render_id } } } }`);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: "validation_failed", param: "limit", message: "limit must be an integer from 1 to 100." });
    const first = await fixture.client.graphql(`{ video(video_id: "${video_id}") { renders(limit: 1) { next_cursor } } }`);
    const cursor = first.body.data.video.renders.next_cursor as string;
    const mixed = await fixture.client.graphql(`{ video(video_id: "${video_id}") { renders(limit: 1, cursor: "${cursor}", order: "asc") { data { render_id } } } }`);
    expect(mixed.body.errors[0].extensions).toMatchObject({ code: "invalid_request", param: "cursor" });
  });

  it("needs the child resource's read scope", async () => {
    const fixture = await createFixture(service);
    await prisma().video.create({ data: { video_id: newId("video"), workspace_id: fixture.workspaceId } });
    const videosOnly = await fixture.newKey({ scopes: ["videos:read"] });
    const response = await videosOnly.client.graphql("{ videos { data { video_id renders { data { render_id } } } } }");
    expect(response.body.data.videos.data[0].renders).toBeNull();
    expect(response.body.errors[0].extensions).toMatchObject({ code: "insufficient_scope", details: { required_scopes: ["renders:read"] } });
  });
});

describe("workspace isolation through relations", () => {
  it("never lists another workspace's records under a parent, even when rows link across workspaces", async () => {
    const mine = await createFixture(service);
    const theirs = await createFixture(service);
    const video_id = newId("video");
    const folder_id = newId("folder");
    const character_id = newId("character");
    await prisma().video.create({ data: { video_id, workspace_id: mine.workspaceId } });
    await prisma().folder.create({ data: { folder_id, workspace_id: mine.workspaceId, folder_name: "Mine" } });
    await prisma().character.create({ data: { character_id, workspace_id: mine.workspaceId, character_name: "Mine" } });
    // Rows the API would never write, pointing from the other workspace into mine.
    const foreignRender = newId("render");
    const foreignVideo = newId("video");
    const foreignTag = newId("character_tag");
    await prisma().render.create({ data: { render_id: foreignRender, workspace_id: theirs.workspaceId, video_id } });
    await prisma().video.create({ data: { video_id: foreignVideo, workspace_id: theirs.workspaceId } });
    await prisma().videoFolder.create({ data: { video_id: foreignVideo, folder_id, position: 0 } });
    await prisma().characterTag.create({ data: { tag_id: foreignTag, workspace_id: theirs.workspaceId, tag_name: "theirs" } });
    await prisma().characterTagLink.create({ data: { character_id, tag_id: foreignTag, position: 0 } });
    const ownRender = newId("render");
    await prisma().render.create({ data: { render_id: ownRender, workspace_id: mine.workspaceId, video_id } });

    const response = await mine.client.graphql(`{
      video(video_id: "${video_id}") { renders { data { render_id } } }
      folder(folder_id: "${folder_id}") { videos { data { video_id } has_more } }
      character(character_id: "${character_id}") { tags { data { tag_id } has_more } }
    }`);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.video.renders.data).toEqual([{ render_id: ownRender }]);
    expect(response.body.data.folder.videos).toEqual({ data: [], has_more: false });
    expect(response.body.data.character.tags).toEqual({ data: [], has_more: false });
  });

  it("shows no referenced record of another workspace (Script.video, ScheduledPost.video)", async () => {
    const mine = await createFixture(service);
    const theirs = await createFixture(service);
    const foreignVideo = newId("video");
    await prisma().video.create({ data: { video_id: foreignVideo, workspace_id: theirs.workspaceId, video_name: "Theirs" } });
    const script_id = newId("script");
    const post_id = newId("scheduled_post");
    await prisma().script.create({ data: { script_id, workspace_id: mine.workspaceId, video_id: foreignVideo } });
    await prisma().scheduledPost.create({ data: { post_id, workspace_id: mine.workspaceId, platform: "youtube", scheduled_at: at(0), video_id: foreignVideo } });

    const response = await mine.client.graphql(`{
      script(script_id: "${script_id}") { video_id video { video_name } }
      scheduled_post(_id: "${post_id}") { video { video_name } }
    }`);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.script.video).toBeNull();
    expect(response.body.data.scheduled_post.video).toBeNull();
    expect(JSON.stringify(response.body)).not.toContain("Theirs");
  });
});
