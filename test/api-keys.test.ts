// Key management over real HTTP (contract 5; src/api-keys/*): create (the secret shown once),
// list, get, presets and scopes (never beyond the creator's), update, pause and resume, rotate with
// and without a grace period, revoke, expiry, workspaces, the api_keys scopes, test keys, and the
// same over GraphQL. Each key is then tried for real against the API.
import { describe, expect, it } from "vitest";
import { PRESETS } from "../src/auth/scopes.js";
import { Client, createFixture, useService, type ApiResponse, type Fixture } from "./support/service.js";
import { sleep } from "./support/wait.js";

const service = useService();

type Row = Record<string, any>;

const prisma = () => service.service.database.prisma;
const LIVE_SECRET = /^sk_live_[0-9A-Za-z]{32}$/;

function expectError(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status, request_id: response.headers.get("x-request-id") });
  return response.body.error as Row;
}

/** What a key answers on a plain read: its status and, on failure, the error code. */
async function probe(secret: string): Promise<string> {
  const response = await new Client(service.url, secret).get("/api/v1/videos");
  return response.status === 200 ? "ok" : `${response.status} ${response.body.error?.code}`;
}

/** The record of a key never carries its secret or a hash of it. */
function expectNoSecretFields(record: Row) {
  for (const field of ["secret", "secret_hash", "previous_secret_hash", "workspace_id"]) expect(record, field).not.toHaveProperty(field);
}

async function createKey(fixture: Fixture | { client: Client }, input: Row = {}): Promise<{ keyId: string; secret: string; record: Row; response: ApiResponse }> {
  const response = await fixture.client.post("/api/v1/api_keys", input);
  expect(response.status, response.text).toBe(201);
  return { keyId: response.body.key_id, secret: response.body.secret, record: response.body.api_key, response };
}

describe("create, list, get", () => {
  it("creates a key whose secret is shown once; the record never carries it", async () => {
    const admin = await createFixture(service);
    const { keyId, secret, record, response } = await createKey(admin, { name: "CI", scopes: ["videos:read", "folders:*"] });
    expect(response.body).toMatchObject({ object: "api_key_secret", key_id: keyId, livemode: true, request_id: response.headers.get("x-request-id") });
    expect(secret).toMatch(LIVE_SECRET);
    expect(record).toMatchObject({
      object: "api_key",
      key_id: keyId,
      name: "CI",
      mode: "live",
      scopes: ["videos:read", "folders:*"],
      key_prefix: secret.slice(0, 12),
      key_last4: secret.slice(-4),
      created_by_key_id: admin.keyId,
      paused_at: null,
      revoked_at: null,
      expires_at: null,
      ip_allowlist: [],
      origin_allowlist: [],
    });
    expectNoSecretFields(record);
    expect(await probe(secret)).toBe("ok");

    // Listed and read without the secret.
    const list = await admin.client.get("/api/v1/api_keys");
    expect(list.status, list.text).toBe(200);
    expect((list.body.data as Row[]).map((key) => key.key_id).sort()).toEqual([admin.keyId, keyId].sort());
    for (const key of list.body.data as Row[]) expectNoSecretFields(key);
    const got = await admin.client.get(`/api/v1/api_keys/${keyId}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ object: "api_key", key_id: keyId, name: "CI", scopes: ["videos:read", "folders:*"] });
    expectNoSecretFields(got.body);
    for (const text of [list.text, got.text]) expect(text).not.toContain(secret);

    // Its scopes hold: it reads videos but writes none.
    const created = new Client(service.url, secret);
    expectError(await created.post("/api/v1/videos", { video_name: "no" }), 403, "insufficient_scope");
  });

  it("takes a preset; read_only when neither preset nor scopes is given; not both", async () => {
    const admin = await createFixture(service);
    expect((await createKey(admin, { preset: "content_editor" })).record.scopes).toEqual([...PRESETS.content_editor]);
    expect((await createKey(admin, { preset: "automation" })).record.scopes).toEqual([...PRESETS.automation]);
    const readOnly = await createKey(admin);
    expect(readOnly.record.scopes).toEqual(["*:read"]);
    expect(await probe(readOnly.secret)).toBe("ok");
    expectError(await new Client(service.url, readOnly.secret).post("/api/v1/folders", { folder_name: "no" }), 403, "insufficient_scope");

    expect(expectError(await admin.client.post("/api/v1/api_keys", { preset: "read_only", scopes: ["videos:read"] }), 400, "invalid_request").param).toBe("preset");
    expectError(await admin.client.post("/api/v1/api_keys", { preset: "superuser" }), 422, "validation_failed");
    expectError(await admin.client.post("/api/v1/api_keys", { scopes: ["videos:fly"] }), 422, "validation_failed");
    expectError(await admin.client.post("/api/v1/api_keys", { scopes: [] }), 422, "validation_failed");
    expectError(await admin.client.post("/api/v1/api_keys", { secret: "sk_live_chosenbymechosenbymechosenbyme12" }), 422, "validation_failed");
  });

  it("never grants a scope its creator lacks (403 insufficient_scope, param scopes), on create and update", async () => {
    const fixture = await createFixture(service, { scopes: ["videos:read", "videos:write", "api_keys:*"] });
    for (const input of [{ scopes: ["videos:delete"] }, { scopes: ["videos:*"] }, { scopes: ["*:read"] }, { preset: "full_access" }, { preset: "read_only" }]) {
      const error = expectError(await fixture.client.post("/api/v1/api_keys", input), 403, "insufficient_scope");
      expect(error.param, JSON.stringify(input)).toBe("scopes");
      expect(error.retryable).toBe(false);
    }
    const within = await createKey(fixture, { scopes: ["videos:read"] });
    const escalate = await fixture.client.patch(`/api/v1/api_keys/${within.keyId}`, { scopes: ["videos:read", "videos:delete"] });
    expect(expectError(escalate, 403, "insufficient_scope").param).toBe("scopes");
    expect((await prisma().apiKey.findUniqueOrThrow({ where: { key_id: within.keyId } })).scopes).toEqual(["videos:read"]);
    const widened = await fixture.client.patch(`/api/v1/api_keys/${within.keyId}`, { scopes: ["videos:read", "videos:write"] });
    expect(widened.status, widened.text).toBe(200);
    expect(widened.body.scopes).toEqual(["videos:read", "videos:write"]);
    // Nor can a key widen itself.
    expectError(await fixture.client.patch(`/api/v1/api_keys/${fixture.keyId}`, { scopes: ["*:*"] }), 403, "insufficient_scope");
  });
});

describe("update", () => {
  it("changes name, allow-lists, rate limits, quota and expiry, and they take effect", async () => {
    const admin = await createFixture(service);
    const { keyId, secret } = await createKey(admin, { scopes: ["videos:read"] });
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const patched = await admin.client.patch(`/api/v1/api_keys/${keyId}`, {
      name: "renamed",
      ip_allowlist: ["127.0.0.1", "10.0.0.0/8"],
      origin_allowlist: ["https://app.example.com"],
      rate_limits: { minute: 7 },
      quota_limit: 100,
      quota_unit: "requests",
      expires_at: expiresAt,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      object: "api_key",
      name: "renamed",
      ip_allowlist: ["127.0.0.1", "10.0.0.0/8"],
      origin_allowlist: ["https://app.example.com"],
      rate_limits: { minute: 7 },
      quota_limit: 100,
      quota_unit: "requests",
    });
    expect(new Date(patched.body.expires_at).toISOString()).toBe(expiresAt);
    expectNoSecretFields(patched.body);

    const client = new Client(service.url, secret);
    const used = await client.get("/api/v1/videos");
    expect(used.status, used.text).toBe(200);
    expect(used.headers.get("x-ratelimit-limit")).toBe("7");
    expect(used.headers.get("x-quota-limit")).toBe("100");
    expectError(await client.get("/api/v1/videos", { headers: { origin: "https://evil.example.com" } }), 403, "origin_not_allowed");

    // An allow-list without the caller's address shuts it out; clearing limits and quota works.
    const narrowed = await admin.client.patch(`/api/v1/api_keys/${keyId}`, { ip_allowlist: ["10.0.0.1"], rate_limits: null, quota_limit: null, quota_unit: null, name: null });
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(narrowed.body).toMatchObject({ name: null, rate_limits: null, quota_limit: null, quota_unit: null });
    expect(await probe(secret)).toBe("403 ip_not_allowed");

    // A quota limit needs its unit; bad values are 422 and change nothing.
    expectError(await admin.client.patch(`/api/v1/api_keys/${keyId}`, { quota_limit: 5 }), 422, "validation_failed");
    expectError(await admin.client.patch(`/api/v1/api_keys/${keyId}`, { rate_limits: { minute: 0 } }), 422, "validation_failed");
    expectError(await admin.client.patch(`/api/v1/api_keys/${keyId}`, { rate_limits: { fortnight: 5 } }), 422, "validation_failed");
    expectError(await admin.client.patch(`/api/v1/api_keys/${keyId}`, { mode: "test" }), 422, "validation_failed");
    expect((await admin.client.get(`/api/v1/api_keys/${keyId}`)).body.ip_allowlist).toEqual(["10.0.0.1"]);
  });

  it("pauses (403 key_paused) and resumes a key", async () => {
    const admin = await createFixture(service);
    const { keyId, secret } = await createKey(admin);
    const paused = await admin.client.patch(`/api/v1/api_keys/${keyId}`, { paused: true });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body.paused_at).not.toBeNull();
    expect(await probe(secret)).toBe("403 key_paused");
    // Pausing again keeps the first pause time.
    const again = await admin.client.patch(`/api/v1/api_keys/${keyId}`, { paused: true });
    expect(again.body.paused_at).toBe(paused.body.paused_at);

    const resumed = await admin.client.patch(`/api/v1/api_keys/${keyId}`, { paused: false });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.paused_at).toBeNull();
    expect(await probe(secret)).toBe("ok");
  });

  it("a key whose expires_at has passed answers 401 key_expired", async () => {
    const admin = await createFixture(service);
    const { keyId, secret } = await createKey(admin);
    const expired = await admin.client.patch(`/api/v1/api_keys/${keyId}`, { expires_at: new Date(Date.now() - 60_000).toISOString() });
    expect(expired.status, expired.text).toBe(200);
    expect(await probe(secret)).toBe("401 key_expired");
    // Created already expired, the same.
    const born = await createKey(admin, { expires_at: "2001-01-01T00:00:00Z" });
    expect(await probe(born.secret)).toBe("401 key_expired");
    // Extending it brings it back.
    await admin.client.patch(`/api/v1/api_keys/${keyId}`, { expires_at: null });
    expect(await probe(secret)).toBe("ok");
  });
});

describe("rotate and revoke", () => {
  it("rotates without grace: the old secret is refused at once, the new one works", async () => {
    const admin = await createFixture(service);
    const { keyId, secret: old, record } = await createKey(admin, { name: "rotating" });
    const rotated = await admin.client.post(`/api/v1/api_keys/${keyId}/rotate`, {});
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body).toMatchObject({ object: "api_key_secret", key_id: keyId, api_key: { key_id: keyId, name: "rotating", previous_secret_expires_at: null } });
    const fresh = rotated.body.secret as string;
    expect(fresh).toMatch(LIVE_SECRET);
    expect(fresh).not.toBe(old);
    expect(rotated.body.api_key.key_last4).toBe(fresh.slice(-4));
    expect(rotated.body.api_key.scopes).toEqual(record.scopes);
    expectNoSecretFields(rotated.body.api_key);
    expect(await probe(old)).toBe("401 invalid_credentials");
    expect(await probe(fresh)).toBe("ok");
  });

  it("rotates with a grace period: both secrets work until it ends, then only the new one", async () => {
    const admin = await createFixture(service);
    const { keyId, secret: old } = await createKey(admin);
    const rotated = await admin.client.post(`/api/v1/api_keys/${keyId}/rotate`, { grace_period_seconds: 2 });
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.body.secret as string;
    const graceEnds = new Date(rotated.body.api_key.previous_secret_expires_at).getTime();
    expect(graceEnds).toBeGreaterThan(Date.now());
    expect(await probe(old)).toBe("ok");
    expect(await probe(fresh)).toBe("ok");

    await sleep(Math.max(0, graceEnds - Date.now()) + 200);
    expect(await probe(old)).toBe("401 invalid_credentials");
    expect(await probe(fresh)).toBe("ok");

    expectError(await admin.client.post(`/api/v1/api_keys/${keyId}/rotate`, { grace_period_seconds: -1 }), 422, "validation_failed");
    expectError(await admin.client.post(`/api/v1/api_keys/${keyId}/rotate`, { grace_period_seconds: 8 * 86_400 }), 422, "validation_failed");
  });

  it("revokes: 401 key_revoked for the key and a graced old secret; twice is fine; no update or rotate after", async () => {
    const admin = await createFixture(service);
    const { keyId, secret: old } = await createKey(admin);
    const rotated = await admin.client.post(`/api/v1/api_keys/${keyId}/rotate`, { grace_period_seconds: 600 });
    const fresh = rotated.body.secret as string;
    expect(await probe(old)).toBe("ok");

    const revoked = await admin.client.delete(`/api/v1/api_keys/${keyId}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ object: "api_key", key_id: keyId });
    expect(revoked.body.revoked_at).not.toBeNull();
    expect(await probe(fresh)).toBe("401 key_revoked");
    expect(await probe(old)).toBe("401 key_revoked");

    const twice = await admin.client.delete(`/api/v1/api_keys/${keyId}`);
    expect(twice.status, twice.text).toBe(200);
    expect(twice.body.revoked_at).toBe(revoked.body.revoked_at);

    expect(expectError(await admin.client.patch(`/api/v1/api_keys/${keyId}`, { name: "back" }), 400, "invalid_request").param).toBe("key_id");
    expectError(await admin.client.patch(`/api/v1/api_keys/${keyId}`, { paused: false }), 400, "invalid_request");
    expectError(await admin.client.post(`/api/v1/api_keys/${keyId}/rotate`, {}), 400, "invalid_request");
    expect(await probe(fresh)).toBe("401 key_revoked");
    // Still listed, as revoked.
    const listed = await admin.client.get("/api/v1/api_keys?revoked_at[exists]=true");
    expect((listed.body.data as Row[]).map((key) => key.key_id)).toEqual([keyId]);
  });

  it("a key can revoke itself", async () => {
    const fixture = await createFixture(service);
    const revoked = await fixture.client.delete(`/api/v1/api_keys/${fixture.keyId}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(await probe(fixture.key)).toBe("401 key_revoked");
  });

  it("answers 404 for an unknown key id", async () => {
    const admin = await createFixture(service);
    const path = "/api/v1/api_keys/key_doesnotexist000000000";
    expectError(await admin.client.get(path), 404, "not_found");
    expectError(await admin.client.patch(path, { name: "x" }), 404, "not_found");
    expectError(await admin.client.post(`${path}/rotate`, {}), 404, "not_found");
    expectError(await admin.client.delete(path), 404, "not_found");
  });

  it("a key cannot take over a key with scopes it lacks by rotating it", async () => {
    const fixture = await createFixture(service); // *:*
    const keyManager = await fixture.newKey({ scopes: ["api_keys:*"] });
    const rotated = await keyManager.client.post(`/api/v1/api_keys/${fixture.keyId}/rotate`, {});
    expect(expectError(rotated, 403, "insufficient_scope").param).toBe("key_id");
    expect(rotated.body.error.details.required_scopes).toEqual(["*:*"]);
    // Nor pause or revoke it: managing a key is acting as it.
    expectError(await keyManager.client.patch(`/api/v1/api_keys/${fixture.keyId}`, { paused: true }), 403, "insufficient_scope");
    expectError(await keyManager.client.delete(`/api/v1/api_keys/${fixture.keyId}`), 403, "insufficient_scope");
    expect(await probe(fixture.key)).toBe("ok");
  });

  it("refuses an IP allow-list entry that is neither an address nor a CIDR range", async () => {
    const fixture = await createFixture(service);
    const created = await fixture.client.post("/api/v1/api_keys", { scopes: ["videos:read"], ip_allowlist: ["10.0.0.0/8", "banana"] });
    expect(created.status, created.text).toBe(422);
    expect(created.body.error.details.issues[0]).toMatchObject({ path: "ip_allowlist.1", type: "string.ip" });
  });
});

describe("access", () => {
  it("another workspace's key is 403 workspace_mismatch on every route", async () => {
    const mine = await createFixture(service);
    const theirs = await createFixture(service);
    const path = `/api/v1/api_keys/${theirs.keyId}`;
    for (const response of [
      await mine.client.get(path),
      await mine.client.patch(path, { paused: true }),
      await mine.client.post(`${path}/rotate`, {}),
      await mine.client.delete(path),
    ]) {
      expect(expectError(response, 403, "workspace_mismatch").param).toBe("key_id");
    }
    const list = await mine.client.get("/api/v1/api_keys");
    expect((list.body.data as Row[]).map((key) => key.key_id)).toEqual([mine.keyId]);
    expect(await probe(theirs.key)).toBe("ok");
  });

  it("needs the api_keys scopes: read to list and get, write to create, update and rotate, delete to revoke", async () => {
    const admin = await createFixture(service);
    const target = await createKey(admin);
    const none = await admin.newKey({ scopes: ["videos:*", "usage:read"] });
    const reader = await admin.newKey({ scopes: ["api_keys:read", "*:read"] });
    const writer = await admin.newKey({ scopes: ["api_keys:read", "api_keys:write", "*:read"] });
    const path = `/api/v1/api_keys/${target.keyId}`;

    for (const response of [await none.client.get("/api/v1/api_keys"), await none.client.get(path), await none.client.post("/api/v1/api_keys", {})]) {
      expect(expectError(response, 403, "insufficient_scope").details.required_scopes[0]).toMatch(/^api_keys:/);
    }
    expect((await reader.client.get("/api/v1/api_keys")).status).toBe(200);
    expect((await reader.client.get(path)).status).toBe(200);
    expect(expectError(await reader.client.post("/api/v1/api_keys", {}), 403, "insufficient_scope").details.required_scopes).toEqual(["api_keys:write"]);
    expectError(await reader.client.patch(path, { name: "x" }), 403, "insufficient_scope");
    expectError(await reader.client.post(`${path}/rotate`, {}), 403, "insufficient_scope");

    expect((await writer.client.patch(path, { name: "by writer" })).status).toBe(200);
    expect(expectError(await writer.client.delete(path), 403, "insufficient_scope").details.required_scopes).toEqual(["api_keys:delete"]);
    expect(await probe(target.secret)).toBe("ok");
  });

  it("a test key creates only test keys, and keeps nothing", async () => {
    const fixture = await createFixture(service, { mode: "test" });
    const live = await fixture.client.post("/api/v1/api_keys", { mode: "live" });
    expect(expectError(live, 400, "invalid_request").param).toBe("mode");

    const created = await fixture.client.post("/api/v1/api_keys", { name: "simulated" });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get("x-test-mode")).toBe("true");
    expect(created.body).toMatchObject({ livemode: false, api_key: { mode: "test", name: "simulated" } });
    expect(created.body.secret).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    // Test mode writes nothing: the key does not exist.
    expect(await prisma().apiKey.count({ where: { key_id: created.body.key_id } })).toBe(0);
    expect(await probe(created.body.secret)).toBe("401 invalid_credentials");

    // A live key may create a test key, which is kept.
    const admin = await createFixture(service);
    const testKey = await createKey(admin, { mode: "test" });
    expect(testKey.secret).toMatch(/^sk_test_/);
    expect(await probe(testKey.secret)).toBe("ok");
  });
});

describe("over GraphQL", () => {
  const KEY_FIELDS = "object key_id name mode scopes paused_at revoked_at expires_at rate_limits quota_limit quota_unit previous_secret_expires_at";

  async function gql(client: Client, query: string, variables?: Record<string, unknown>): Promise<Row> {
    const response = await client.graphql(query, variables);
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors, response.text).toBeUndefined();
    return response.body.data as Row;
  }

  async function gqlError(client: Client, query: string, variables?: Record<string, unknown>): Promise<Row> {
    const response = await client.graphql(query, variables);
    expect(response.body.errors?.length, response.text).toBeGreaterThan(0);
    return response.body.errors[0].extensions as Row;
  }

  it("create_api_key, api_keys, api_key, update_api_key, rotate_api_key, revoke_api_key", async () => {
    const admin = await createFixture(service);
    const created = (
      await gql(admin.client, `mutation($input: ApiKeyCreateInput!) { create_api_key(input: $input) { object secret key_id api_key { ${KEY_FIELDS} } } }`, {
        input: { name: "gql", preset: "content_editor", rate_limits: { hour: 50 } },
      })
    ).create_api_key as Row;
    expect(created).toMatchObject({ object: "api_key_secret", api_key: { object: "api_key", name: "gql", mode: "live", scopes: [...PRESETS.content_editor], rate_limits: { hour: 50 } } });
    expect(created.secret).toMatch(LIVE_SECRET);
    const keyId = created.key_id as string;
    expect(await probe(created.secret)).toBe("ok");

    const listed = await gql(admin.client, "{ api_keys(limit: 100) { object data { key_id name } } }");
    expect((listed.api_keys.data as Row[]).map((key) => key.key_id).sort()).toEqual([admin.keyId, keyId].sort());
    const one = await gql(admin.client, `query($id: ID!) { api_key(key_id: $id) { ${KEY_FIELDS} } }`, { id: keyId });
    expect(one.api_key).toMatchObject({ key_id: keyId, name: "gql" });
    // The secret's hash is not part of the schema at all.
    expect((await gqlError(admin.client, `query($id: ID!) { api_key(key_id: $id) { secret_hash } }`, { id: keyId }))).toBeDefined();

    const updated = await gql(admin.client, `mutation($id: ID!, $input: ApiKeyUpdateInput!) { update_api_key(key_id: $id, input: $input) { ${KEY_FIELDS} } }`, { id: keyId, input: { name: "gql2", paused: true } });
    expect(updated.update_api_key).toMatchObject({ name: "gql2" });
    expect(updated.update_api_key.paused_at).not.toBeNull();
    expect(await probe(created.secret)).toBe("403 key_paused");
    await gql(admin.client, `mutation($id: ID!) { update_api_key(key_id: $id, input: { paused: false }) { key_id } }`, { id: keyId });
    expect(await probe(created.secret)).toBe("ok");

    const rotated = (await gql(admin.client, `mutation($id: ID!) { rotate_api_key(key_id: $id) { secret key_id api_key { ${KEY_FIELDS} } } }`, { id: keyId })).rotate_api_key as Row;
    expect(rotated.key_id).toBe(keyId);
    expect(await probe(created.secret)).toBe("401 invalid_credentials");
    expect(await probe(rotated.secret)).toBe("ok");
    const graced = (
      await gql(admin.client, `mutation($id: ID!, $input: ApiKeyRotateInput) { rotate_api_key(key_id: $id, input: $input) { secret api_key { previous_secret_expires_at } } }`, {
        id: keyId,
        input: { grace_period_seconds: 300 },
      })
    ).rotate_api_key as Row;
    expect(graced.api_key.previous_secret_expires_at).not.toBeNull();
    expect(await probe(rotated.secret)).toBe("ok");
    expect(await probe(graced.secret)).toBe("ok");

    const revoked = await gql(admin.client, `mutation($id: ID!) { revoke_api_key(key_id: $id) { key_id revoked_at } }`, { id: keyId });
    expect(revoked.revoke_api_key.revoked_at).not.toBeNull();
    expect(await probe(graced.secret)).toBe("401 key_revoked");
    expect(await probe(rotated.secret)).toBe("401 key_revoked");
  });

  it("refuses over GraphQL what REST refuses", async () => {
    const fixture = await createFixture(service, { scopes: ["videos:read", "api_keys:*"] });
    const other = await createFixture(service);
    const create = `mutation($input: ApiKeyCreateInput!) { create_api_key(input: $input) { key_id } }`;
    expect(await gqlError(fixture.client, create, { input: { scopes: ["videos:write"] } })).toMatchObject({ code: "insufficient_scope", param: "scopes" });
    expect(await gqlError(fixture.client, `query($id: ID!) { api_key(key_id: $id) { key_id } }`, { id: other.keyId })).toMatchObject({ code: "workspace_mismatch" });
    expect(await gqlError(fixture.client, `mutation($id: ID!) { revoke_api_key(key_id: $id) { key_id } }`, { id: other.keyId })).toMatchObject({ code: "workspace_mismatch" });
    expect(await gqlError(fixture.client, `mutation($id: ID!) { update_api_key(key_id: $id, input: { scopes: ["*:*"] }) { key_id } }`, { id: fixture.keyId })).toMatchObject({ code: "insufficient_scope" });
    const noKeys = await fixture.newKey({ scopes: ["videos:read"] });
    expect(await gqlError(noKeys.client, "{ api_keys { data { key_id } } }")).toMatchObject({ code: "insufficient_scope" });
    expect(await gqlError(noKeys.client, create, { input: {} })).toMatchObject({ code: "insufficient_scope" });
    expect(await probe(other.key)).toBe("ok");
  });
});
