// No N+1 in GraphQL: a page of records with a nested relation costs the same number of SQL
// queries whether it holds 5 records or 100 (counted on the service's own Prisma client).
import { describe, expect, it } from "vitest";
import { createFixture, useService, type Fixture } from "./support/service.js";
import { newId } from "../src/ids.js";
import { waitFor } from "./support/wait.js";

const service = useService({ countQueries: true });

async function seedRenders(fixture: Fixture, count: number): Promise<void> {
  const prisma = service.service.database.prisma;
  const videoIds = Array.from({ length: 10 }, () => newId("video"));
  await prisma.video.createMany({ data: videoIds.map((video_id, index) => ({ video_id, workspace_id: fixture.workspaceId, video_name: `Video ${index}` })) });
  await prisma.render.createMany({
    data: Array.from({ length: count }, (_, index) => ({ render_id: newId("render"), workspace_id: fixture.workspaceId, video_id: videoIds[index % videoIds.length]! })),
  });
}

/**
 * Uses a key once and waits for its bookkeeping write (last_used_at, made off the request path)
 * to land, so it cannot fall inside a measured window.
 */
async function warmUp(fixture: Fixture): Promise<void> {
  await fixture.client.graphql("{ videos(limit: 1) { data { video_id } } }");
  const prisma = service.service.database.prisma;
  await waitFor("the key's last_used_at to be written", async () => (await prisma.apiKey.findUnique({ where: { key_id: fixture.keyId }, select: { last_used_at: true } }))?.last_used_at, 2_000, 20);
}

/** SQL statements the service ran to answer one request. */
async function queriesFor(run: () => Promise<unknown>): Promise<number> {
  const database = service.service.database;
  const before = database.queryCount();
  await run();
  return database.queryCount() - before;
}

describe("GraphQL nested relations", () => {
  it("loads a page of renders with their videos in a constant number of queries", async () => {
    const small = await createFixture(service);
    const large = await createFixture(service);
    await seedRenders(small, 5);
    await seedRenders(large, 100);
    const query = `{ renders(limit: 100) { data { render_id video { video_id video_name folder_ids } } } }`;

    await warmUp(small);
    await warmUp(large);

    let smallBody: any, largeBody: any;
    const smallQueries = await queriesFor(async () => (smallBody = (await small.client.graphql(query)).body));
    const largeQueries = await queriesFor(async () => (largeBody = (await large.client.graphql(query)).body));

    expect(smallBody.errors).toBeUndefined();
    expect(largeBody.errors).toBeUndefined();
    expect(smallBody.data.renders.data).toHaveLength(5);
    expect(largeBody.data.renders.data).toHaveLength(100);
    expect(largeBody.data.renders.data.every((render: { video: { video_id: string } | null }) => render.video?.video_id.startsWith("vid_"))).toBe(true);
    expect(largeQueries).toBe(smallQueries);
    // Key lookup, the page, and one batched load per relation level.
    expect(largeQueries).toBeLessThanOrEqual(5);
  });

  it("lists videos with folder_ids in a constant number of queries", async () => {
    const fixture = await createFixture(service);
    await warmUp(fixture);
    const folder = (await fixture.client.post("/api/v1/folders", { folder_name: "All" })).body.folder_id;
    for (let index = 0; index < 30; index++) await fixture.client.post("/api/v1/videos", { video_name: `V${index}`, folder_ids: [folder] });
    const few = await queriesFor(() => fixture.client.graphql("{ videos(limit: 3) { data { video_id folder_ids } } }"));
    const many = await queriesFor(() => fixture.client.graphql("{ videos(limit: 30) { data { video_id folder_ids } } }"));
    expect(many).toBe(few);
  });
});
