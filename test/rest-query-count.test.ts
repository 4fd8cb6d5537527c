// REST answers run compiled (src/graphql-endpoint/compiled-execution.ts) yet keep the planned loading of
// GraphQL: a record with its folder_ids, and a page of them, cost the same few SQL statements for
// 3 records as for 30, counted on the service's own Prisma client.
import { expect, it } from "vitest";
import { createFixture, useService, type Fixture } from "./support/service.js";

const service = useService({ countQueries: true });

async function statements(fixture: Fixture, path: string): Promise<number> {
  const database = service.service.database;
  const before = database.queryCount();
  const response = await fixture.client.get(path);
  expect(response.status, response.text).toBe(200);
  return database.queryCount() - before;
}

/** Uses a key once and waits for its last_used_at write, so it cannot fall inside a count. */
async function warmUp(fixture: Fixture, path: string): Promise<void> {
  await fixture.client.get(path);
  for (let attempt = 0; attempt < 100; attempt++) {
    const key = await service.service.database.prisma.apiKey.findUnique({ where: { key_id: fixture.keyId }, select: { last_used_at: true } });
    if (key?.last_used_at) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the key's last_used_at was never written");
}

async function seed(fixture: Fixture, videos: number): Promise<string> {
  const folder = await fixture.client.post("/api/v1/folders", { folder_name: "Shelf" });
  let first = "";
  for (let index = 0; index < videos; index++) {
    const video = await fixture.client.post("/api/v1/videos", { video_name: `Video ${index}`, folder_ids: [folder.body.folder_id] });
    first ||= video.body.video_id as string;
  }
  return first;
}

it("reads a record and a page with their folder_ids in the same statements for 3 records as for 30", async () => {
  const few = await createFixture(service);
  const many = await createFixture(service);
  const fewId = await seed(few, 3);
  const manyId = await seed(many, 30);
  // Each key is authenticated (and cached) first, so only the reads' own statements count.
  await warmUp(few, `/api/v1/videos/${fewId}`);
  await warmUp(many, `/api/v1/videos/${manyId}`);

  expect(await statements(few, `/api/v1/videos/${fewId}`)).toBe(2);
  expect(await statements(many, `/api/v1/videos/${manyId}`)).toBe(2);
  const fewPage = await statements(few, "/api/v1/videos?limit=50&fields=video_id,folder_ids");
  expect(await statements(many, "/api/v1/videos?limit=50&fields=video_id,folder_ids")).toBe(fewPage);
  expect(fewPage).toBe(2);
});
