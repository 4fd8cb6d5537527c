// Scopes (contract 5.5, 5.6 and the preset table): the grammar and wildcard matching as units,
// then the REST routes of videos and folders and the GraphQL fields behind them, per key.
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client, type Fixture } from "./support/service.js";
import { PRESETS, hasScope, missingScopes, scopeCovers, scopeGrammarError, type PresetName } from "../src/auth/scopes.js";
import { createApiKey } from "../src/auth/key-service.js";

const service = useService();

const prisma = () => service.service.database.prisma;

function expectInsufficientScope(response: ApiResponse, required: string[], granted: readonly string[]) {
  expect(response.status, response.text).toBe(403);
  expect(response.body?.error, response.text).toMatchObject({
    code: "insufficient_scope",
    type: "permission_error",
    status: 403,
    retryable: false,
    details: { required_scopes: required, granted_scopes: [...granted] },
  });
  expect(response.body.error.request_id).toBe(response.headers.get("x-request-id"));
}

describe("scope matching (units)", () => {
  it("videos:* covers every action of videos, including execute, and nothing of another group", () => {
    for (const action of ["read", "write", "delete", "execute"]) expect(scopeCovers("videos:*", `videos:${action}`)).toBe(true);
    for (const scope of ["folders:read", "scripts:write", "renders:execute"]) expect(scopeCovers("videos:*", scope)).toBe(false);
  });

  it("*:read covers the read of every group and no other action", () => {
    for (const group of ["videos", "folders", "scripts", "usage", "api_keys"]) expect(scopeCovers("*:read", `${group}:read`)).toBe(true);
    for (const scope of ["videos:write", "videos:delete", "videos:execute", "folders:write"]) expect(scopeCovers("*:read", scope)).toBe(false);
    expect(scopeCovers("*:*", "renders:execute")).toBe(true);
  });

  it("write never implies execute, whether granted exactly or by a group wildcard", () => {
    expect(scopeCovers("videos:write", "videos:execute")).toBe(false);
    expect(scopeCovers("*:write", "videos:execute")).toBe(false);
    expect(hasScope(["videos:read", "videos:write", "videos:delete"], "videos:execute")).toBe(false);
    expect(hasScope(["*:write", "*:read", "*:delete"], "scripts:execute")).toBe(false);
    expect(missingScopes(["videos:write"], ["videos:write", "videos:execute"])).toEqual(["videos:execute"]);
    expect(missingScopes(["videos:write", "*:execute"], ["videos:write", "videos:execute"])).toEqual([]);
    expect(missingScopes(["videos:execute"], ["videos:write"])).toEqual(["videos:write"]);
  });

  it("an exact scope covers only itself", () => {
    expect(hasScope(["videos:read"], "videos:read")).toBe(true);
    expect(hasScope(["videos:read"], "videos:write")).toBe(false);
    expect(hasScope(["videos:read"], "folders:read")).toBe(false);
    expect(hasScope([], "videos:read")).toBe(false);
  });

  it("the presets are exactly the contract's and grant execute only through a group wildcard", () => {
    expect(PRESETS).toEqual({
      read_only: ["*:read"],
      content_editor: [
        "videos:read", "videos:write", "scripts:read", "scripts:write", "assets:read", "assets:write", "folders:read",
        "folders:write", "templates:read", "characters:read", "voices:read", "backgrounds:read", "usage:read",
      ],
      automation: [
        "videos:*", "scripts:*", "renders:*", "generations:*", "assets:*", "folders:*", "characters:read", "voices:read",
        "backgrounds:read", "music:*", "templates:read", "publishing:*", "usage:read",
      ],
      full_access: [
        "videos:*", "scripts:*", "renders:*", "generations:*", "assets:*", "folders:*", "characters:*", "backgrounds:*",
        "voices:*", "templates:*", "music:*", "agents:*", "flows:*", "publishing:*", "webhooks:*", "workspace:*", "usage:*",
      ],
    });
    expect(hasScope(PRESETS.content_editor, "videos:write")).toBe(true);
    expect(hasScope(PRESETS.content_editor, "videos:execute")).toBe(false);
    expect(hasScope(PRESETS.content_editor, "scripts:execute")).toBe(false);
    expect(hasScope(PRESETS.read_only, "videos:execute")).toBe(false);
    expect(hasScope(PRESETS.automation, "videos:execute")).toBe(true);
    expect(hasScope(PRESETS.automation, "characters:execute")).toBe(false);
    // full_access is everything except managing keys.
    for (const action of ["read", "write", "delete"]) expect(hasScope(PRESETS.full_access, `api_keys:${action}`)).toBe(false);
  });

  it("rejects malformed scopes and actions a group does not offer, and creating a key with one", async () => {
    for (const scope of ["videos:read", "videos:execute", "videos:*", "*:read", "*:*", "usage:read"]) expect(scopeGrammarError(scope)).toBeUndefined();
    for (const scope of ["videos", "videos:", ":read", "video:read", "videos:admin", "folders:execute", "usage:write", "Videos:read", "videos:read "]) {
      expect(scopeGrammarError(scope), scope).toEqual(expect.any(String));
    }
    await expect(createApiKey(prisma(), { workspaceId: "ws_unused", mode: "live", scopes: ["folders:execute"] })).rejects.toThrow(/folders:execute/);
  });
});

interface Seeded {
  videoId: string;
  folderId: string;
}

async function seed(fixture: Fixture): Promise<Seeded> {
  const folder = await fixture.client.post("/api/v1/folders", { folder_name: "Seed folder" });
  const video = await fixture.client.post("/api/v1/videos", { video_name: "Seed video" });
  expect([folder.status, video.status]).toEqual([201, 201]);
  return { folderId: folder.body.folder_id, videoId: video.body.video_id };
}

type Action = "read" | "write" | "delete";

/** Every REST route of videos and folders, with the scope action it needs. */
function routes(seeded: Seeded) {
  const routes: { group: "videos" | "folders"; action: Action; name: string; call: (client: Client) => Promise<ApiResponse>; success: number }[] = [];
  for (const group of ["videos", "folders"] as const) {
    const id = group === "videos" ? seeded.videoId : seeded.folderId;
    const body = group === "videos" ? { video_name: "changed" } : { folder_name: "changed" };
    routes.push(
      { group, action: "read", name: `GET /${group}`, call: (c) => c.get(`/api/v1/${group}`), success: 200 },
      { group, action: "read", name: `GET /${group}/{id}`, call: (c) => c.get(`/api/v1/${group}/${id}`), success: 200 },
      { group, action: "write", name: `POST /${group}`, call: (c) => c.post(`/api/v1/${group}`, body), success: 201 },
      { group, action: "write", name: `PATCH /${group}/{id}`, call: (c) => c.patch(`/api/v1/${group}/${id}`, body), success: 200 },
      { group, action: "write", name: `POST /${group}/{id}`, call: (c) => c.post(`/api/v1/${group}/${id}`, body), success: 200 },
      // Last: it removes the record the other routes use.
      { group, action: "delete", name: `DELETE /${group}/{id}`, call: (c) => c.delete(`/api/v1/${group}/${id}`), success: 200 },
    );
  }
  return routes;
}

/** Calls every route with a key of the given scopes; `allowed` says which group:action pairs must succeed. */
async function checkRoutes(scopes: readonly string[], allowed: (group: string, action: Action) => boolean) {
  const owner = await createFixture(service);
  const seeded = await seed(owner);
  const { client } = await owner.newKey({ scopes: [...scopes] });
  for (const route of routes(seeded)) {
    const response = await route.call(client);
    if (allowed(route.group, route.action)) {
      expect(response.status, `${route.name} should be allowed for ${scopes.join(" ")}: ${response.text}`).toBe(route.success);
      expect(response.body.error).toBeUndefined();
    } else {
      expectInsufficientScope(response, [`${route.group}:${route.action}`], scopes);
    }
  }
  // Refused writes and deletes changed nothing; allowed ones took effect.
  const video = await prisma().video.findUnique({ where: { video_id: seeded.videoId } });
  const folder = await prisma().folder.findUnique({ where: { folder_id: seeded.folderId } });
  expect(video === null).toBe(allowed("videos", "delete"));
  expect(folder === null).toBe(allowed("folders", "delete"));
  if (video) expect(video.video_name).toBe(allowed("videos", "write") ? "changed" : "Seed video");
  if (folder) expect(folder.folder_name).toBe(allowed("folders", "write") ? "changed" : "Seed folder");
  const created = await prisma().video.count({ where: { workspace_id: owner.workspaceId, video_name: "changed", NOT: { video_id: seeded.videoId } } });
  expect(created).toBe(allowed("videos", "write") ? 1 : 0);
}

describe("REST routes per key", () => {
  it("videos:* opens read, write and delete of videos and nothing of folders", async () => {
    await checkRoutes(["videos:*"], (group) => group === "videos");
  });

  it("*:read opens every read and no write or delete", async () => {
    await checkRoutes(["*:read"], (_group, action) => action === "read");
  });

  it("an exact scope opens only its own routes", async () => {
    await checkRoutes(["folders:delete", "videos:write"], (group, action) => `${group}:${action}` === "folders:delete" || `${group}:${action}` === "videos:write");
  });

  const presetAllows: Record<PresetName, (group: string, action: Action) => boolean> = {
    read_only: (_group, action) => action === "read",
    content_editor: (_group, action) => action !== "delete",
    automation: () => true,
    full_access: () => true,
  };
  for (const preset of Object.keys(presetAllows) as PresetName[]) {
    it(`preset ${preset} allows and refuses the right video and folder routes`, async () => {
      await checkRoutes(PRESETS[preset], presetAllows[preset]);
    });
  }
});

describe("GraphQL is guarded by the same scopes", () => {
  function expectGraphQLInsufficientScope(response: ApiResponse, required: string[], granted: string[]) {
    const error = response.body.errors?.[0];
    expect(error?.extensions, response.text).toMatchObject({
      code: "insufficient_scope",
      type: "permission_error",
      status: 403,
      details: { required_scopes: required, granted_scopes: granted },
      request_id: response.headers.get("x-request-id"),
    });
    // Nothing could be returned, so the contract's failure marker is there too.
    expect(response.body.data).toBeNull();
    expect(response.body.error).toMatchObject({ code: "insufficient_scope", details: { required_scopes: required } });
  }

  it("refuses a query without the read scope, and serves it with the scope", async () => {
    const fixture = await createFixture(service, { scopes: ["folders:read"] });
    expectGraphQLInsufficientScope(await fixture.client.graphql("{ videos { data { video_id } } }"), ["videos:read"], ["folders:read"]);

    const allowed = await fixture.client.graphql("{ folders { object data { folder_id } } }");
    // Nothing but the data (and the cost report every operation carries).
    expect(allowed.body.errors).toBeUndefined();
    expect(allowed.body.data).toEqual({ folders: { object: "list", data: [] } });
  });

  it("refuses mutations without write or delete and writes nothing", async () => {
    const owner = await createFixture(service);
    const seeded = await seed(owner);
    const granted = ["videos:read", "folders:read", "folders:write"];
    const { client } = await owner.newKey({ scopes: granted });

    expectGraphQLInsufficientScope(
      await client.graphql('mutation { create_video(input: { video_name: "no scope" }) { video_id } }'),
      ["videos:write"], granted,
    );
    expectGraphQLInsufficientScope(
      await client.graphql('mutation($id: ID!) { update_video(video_id: $id, input: { video_name: "no scope" }) { video_id } }', { id: seeded.videoId }),
      ["videos:write"], granted,
    );
    expectGraphQLInsufficientScope(
      await client.graphql("mutation($id: ID!) { delete_folder(folder_id: $id) { deleted } }", { id: seeded.folderId }),
      ["folders:delete"], granted,
    );
    // The scope is checked before the input: a bad payload still reports the missing scope.
    expectGraphQLInsufficientScope(
      await client.graphql("mutation { create_video(input: { nonsense: 1 }) { video_id } }"),
      ["videos:write"], granted,
    );

    const allowed = await client.graphql('mutation($id: ID!) { update_folder(folder_id: $id, input: { folder_name: "renamed" }) { folder_name } }', { id: seeded.folderId });
    expect(allowed.body.errors).toBeUndefined();
    expect(allowed.body.data).toEqual({ update_folder: { folder_name: "renamed" } });

    const rows = await prisma().video.findMany({ where: { workspace_id: owner.workspaceId }, select: { video_id: true, video_name: true } });
    expect(rows).toEqual([{ video_id: seeded.videoId, video_name: "Seed video" }]);
    expect(await prisma().folder.count({ where: { folder_id: seeded.folderId } })).toBe(1);
  });

  it("answers /graphql without a key with 401, a top-level error and errors[0].extensions.code", async () => {
    const { client } = await createFixture(service);
    const response = await client.graphql("{ videos { object } }", undefined, { key: null });
    expect(response.status).toBe(401);
    expect(response.body.error).toMatchObject({ code: "missing_credentials", type: "authentication_error", request_id: response.headers.get("x-request-id") });
    expect(response.body.errors[0].extensions).toMatchObject({ code: "missing_credentials", type: "authentication_error" });
    expect(response.body.data ?? null).toBeNull();

    const unknown = await client.graphql("{ videos { object } }", undefined, { key: `sk_live_${"Z".repeat(32)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors[0].extensions.code).toBe("invalid_credentials");
  });
});
