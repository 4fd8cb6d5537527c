// A write whose answer was lost (docs/errors.md, "A write whose answer was lost"): the database
// connection drops before the write's COMMIT (nothing saved, a plain 500), while the COMMIT is
// unanswered (saved or not: `write_outcome: "unknown"`), or right after it (saved:
// `write_outcome: "committed"`). With an Idempotency-Key the retry answers the saved write, once
// (a model action keeps its credit hold for that retry); the answer says so. The service runs on
// a TCP proxy to PostgreSQL that cuts the real connections (test/support/pg-proxy.ts); its own
// database, so its cuts touch no other file's writes.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createFixture, isolatedEnvironment, useService, useStandIn } from "./support/service.js";
import { usePgProxy, type CutPoint } from "./support/pg-proxy.js";
import { balanceOf, funded } from "./support/action-calls.js";
import { VIDEO_IDS } from "./support/provider-standin/site-routes.js";

const environment = isolatedEnvironment("write-outcome");
const proxy = usePgProxy(environment.overrides);
const providers = useStandIn(environment.overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

const FOLDER_INSERT = /INSERT INTO "(public"\.")?folders"/;
const folderNames = (workspaceId: string) => prisma().folder.findMany({ where: { workspace_id: workspaceId }, select: { folder_id: true, folder_name: true } });

/** A fresh fixture's POST /folders, its write cut at `at` (the database back once it answered): a 500. */
async function cutFolderCreate(at: CutPoint, folderName: string, headers?: Record<string, string>) {
  const fixture = await createFixture(service);
  const cut = proxy.cut({ statement: FOLDER_INSERT, at });
  const [response] = await Promise.all([fixture.client.post("/api/v1/folders", { folder_name: folderName }, { headers }), cut]).finally(proxy.restore);
  expect(response.status, response.text).toBe(500);
  return { ...fixture, response };
}

describe("a COMMIT that goes unanswered", () => {
  it("without an Idempotency-Key: 500 saying the write may have been saved and how to make retries safe; it was saved", async () => {
    const { client, workspaceId, response: lost } = await cutFolderCreate("commit_answer_lost", "Answer lost");
    expect(lost.body.error).toMatchObject({ code: "internal_error", type: "api_error", retryable: true, details: { write_outcome: "unknown" } });
    expect(lost.body.error.message).toMatch(/may or may not have been saved/);
    expect(lost.body.error.hint).toMatch(/without an Idempotency-Key may write again/);
    // The server did commit it: a blind retry would have made a second folder.
    expect(await folderNames(workspaceId)).toEqual([expect.objectContaining({ folder_name: "Answer lost" })]);
    // The pool lost one connection and goes on.
    expect((await client.post("/api/v1/folders", { folder_name: "Next" })).status).toBe(201);
  });

  it("with an Idempotency-Key: the answer is not stored, and the retry answers the saved write, once", async () => {
    const headers = { "idempotency-key": randomUUID() };
    const { client, workspaceId, response: lost } = await cutFolderCreate("commit_answer_lost", "Resumed", headers);
    expect(lost.body.error).toMatchObject({ code: "internal_error", retryable: true, details: { write_outcome: "unknown" } });
    expect(lost.body.error.hint).toMatch(/Retry with the same Idempotency-Key/);

    const retried = await client.post("/api/v1/folders", { folder_name: "Resumed" }, { headers });
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    const saved = await folderNames(workspaceId);
    expect(saved).toEqual([{ folder_id: retried.body.folder_id, folder_name: "Resumed" }]);
    // From now on the answer is the stored one.
    const replayed = await client.post("/api/v1/folders", { folder_name: "Resumed" }, { headers });
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body.folder_id).toBe(retried.body.folder_id);
    expect(await folderNames(workspaceId)).toHaveLength(1);
  });
});

describe("a model action whose final COMMIT went unanswered", () => {
  it("with an Idempotency-Key keeps its credit hold for the retry, which answers the saved generation: charged once, nothing given back", async () => {
    const { client, workspaceId } = await funded(service, 20);
    const headers = { "idempotency-key": randomUUID() };
    const input = { image_url: `${providers.standIn.url}/vi/${VIDEO_IDS.timedText}/hqdefault.jpg` };
    const cut = proxy.cut({ statement: /INSERT INTO "(public"\.")?generations"/, at: "commit_answer_lost" });
    const [lost] = await Promise.all([client.post("/api/v1/actions/tools.remove_background", input, { headers }), cut]);
    expect(lost.status, lost.text).toBe(500);
    expect(lost.body.error).toMatchObject({ code: "internal_error", details: { write_outcome: "unknown" } });
    // The hold stands: the commit that settles it may have been saved.
    expect(await balanceOf(service, workspaceId)).toBe(18);

    const retried = await client.post("/api/v1/actions/tools.remove_background", input, { headers });
    expect(retried.status, retried.text).toBe(200);
    const generations = await prisma().generation.findMany({ where: { workspace_id: workspaceId } });
    expect(generations).toEqual([expect.objectContaining({ generation_id: retried.body.generation_id, status: "completed", credits_consumed: 2 })]);
    expect(await balanceOf(service, workspaceId)).toBe(18);
    expect(await prisma().creditTransaction.count({ where: { workspace_id: workspaceId, action_type: "refund" } })).toBe(0);
  });
});

describe("a connection lost before COMMIT", () => {
  it("is a plain 500: nothing was saved, and a retry writes once", async () => {
    const { client, workspaceId, response: failed } = await cutFolderCreate("before_commit", "Never saved");
    expect(failed.body.error).toMatchObject({ code: "internal_error", retryable: true });
    expect(failed.body.error).not.toHaveProperty("details");
    expect(await folderNames(workspaceId)).toEqual([]);
    expect((await client.post("/api/v1/folders", { folder_name: "Never saved" })).status).toBe(201);
    expect(await folderNames(workspaceId)).toHaveLength(1);
  });
});

describe("the database lost right after COMMIT", () => {
  it("with an Idempotency-Key: 500 saying the write was saved; the retry resumes it and answers 201, once", async () => {
    const headers = { "idempotency-key": randomUUID() };
    // Committed; then storing the answer under the key finds no database.
    const { client, workspaceId, response: failed } = await cutFolderCreate("after_commit", "Saved, answer lost", headers);
    expect(failed.body.error).toMatchObject({ code: "internal_error", retryable: true, details: { write_outcome: "committed" } });
    expect(failed.body.error.message).toMatch(/write was saved/);
    expect(failed.body.error.hint).toMatch(/Retry with the same Idempotency-Key/);

    const retried = await client.post("/api/v1/folders", { folder_name: "Saved, answer lost" }, { headers });
    expect(retried.status, retried.text).toBe(201);
    expect(await folderNames(workspaceId)).toEqual([{ folder_id: retried.body.folder_id, folder_name: "Saved, answer lost" }]);
  });

  it("without an Idempotency-Key: a fault after the commit says the write was saved and that a blind retry writes again", async () => {
    const { client } = await createFixture(service);
    // Re-enabling with `since` commits the change, then looks for what the endpoint missed.
    const created = await client.post("/api/v1/webhooks", { url: "https://93.184.215.14/hook", events: ["folder.created"], enabled: false });
    expect(created.status, created.text).toBe(201);
    const endpointId = created.body.endpoint_id as string;
    const cut = proxy.cut({ statement: /UPDATE "(public"\.")?webhook_endpoints"/, at: "after_commit" });
    const [failed] = await Promise.all([client.patch(`/api/v1/webhooks/${endpointId}`, { enabled: true, since: new Date(Date.now() - 60_000).toISOString() }), cut]).finally(proxy.restore);
    expect(failed.status, failed.text).toBe(500);
    expect(failed.body.error).toMatchObject({ code: "internal_error", retryable: true, details: { write_outcome: "committed" } });
    expect(failed.body.error.hint).toMatch(/without an Idempotency-Key may write again/);
    expect(await prisma().webhookEndpoint.findUniqueOrThrow({ where: { endpoint_id: endpointId }, select: { enabled: true } })).toEqual({ enabled: true });
    // This database is shared by nothing else, but leave no endpoint at a public address behind.
    expect((await client.delete(`/api/v1/webhooks/${endpointId}`)).status).toBe(200);
  });
});

describe("server-generated idempotency keys (docs/errors.md: not made)", () => {
  it("an unsafe call without an Idempotency-Key runs once, with no key made up, echoed or recorded", async () => {
    const { client, keyId } = await createFixture(service);
    const created = await client.post("/api/v1/folders", { folder_name: "No key" });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get("idempotency-key")).toBeNull();
    expect(await prisma().idempotencyRecord.count({ where: { key_id: keyId } })).toBe(0);
  });
});
