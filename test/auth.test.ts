// Authentication and tenancy over real HTTP (contract 4.1, 5.1, 5.7, 7): every 401/403 a key can
// produce, both credential headers, the allow-lists, and workspace isolation between two fixtures.
// Every error response is checked for its X-Request-Id header matching error.request_id.
import { describe, expect, it } from "vitest";
import { Client, createFixture, useService, type ApiResponse, type Fixture } from "./support/service.js";

const service = useService();

const prisma = () => service.service.database.prisma;

/** Asserts the contract's error envelope and returns `error`. */
function expectError(response: ApiResponse, status: number, code: string, type: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error, response.text).toMatchObject({ code, type, status, retryable: false });
  expect(typeof response.body.error.message).toBe("string");
  const requestId = response.headers.get("x-request-id");
  expect(requestId).toMatch(/^req_[0-9A-Za-z]+$/);
  expect(response.body.error.request_id).toBe(requestId);
  return response.body.error as Record<string, unknown>;
}

/** A key that is well formed but was never issued. */
function unknownKey(mode: "live" | "test" = "live"): string {
  return `sk_${mode}_${"A1b2C3d4".repeat(4)}`;
}

/** Changes a key as key management does: in the database, then every process's cached copy is dropped. */
async function setKey(keyId: string, data: { revoked_at?: Date | null; expires_at?: Date | null; paused_at?: Date | null }) {
  await prisma().apiKey.update({ where: { key_id: keyId }, data });
  await service.service.guards.keyCache.invalidate(keyId);
}

async function seedVideoAndFolder(fixture: Fixture, name: string) {
  const folder = await fixture.client.post("/api/v1/folders", { folder_name: `${name} folder` });
  expect(folder.status, folder.text).toBe(201);
  const video = await fixture.client.post("/api/v1/videos", { video_name: `${name} video`, folder_ids: [folder.body.folder_id] });
  expect(video.status, video.text).toBe(201);
  return { folderId: folder.body.folder_id as string, videoId: video.body.video_id as string };
}

describe("credentials", () => {
  it("accepts the key as Authorization: Bearer (any case of the scheme) and as X-Api-Key", async () => {
    const { key, workspaceId } = await createFixture(service);
    const anonymous = new Client(service.url);
    const requestIds = new Set<string>();

    const variants: Record<string, string>[] = [{ authorization: `Bearer ${key}` }, { authorization: `bearer ${key}` }, { "x-api-key": key }];
    for (const headers of variants) {
      const response = await anonymous.get("/api/v1", { headers });
      expect(response.status, `${JSON.stringify(Object.keys(headers))}: ${response.text}`).toBe(200);
      expect(response.body.workspace_id).toBe(workspaceId);
      expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
      requestIds.add(response.body.request_id);
    }
    expect(requestIds.size).toBe(3);
  });

  it("answers 401 missing_credentials when no key is sent, on every surface but health", async () => {
    const anonymous = new Client(service.url);

    const health = await anonymous.get("/api/v1/health");
    expect(health.status).toBe(200);

    for (const path of ["/api/v1", "/api/v1/videos", "/api/v1/folders/fld_0000000000000000000000"]) {
      expectError(await anonymous.get(path), 401, "missing_credentials", "authentication_error");
    }
    expectError(await anonymous.post("/api/v1/videos", { video_name: "x" }), 401, "missing_credentials", "authentication_error");
    // An empty credential is no credential.
    expectError(await anonymous.get("/api/v1/videos", { headers: { authorization: "Bearer " } }), 401, "missing_credentials", "authentication_error");
    expectError(await anonymous.get("/api/v1/videos", { headers: { "x-api-key": "" } }), 401, "missing_credentials", "authentication_error");
  });

  it("answers 401 invalid_credentials for an unknown well-formed key and for a malformed one, on both headers", async () => {
    const { key } = await createFixture(service);
    const anonymous = new Client(service.url);
    const candidates = [
      unknownKey("live"),
      unknownKey("test"),
      // The real key with its mode flipped is a different key.
      key.replace(/^sk_live_/, "sk_test_"),
      // Malformed: truncated, wrong prefix, not a key at all.
      key.slice(0, -1),
      key.replace(/^sk_/, "pk_"),
      "not-a-key",
    ];
    for (const candidate of candidates) {
      expectError(await anonymous.get("/api/v1/videos", { key: candidate }), 401, "invalid_credentials", "authentication_error");
      expectError(await anonymous.get("/api/v1/videos", { headers: { "x-api-key": candidate } }), 401, "invalid_credentials", "authentication_error");
    }
  });

  it("answers 401 key_revoked once the key is revoked", async () => {
    const { client, keyId } = await createFixture(service);
    expect((await client.get("/api/v1/videos")).status).toBe(200);

    await setKey(keyId, { revoked_at: new Date(Date.now() - 1000) });
    expectError(await client.get("/api/v1/videos"), 401, "key_revoked", "authentication_error");
    expectError(await client.post("/api/v1/folders", { folder_name: "after revocation" }), 401, "key_revoked", "authentication_error");
  });

  it("answers 401 key_expired past the expiry date, and serves the key before it", async () => {
    const live = await createFixture(service, { expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await live.client.get("/api/v1/videos")).status).toBe(200);

    const expired = await createFixture(service, { expiresAt: new Date(Date.now() - 1000) });
    expectError(await expired.client.get("/api/v1/videos"), 401, "key_expired", "authentication_error");

    // A key that expires while in use is refused from then on.
    await setKey(live.keyId, { expires_at: new Date(Date.now() - 1000) });
    expectError(await live.client.get("/api/v1/videos"), 401, "key_expired", "authentication_error");
  });

  it("answers 403 key_paused while the key is paused, and serves it again once resumed", async () => {
    const { client, keyId } = await createFixture(service);
    await setKey(keyId, { paused_at: new Date() });
    expectError(await client.get("/api/v1/videos"), 403, "key_paused", "permission_error");
    expectError(await client.post("/api/v1/videos", { video_name: "while paused" }), 403, "key_paused", "permission_error");

    await setKey(keyId, { paused_at: null });
    expect((await client.get("/api/v1/videos")).status).toBe(200);
  });

  it("refuses a paused, expired or revoked key on /graphql too", async () => {
    const paused = await createFixture(service);
    await setKey(paused.keyId, { paused_at: new Date() });
    const expired = await createFixture(service, { expiresAt: new Date(Date.now() - 1000) });
    const revoked = await createFixture(service);
    await setKey(revoked.keyId, { revoked_at: new Date(Date.now() - 1000) });

    for (const [fixture, status, code, type] of [
      [paused, 403, "key_paused", "permission_error"],
      [expired, 401, "key_expired", "authentication_error"],
      [revoked, 401, "key_revoked", "authentication_error"],
    ] as const) {
      const response = await fixture.client.graphql("{ videos { object } }");
      expectError(response, status, code, type);
      expect(response.body.errors[0].extensions).toMatchObject({ code, type });
      expect(response.body.data ?? null).toBeNull();
    }
  });
});

describe("IP allow-list (the tests call from 127.0.0.1)", () => {
  it("refuses a caller outside the list with 403 ip_not_allowed", async () => {
    const { client } = await createFixture(service, { ipAllowlist: ["10.0.0.0/8"] });
    expectError(await client.get("/api/v1/videos"), 403, "ip_not_allowed", "permission_error");
    expectError(await client.graphql("{ videos { object } }"), 403, "ip_not_allowed", "permission_error");
  });

  it("admits a caller inside the list, by CIDR range, by exact address or by any one entry", async () => {
    for (const ipAllowlist of [["127.0.0.1/32"], ["127.0.0.0/8"], ["127.0.0.1"], ["10.0.0.0/8", "::1", "127.0.0.1/32"], ["::ffff:127.0.0.1"]]) {
      const { client } = await createFixture(service, { ipAllowlist });
      const response = await client.get("/api/v1/videos");
      expect(response.status, `${JSON.stringify(ipAllowlist)}: ${response.text}`).toBe(200);
    }
  });

  it("reads an IPv4-mapped IPv6 range (as dual-stack logs show addresses) as the IPv4 range it maps", async () => {
    // ::ffff:127.0.0.0/104 is 127.0.0.0/8; ::ffff:10.0.0.0/104 is 10.0.0.0/8.
    const inside = await createFixture(service, { ipAllowlist: ["::ffff:127.0.0.0/104"] });
    const admitted = await inside.client.get("/api/v1/videos");
    expect(admitted.status, admitted.text).toBe(200);

    const outside = await createFixture(service, { ipAllowlist: ["::ffff:10.0.0.0/104"] });
    expectError(await outside.client.get("/api/v1/videos"), 403, "ip_not_allowed", "permission_error");
  });
});

describe("origin allow-list", () => {
  it("refuses an Origin outside the list with 403 origin_not_allowed", async () => {
    const { client } = await createFixture(service, { originAllowlist: ["https://app.example.com", "https://*.studio.example.com"] });
    for (const origin of ["https://evil.example.com", "http://app.example.com", "https://app.example.com:8443", "https://studio.example.com", "https://x.studio.example.com.evil.io", "null"]) {
      const response = await client.get("/api/v1/videos", { headers: { origin } });
      expectError(response, 403, "origin_not_allowed", "permission_error");
    }
  });

  it("admits an Origin inside the list (exact or subdomain wildcard) and a call with no Origin", async () => {
    const { client } = await createFixture(service, { originAllowlist: ["https://app.example.com", "https://*.studio.example.com"] });
    const variants: Record<string, string>[] = [{ origin: "https://app.example.com" }, { origin: "https://eu.studio.example.com" }, {}];
    for (const headers of variants) {
      const response = await client.get("/api/v1/videos", { headers });
      expect(response.status, `${JSON.stringify(headers)}: ${response.text}`).toBe(200);
    }
  });
});

describe("scopes on REST", () => {
  it("answers 403 insufficient_scope with the required and granted scopes", async () => {
    const { client } = await createFixture(service, { scopes: ["folders:read", "folders:write"] });
    const read = expectError(await client.get("/api/v1/videos"), 403, "insufficient_scope", "permission_error");
    expect(read.details).toEqual({ required_scopes: ["videos:read"], granted_scopes: ["folders:read", "folders:write"] });

    const write = expectError(await client.post("/api/v1/videos", { video_name: "nope" }), 403, "insufficient_scope", "permission_error");
    expect(write.details).toEqual({ required_scopes: ["videos:write"], granted_scopes: ["folders:read", "folders:write"] });
    expect(await prisma().video.count({ where: { video_name: "nope" } })).toBe(0);
  });
});

describe("workspaces", () => {
  it("answers 403 workspace_mismatch for an X-Workspace-Id that is not the key's, and serves its own", async () => {
    const mine = await createFixture(service);
    const other = await createFixture(service);

    const ok = await mine.client.get("/api/v1/videos", { headers: { "x-workspace-id": mine.workspaceId } });
    expect(ok.status, ok.text).toBe(200);

    for (const workspaceId of [other.workspaceId, "ws_doesnotexist0000000000"]) {
      const error = expectError(
        await mine.client.get("/api/v1/videos", { headers: { "x-workspace-id": workspaceId } }),
        403, "workspace_mismatch", "permission_error",
      );
      expect(error.param).toBe("X-Workspace-Id");
    }
    const onWrite = await mine.client.post("/api/v1/folders", { folder_name: "cross" }, { headers: { "x-workspace-id": other.workspaceId } });
    expectError(onWrite, 403, "workspace_mismatch", "permission_error");
    expect(await prisma().folder.count({ where: { workspace_id: { in: [mine.workspaceId, other.workspaceId] } } })).toBe(0);

    const graphql = await mine.client.graphql("{ videos { object } }", undefined, { headers: { "x-workspace-id": other.workspaceId } });
    expectError(graphql, 403, "workspace_mismatch", "permission_error");
  });

  it("refuses reading, updating and deleting another workspace's video and folder, in both directions", async () => {
    const a = await createFixture(service);
    const b = await createFixture(service);
    const recordsOf = new Map([
      [a, await seedVideoAndFolder(a, "A")],
      [b, await seedVideoAndFolder(b, "B")],
    ]);

    for (const [caller, owner] of [[a, b], [b, a]] as const) {
      const { videoId, folderId } = recordsOf.get(owner)!;
      for (const [path, param] of [[`/api/v1/videos/${videoId}`, "video_id"], [`/api/v1/folders/${folderId}`, "folder_id"]] as const) {
        const attempts = [
          await caller.client.get(path),
          await caller.client.patch(path, param === "video_id" ? { video_name: "hijacked" } : { folder_name: "hijacked" }),
          await caller.client.post(path, param === "video_id" ? { video_name: "hijacked" } : { folder_name: "hijacked" }),
          await caller.client.delete(path),
        ];
        for (const response of attempts) {
          const error = expectError(response, 403, "workspace_mismatch", "permission_error");
          expect(error.param).toBe(param);
        }
      }
    }

    // Nothing changed: each owner still sees its records as they were, folder links included.
    for (const [owner, name] of [[a, "A"], [b, "B"]] as const) {
      const { videoId, folderId } = recordsOf.get(owner)!;
      const video = await owner.client.get(`/api/v1/videos/${videoId}`);
      expect(video.status).toBe(200);
      expect(video.body).toMatchObject({ video_name: `${name} video`, folder_ids: [folderId] });
      const folder = await owner.client.get(`/api/v1/folders/${folderId}`);
      expect(folder.status).toBe(200);
      expect(folder.body.folder_name).toBe(`${name} folder`);
    }
  });

  it("refuses another workspace's records over GraphQL, in both directions", async () => {
    const a = await createFixture(service);
    const b = await createFixture(service);
    const recordsOf = new Map([
      [a, await seedVideoAndFolder(a, "A")],
      [b, await seedVideoAndFolder(b, "B")],
    ]);
    for (const [caller, owner] of [[a, b], [b, a]] as const) {
      const { videoId, folderId } = recordsOf.get(owner)!;
      const operations = [
        ["query($id: ID!) { video(video_id: $id) { video_name } }", videoId],
        ['mutation($id: ID!) { update_video(video_id: $id, input: { video_name: "hijacked" }) { video_name } }', videoId],
        ["mutation($id: ID!) { delete_video(video_id: $id) { deleted } }", videoId],
        ["query($id: ID!) { folder(folder_id: $id) { folder_name } }", folderId],
        ['mutation($id: ID!) { update_folder(folder_id: $id, input: { folder_name: "hijacked" }) { folder_name } }', folderId],
        ["mutation($id: ID!) { delete_folder(folder_id: $id) { deleted } }", folderId],
      ] as const;
      for (const [query, id] of operations) {
        const response = await caller.client.graphql(query, { id });
        expect(response.body.data ?? null, response.text).toBeNull();
        expect(response.body.errors?.[0]?.extensions, response.text).toMatchObject({
          code: "workspace_mismatch",
          type: "permission_error",
          request_id: response.headers.get("x-request-id"),
        });
      }
    }
    for (const [owner, name] of [[a, "A"], [b, "B"]] as const) {
      const { videoId, folderId } = recordsOf.get(owner)!;
      expect((await owner.client.get(`/api/v1/videos/${videoId}`)).body.video_name).toBe(`${name} video`);
      expect((await owner.client.get(`/api/v1/folders/${folderId}`)).body.folder_name).toBe(`${name} folder`);
    }
  });

  it("never lists another workspace's records, nor links its folders to a video", async () => {
    const a = await createFixture(service);
    const b = await createFixture(service);
    const ofA = await seedVideoAndFolder(a, "A");
    const ofB = await seedVideoAndFolder(b, "B");

    const videos = await b.client.get("/api/v1/videos");
    expect(videos.status).toBe(200);
    expect(videos.body.data.map((video: { video_id: string }) => video.video_id)).toEqual([ofB.videoId]);
    const folders = await b.client.get("/api/v1/folders");
    expect(folders.body.data.map((folder: { folder_id: string }) => folder.folder_id)).toEqual([ofB.folderId]);

    const linked = await b.client.patch(`/api/v1/videos/${ofB.videoId}`, { folder_ids: [ofA.folderId] });
    const error = expectError(linked, 422, "validation_failed", "validation_error");
    expect(error.details).toMatchObject({ issues: [expect.objectContaining({ path: "folder_ids.0" })] });
    expect(await prisma().videoFolder.findMany({ where: { folder_id: ofA.folderId }, select: { video_id: true } })).toEqual([{ video_id: ofA.videoId }]);
  });
});
