// Publishing (docs/publishing.md): publishing.schedule_post and publishing.calendar, the publisher
// (a delayed BullMQ job, and the sweep that PostgreSQL's rows drive) against loopback stand-ins of
// the platforms' upload APIs (test/support/platform-standin.ts), accounts connected by the CLI with
// their tokens sealed, and scheduled posts read-only once taken. The API runs without workers; the
// workers run in a service of their own that the tests stop and start again. This file has a
// database and a Redis of its own.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { startService, type RunningService } from "../src/service.js";
import { addCredits, creditBalance } from "../src/credits/ledger.js";
import { newId } from "../src/ids.js";
import { openCredentials, sealCredentials } from "../src/publishing/credentials.js";
import { publishingSettings } from "../src/config/publishing.js";
import { createFixture, isolatedEnvironment, useService, type Client, type Fixture } from "./support/service.js";
import { startReceiver, waitFor } from "./support/receiver.js";
import { startPlatformStandIn, STANDIN_OAUTH_CLIENT, type PlatformStandIn } from "./support/platform-standin.js";

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ACCOUNTS_KEY = randomBytes(32);

const environment = isolatedEnvironment("publishing", {
  runWorkers: false,
  outboundAllow: ["127.0.0.1", "::1"],
  renderPreset: "ultrafast",
  dispatchIntervalMs: 100,
  webhookRetrySeconds: [0.2],
  webhookTimeoutMs: 1000,
});
const overrides = environment.overrides;

let platforms: PlatformStandIn;
beforeAll(async () => {
  platforms = await startPlatformStandIn();
  overrides.publishing = {
    accountsKey: ACCOUNTS_KEY,
    platformUrls: { youtube: platforms.url, tiktok: platforms.url },
    oauth: { youtube: { ...STANDIN_OAUTH_CLIENT, tokenUrl: `${platforms.url}/token` }, tiktok: { ...STANDIN_OAUTH_CLIENT, tokenUrl: `${platforms.url}/v2/oauth/token/` } },
    sweepMs: 300,
    stuckAfterMs: 10 * 60_000,
  };
});
afterAll(async () => platforms?.close());

const api = useService(overrides);
const prisma = () => api.service.database.prisma;

let workers: RunningService | undefined;
async function startWorkers(): Promise<void> {
  workers ??= await startService({ ...loadConfig({}), port: 0, printStartupKey: false, ...overrides, runWorkers: true });
}
async function stopWorkers(): Promise<void> {
  const running = workers;
  workers = undefined;
  await running?.stop();
}
afterAll(stopWorkers);

type Row = Record<string, any>;
const COMPOSITION = { duration: 1, fps: 10, layers: [{ type: "text", text: "Hi" }] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function funded(credits = 100): Promise<Fixture> {
  const fixture = await createFixture(api);
  await prisma().$transaction((tx) => addCredits(tx, { workspaceId: fixture.workspaceId, amount: credits, actionType: "grant", description: "test grant" }));
  return fixture;
}

/** An account as the CLI connects it: tokens sealed with the accounts key. */
async function connect(workspaceId: string, platform: "youtube" | "tiktok", accessToken = "token-ok", more: { refresh_token?: string; expires_at?: string } = {}): Promise<string> {
  const accountId = newId("social_account");
  await prisma().socialAccount.create({
    data: { account_id: accountId, workspace_id: workspaceId, platform, account_name: `${platform} channel`, credentials_encrypted: sealCredentials(ACCOUNTS_KEY, accountId, { access_token: accessToken, ...more }) },
  });
  return accountId;
}

/** The account's tokens as stored now, opened. */
async function tokensOf(accountId: string) {
  const account = await prisma().socialAccount.findUniqueOrThrow({ where: { account_id: accountId } });
  return openCredentials(ACCOUNTS_KEY, accountId, account.credentials_encrypted!);
}

const video = async (client: Client) => (await client.post("/api/v1/videos", { video_name: "Launch teaser", composition: COMPOSITION })).body.video_id as string;
const schedule = (client: Client, body: Record<string, unknown>) => client.post("/api/v1/actions/publishing.schedule_post", body);
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const postEvents = (workspaceId: string) => prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: { startsWith: "post." } }, orderBy: { seq: "asc" } });

async function settled(postId: string): Promise<Row> {
  return waitFor(`post ${postId} to settle`, async () => {
    const row = await prisma().scheduledPost.findUnique({ where: { post_id: postId } });
    return row && ["published", "partially_published", "failed"].includes(row.status) ? (row) : undefined;
  }, 60_000);
}

describe("publishing.schedule_post", () => {
  it("checks the video and account belong to the workspace, bills 1 credit and writes the post", async () => {
    const fixture = await funded();
    const { client, workspaceId } = fixture;
    const other = await funded();
    const videoId = await video(client);
    const accountId = await connect(workspaceId, "youtube");
    const theirAccount = await connect(other.workspaceId, "youtube");
    const theirVideo = await video(other.client);
    const at = inSeconds(3600);

    expect((await schedule(client, { video_id: videoId, account_id: theirAccount, scheduled_at: at })).body.error.code).toBe("workspace_mismatch");
    expect((await schedule(client, { video_id: theirVideo, account_id: accountId, scheduled_at: at })).body.error.code).toBe("workspace_mismatch");
    expect((await schedule(client, { video_id: videoId, account_id: "soc_missing", scheduled_at: at })).status).toBe(404);
    const past = await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: new Date(Date.now() - 3_600_000).toISOString() });
    expect(past.status).toBe(422);
    expect(past.body.error.details.issues[0].path).toBe("scheduled_at");
    await prisma().socialAccount.create({ data: { account_id: "soc_expired_" + workspaceId, workspace_id: workspaceId, platform: "tiktok", status: "expired" } });
    expect((await schedule(client, { video_id: videoId, account_id: "soc_expired_" + workspaceId, scheduled_at: at })).body.error.details.issues[0].path).toBe("account_id");

    const before = await creditBalance(prisma(), workspaceId);
    const made = await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: at, caption: "Out soon #launch" });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ object: "scheduled_post", status: "scheduled", platform: "youtube", video_id: videoId, account_id: accountId, caption: "Out soon #launch", title: "Launch teaser", credits: { cost: 1, charged: 1 } });
    expect(await creditBalance(prisma(), workspaceId)).toBe(before - 1);
    expect(await prisma().scheduledPost.count({ where: { workspace_id: workspaceId } })).toBe(1);

    // A test key: validated and simulated; nothing written or charged.
    const testKey = await fixture.newKey({ mode: "test" });
    const simulated = await schedule(testKey.client, { video_id: videoId, account_id: accountId, scheduled_at: at });
    expect(simulated.status, simulated.text).toBe(200);
    expect(simulated.body).toMatchObject({ livemode: false, status: "scheduled", credits: { charged: 0, balance_after: null } });
    expect(await creditBalance(prisma(), workspaceId)).toBe(before - 1);
    expect(await prisma().scheduledPost.count({ where: { workspace_id: workspaceId } })).toBe(1);
  });

  it("the API never shows an account's credentials, and the sealed value opens only with the key and for its account", async () => {
    const { client, workspaceId } = await funded();
    const accountId = await connect(workspaceId, "tiktok", "secret-token-123");
    const shown = await client.get(`/api/v1/social_accounts/${accountId}`);
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain("credentials");
    expect(shown.text).not.toContain("secret-token-123");
    const stored = (await prisma().socialAccount.findUnique({ where: { account_id: accountId } }))!.credentials_encrypted!;
    expect(stored).not.toContain("secret-token");
    expect(openCredentials(ACCOUNTS_KEY, accountId, stored).access_token).toBe("secret-token-123");
    expect(() => openCredentials(ACCOUNTS_KEY, "soc_other", stored)).toThrow();
    expect(() => openCredentials(randomBytes(32), accountId, stored)).toThrow();
    // Read-only through the API.
    expect((await client.post("/api/v1/social_accounts", { platform: "youtube" })).status).toBe(405);
  });
});

describe("the publisher", () => {
  it("publishes a post scheduled 2 s ahead once, with the workers restarted in between, rendering the video first, and delivers post.published", { timeout: 90_000 }, async () => {
    await startWorkers();
    const { client, workspaceId } = await funded();
    const receiver = await startReceiver();
    expect((await client.post("/api/v1/webhooks", { url: receiver.url, events: ["post.*"] })).status).toBe(201);
    const videoId = await video(client);
    const accountId = await connect(workspaceId, "youtube");
    const uploadsBefore = platforms.uploads.length;

    const made = await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: inSeconds(2), caption: "Launch day" });
    expect(made.status, made.text).toBe(200);
    // The workers go down before the post is due, and come back after: the delayed job and the
    // sweep both reach it; one claim wins.
    await stopWorkers();
    await sleep(2500);
    expect((await prisma().scheduledPost.findUnique({ where: { post_id: made.body._id } }))!.status).toBe("scheduled");
    await startWorkers();

    const post = await settled(made.body._id);
    expect(post.status).toBe("published");
    expect(post.published_at).toBeInstanceOf(Date);
    // No completed render existed: one was made first, billed as renders.create.
    const render = await prisma().render.findUnique({ where: { render_id: post.render_id } });
    expect(render).toMatchObject({ video_id: videoId, render_status: "completed" });

    const mine = platforms.uploads.slice(uploadsBefore);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ platform: "youtube", title: "Launch teaser" });
    expect(mine[0]!.bytes.subarray(4, 8).toString("latin1")).toBe("ftyp"); // an MP4
    expect(post.platform_post_url).toBe(`https://www.youtube.com/watch?v=${mine[0]!.postId}`);
    expect(post.target_accounts).toEqual([{ account_id: accountId, platform: "youtube", status: "published", platform_post_id: mine[0]!.postId, url: post.platform_post_url }]);

    const delivered = await waitFor("post.published delivered", () => receiver.received.find((entry) => JSON.parse(entry.body).type === "post.published"), 20_000);
    const event = JSON.parse(delivered.body);
    expect(event.data.target_accounts).toEqual(post.target_accounts);
    expect(event.data.object).toMatchObject({ _id: post.post_id, status: "published" });

    // Later sweeps and stray jobs change nothing: still one upload and one event.
    await sleep(1000);
    expect(platforms.uploads.slice(uploadsBefore)).toHaveLength(1);
    expect((await postEvents(workspaceId)).map((row) => row.type)).toEqual(["post.published"]);

    // Gone out: read-only.
    const patch = await client.patch(`/api/v1/scheduled_posts/${post.post_id}`, { caption: "changed" });
    expect(patch.status).toBe(409);
    expect(patch.body.error.code).toBe("conflict");
    expect((await client.delete(`/api/v1/scheduled_posts/${post.post_id}`)).status).toBe(409);
  });

  it("a failing platform gives post.failed with the per-account outcome; nothing is uploaded", { timeout: 60_000 }, async () => {
    await startWorkers();
    const { client, workspaceId } = await funded();
    const videoId = await video(client);
    // The video already has a completed render: it is published as is.
    const rendered = await client.post("/api/v1/actions/renders.create", { video_id: videoId });
    await waitFor("the render", async () => (await prisma().render.findUnique({ where: { render_id: rendered.body.render_id } }))?.render_status === "completed", 60_000);
    const accountId = await connect(workspaceId, "tiktok", "revoked-token");
    const uploadsBefore = platforms.uploads.length;

    const made = await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: inSeconds(0) });
    const post = await settled(made.body._id);
    expect(post.status).toBe("failed");
    expect(post.render_id).toBe(rendered.body.render_id);
    expect(post.error_message).toMatch(/^platform_auth_failed/);
    expect(post.target_accounts).toEqual([{ account_id: accountId, platform: "tiktok", status: "failed", error: { code: "platform_auth_failed", message: expect.any(String) } }]);
    expect(platforms.uploads.length).toBe(uploadsBefore);
    const events = await postEvents(workspaceId);
    expect(events.map((row) => row.type)).toEqual(["post.failed"]);
    expect((events[0]!.data as Row).target_accounts[0].status).toBe("failed");
  });

  it("publishes on TikTok through init, upload and status", { timeout: 60_000 }, async () => {
    await startWorkers();
    const { client, workspaceId } = await funded();
    const videoId = await video(client);
    const accountId = await connect(workspaceId, "tiktok");
    const made = await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: inSeconds(0), caption: "TikTok caption" });
    const post = await settled(made.body._id);
    expect(post.status, post.error_message).toBe("published");
    const upload = platforms.uploads.find((entry) => post.platform_post_url.endsWith(entry.postId))!;
    expect(upload).toMatchObject({ platform: "tiktok", title: "TikTok caption" });
  });
});

describe("account tokens", () => {
  const expired = () => new Date(Date.now() - 60_000).toISOString();

  it("reads each platform's OAuth client from the environment, both halves or neither", () => {
    expect(publishingSettings({}).oauth).toEqual({});
    expect(publishingSettings({ CUTROOM_YOUTUBE_CLIENT_ID: "id", CUTROOM_YOUTUBE_CLIENT_SECRET: "secret" }).oauth).toEqual({
      youtube: { clientId: "id", clientSecret: "secret", tokenUrl: "https://oauth2.googleapis.com/token" },
    });
    expect(publishingSettings({ CUTROOM_TIKTOK_CLIENT_ID: "key", CUTROOM_TIKTOK_CLIENT_SECRET: "secret", CUTROOM_TIKTOK_TOKEN_URL: "http://127.0.0.1:9/token" }).oauth).toEqual({
      tiktok: { clientId: "key", clientSecret: "secret", tokenUrl: "http://127.0.0.1:9/token" },
    });
    expect(() => publishingSettings({ CUTROOM_TIKTOK_CLIENT_ID: "key" })).toThrow(/CUTROOM_TIKTOK_CLIENT_ID and CUTROOM_TIKTOK_CLIENT_SECRET go together/);
  });

  it("an expired YouTube token is refreshed before the upload, and the new one is sealed on the account", { timeout: 60_000 }, async () => {
    await startWorkers();
    const { client, workspaceId } = await funded();
    const videoId = await video(client);
    const accountId = await connect(workspaceId, "youtube", "stale-revoked", { refresh_token: "refresh-yt", expires_at: expired() });
    const made = await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: inSeconds(0) });
    const post = await settled(made.body._id);
    expect(post.status, post.error_message).toBe("published");
    const refresh = platforms.refreshes.filter((entry) => entry.form.refresh_token === "refresh-yt");
    expect(refresh).toEqual([{ platform: "youtube", form: { client_id: "standin-client", client_secret: "standin-secret", refresh_token: "refresh-yt", grant_type: "refresh_token" } }]);
    const upload = platforms.uploads.find((entry) => post.platform_post_url.endsWith(entry.postId))!;
    const tokens = await tokensOf(accountId);
    expect(upload.token).toBe(tokens.access_token);
    expect(tokens.access_token).toMatch(/^token-ok-refreshed-/);
    // Google keeps the refresh token; the new access token lives an hour.
    expect(tokens.refresh_token).toBe("refresh-yt");
    expect(Date.parse(tokens.expires_at!) - Date.now()).toBeGreaterThan(3000_000);
  });

  it("TikTok rotates the refresh token: the new one replaces the old; a token still valid is not refreshed", { timeout: 60_000 }, async () => {
    await startWorkers();
    const { client, workspaceId } = await funded();
    const videoId = await video(client);
    const accountId = await connect(workspaceId, "tiktok", "stale-revoked", { refresh_token: "refresh-tt", expires_at: expired() });
    const made = await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: inSeconds(0) });
    expect((await settled(made.body._id)).status).toBe("published");
    expect(await tokensOf(accountId)).toMatchObject({ access_token: expect.stringMatching(/^token-ok-refreshed-/), refresh_token: "refresh-tt-rotated" });

    const refreshes = platforms.refreshes.length;
    const again = await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: inSeconds(0) });
    expect((await settled(again.body._id)).status).toBe("published");
    expect(platforms.refreshes.length).toBe(refreshes);
  });

  it("a refresh token the platform refuses fails the post with platform_auth_failed; nothing is uploaded", { timeout: 60_000 }, async () => {
    await startWorkers();
    const { client, workspaceId } = await funded();
    const videoId = await video(client);
    const accountId = await connect(workspaceId, "youtube", "token-ok", { refresh_token: "refresh-revoked", expires_at: expired() });
    const uploads = platforms.uploads.length;
    const made = await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: inSeconds(0) });
    const post = await settled(made.body._id);
    expect(post.status).toBe("failed");
    expect(post.error_message).toMatch(/^platform_auth_failed: youtube would not refresh the account's token \(invalid_grant/);
    expect(platforms.uploads.length).toBe(uploads);
    expect(await tokensOf(accountId)).toMatchObject({ access_token: "token-ok", refresh_token: "refresh-revoked" });
  });
});

describe("scheduled posts and the calendar", () => {
  it("a scheduled post can be changed or deleted until it goes out", async () => {
    const { client, workspaceId } = await funded();
    const accountId = await connect(workspaceId, "youtube");
    const videoId = await video(client);
    const made = (await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: inSeconds(86_400) })).body;
    const changed = await client.patch(`/api/v1/scheduled_posts/${made._id}`, { caption: "New caption" });
    expect(changed.status).toBe(200);
    expect(changed.body.caption).toBe("New caption");
    for (const status of ["rendering", "publishing", "failed"]) {
      await prisma().scheduledPost.update({ where: { post_id: made._id }, data: { status } });
      expect((await client.patch(`/api/v1/scheduled_posts/${made._id}`, { caption: "again" })).status, status).toBe(409);
    }
    await prisma().scheduledPost.update({ where: { post_id: made._id }, data: { status: "scheduled" } });
    expect((await client.delete(`/api/v1/scheduled_posts/${made._id}`)).status).toBe(200);
  });

  it("publishing.calendar groups posts by day between from and to", async () => {
    const { client, workspaceId } = await funded();
    const accountId = await connect(workspaceId, "youtube");
    const videoId = await video(client);
    const base = new Date(Date.now() + 10 * 86_400_000);
    const day = (offset: number, hour: number) => new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate() + offset, hour)).toISOString();
    for (const at of [day(0, 9), day(0, 18), day(2, 12), day(40, 12)]) {
      expect((await schedule(client, { video_id: videoId, account_id: accountId, scheduled_at: at })).status).toBe(200);
    }
    const from = day(0, 0).slice(0, 10);
    const to = day(3, 0).slice(0, 10);
    const calendar = await client.get(`/api/v1/actions/publishing.calendar?from=${from}&to=${to}`);
    expect(calendar.status, calendar.text).toBe(200);
    expect(calendar.body).toMatchObject({ object: "publishing_calendar", total: 3, truncated: false });
    expect(calendar.body.days.map((entry: Row) => [entry.date, entry.count])).toEqual([[from, 2], [day(2, 0).slice(0, 10), 1]]);
    expect(calendar.body.days[0].posts.map((post: Row) => post.scheduled_at)).toEqual([day(0, 9), day(0, 18)]);

    const backwards = await client.get(`/api/v1/actions/publishing.calendar?from=${to}&to=${from}`);
    expect(backwards.status).toBe(422);
    // Another workspace sees none of them.
    const other = await createFixture(api);
    expect((await other.client.get(`/api/v1/actions/publishing.calendar?from=${from}&to=${to}`)).body.total).toBe(0);
  });
});

/** The state of the delayed publish job queued for a post at a time (src/publishing/publisher.ts), if any. */
async function publishJobState(postId: string, at: string): Promise<string | undefined> {
  const job = await api.service.jobs.queue("publishing.publish").getJob(`${postId}-at-${new Date(at).getTime()}`);
  return job ? await job.getState() : undefined;
}

describe("one scheduling service: REST, GraphQL and bulk creates", () => {
  const CREATE = "mutation ($input: ScheduledPostCreateInput!) { create_scheduled_post(input: $input) { _id status platform title scheduled_at } }";
  const RESCHEDULE = "mutation ($id: ID!, $input: ScheduledPostUpdateInput!) { update_scheduled_post(_id: $id, input: $input) { _id scheduled_at } }";

  it("REST and GraphQL creates check ownership, the account and the time with the action's envelopes, and bill 1 credit; test keys write nothing", async () => {
    const fixture = await funded();
    const { client, workspaceId } = fixture;
    const other = await funded();
    const videoId = await video(client);
    const accountId = await connect(workspaceId, "youtube");
    const theirAccount = await connect(other.workspaceId, "youtube");
    const theirVideo = await video(other.client);
    const at = inSeconds(3600);
    const rest = (body: Row) => client.post("/api/v1/scheduled_posts", { platform: "youtube", ...body });

    for (const [body, status, code] of [
      [{ video_id: videoId, account_id: theirAccount, scheduled_at: at }, 403, "workspace_mismatch"],
      [{ video_id: theirVideo, account_id: accountId, scheduled_at: at }, 403, "workspace_mismatch"],
      [{ video_id: videoId, account_id: "soc_missing", scheduled_at: at }, 404, "not_found"],
      [{ video_id: videoId, account_id: accountId, scheduled_at: new Date(Date.now() - 3_600_000).toISOString() }, 422, "validation_failed"],
      [{ video_id: videoId, account_id: accountId, scheduled_at: at, platform: "tiktok" }, 422, "validation_failed"],
      [{ account_id: accountId, scheduled_at: at }, 422, "validation_failed"],
    ] as const) {
      const refused = await rest(body);
      expect(refused.status, refused.text).toBe(status);
      expect(refused.body.error.code).toBe(code);
      const viaGraphql = await client.graphql(CREATE, { input: { platform: "youtube", ...body } });
      expect(viaGraphql.body.errors?.[0]?.extensions?.code, viaGraphql.text).toBe(code);
    }
    expect(await prisma().scheduledPost.count({ where: { workspace_id: workspaceId } })).toBe(0);

    const before = await creditBalance(prisma(), workspaceId);
    const made = await rest({ video_id: videoId, account_id: accountId, scheduled_at: at });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ object: "scheduled_post", status: "scheduled", platform: "youtube", title: "Launch teaser" });
    const viaGraphql = await client.graphql(CREATE, { input: { video_id: videoId, account_id: accountId, scheduled_at: at, platform: "youtube" } });
    expect(viaGraphql.body.errors, viaGraphql.text).toBeUndefined();
    expect(viaGraphql.body.data.create_scheduled_post).toMatchObject({ status: "scheduled", platform: "youtube", title: "Launch teaser" });
    expect(await creditBalance(prisma(), workspaceId)).toBe(before - 2);
    const spends = await prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId, action_type: "publishing.schedule_post" } });
    expect(spends.map((row) => row.reference_id).sort()).toEqual([made.body._id, viaGraphql.body.data.create_scheduled_post._id].sort());

    // The delayed publish job waits for scheduled_at.
    expect(await publishJobState(made.body._id, at)).toBe("delayed");

    // Rescheduling into the past is refused like a create; within the year it is accepted, not
    // charged again, and queues the job for the new time.
    expect((await client.patch(`/api/v1/scheduled_posts/${made.body._id}`, { scheduled_at: new Date(Date.now() - 3_600_000).toISOString() })).status).toBe(422);
    const later = inSeconds(7200);
    const moved = await client.graphql(RESCHEDULE, { id: made.body._id, input: { scheduled_at: later } });
    expect(moved.body.errors, moved.text).toBeUndefined();
    expect(await publishJobState(made.body._id, moved.body.data.update_scheduled_post.scheduled_at)).toBe("delayed");
    expect(await creditBalance(prisma(), workspaceId)).toBe(before - 2);

    // A workspace that cannot pay is refused.
    const broke = await createFixture(api);
    const brokeAccount = await connect(broke.workspaceId, "youtube");
    const poor = await broke.client.post("/api/v1/scheduled_posts", { platform: "youtube", video_id: await video(broke.client), account_id: brokeAccount, scheduled_at: at });
    expect(poor.status, poor.text).toBe(402);

    // A test key: checked against the database, nothing written or charged.
    const testKey = await fixture.newKey({ mode: "test" });
    const simulated = await testKey.client.post("/api/v1/scheduled_posts", { platform: "youtube", video_id: videoId, account_id: accountId, scheduled_at: at });
    expect(simulated.status, simulated.text).toBe(201);
    expect((await testKey.client.post("/api/v1/scheduled_posts", { platform: "youtube", video_id: videoId, account_id: theirAccount, scheduled_at: at })).status).toBe(403);
    expect(await creditBalance(prisma(), workspaceId)).toBe(before - 2);
    expect(await prisma().scheduledPost.count({ where: { workspace_id: workspaceId } })).toBe(2);
    expect(await publishJobState(simulated.body._id, at)).toBeUndefined();
  });

  it("posts created by REST, GraphQL and bulk go out once each at their time; bulk items are checked one by one", { timeout: 90_000 }, async () => {
    await startWorkers();
    const { client, workspaceId } = await funded();
    const other = await funded();
    const videoId = await video(client);
    const accountId = await connect(workspaceId, "youtube");
    const theirAccount = await connect(other.workspaceId, "youtube");
    const uploadsBefore = platforms.uploads.length;
    const before = await creditBalance(prisma(), workspaceId);
    const post = (at: string) => ({ platform: "youtube", video_id: videoId, account_id: accountId, scheduled_at: at, caption: "once" });

    const viaRest = await client.post("/api/v1/scheduled_posts", post(inSeconds(1)));
    expect(viaRest.status, viaRest.text).toBe(201);
    const viaGraphql = await client.graphql(CREATE, { input: post(inSeconds(1)) });
    expect(viaGraphql.body.errors, viaGraphql.text).toBeUndefined();
    const viaBulk = await client.post("/api/v1/scheduled_posts/bulk", { create: [post(inSeconds(1)), { ...post(inSeconds(1)), account_id: theirAccount }] });
    expect(viaBulk.status, viaBulk.text).toBe(207);
    expect(viaBulk.body.data.map((item: Row) => item.status)).toEqual([201, 403]);
    const ids = [viaRest.body._id, viaGraphql.body.data.create_scheduled_post._id, viaBulk.body.data[0].id] as string[];
    expect(await creditBalance(prisma(), workspaceId)).toBe(before - 3);

    for (const id of ids) expect((await settled(id)).status).toBe("published");
    await sleep(1000);
    const mine = platforms.uploads.slice(uploadsBefore);
    expect(mine).toHaveLength(3);
    expect(new Set(mine.map((upload) => upload.postId)).size).toBe(3);
    expect((await postEvents(workspaceId)).map((row) => row.type)).toEqual(["post.published", "post.published", "post.published"]);
  });
});

describe("npm run account -- connect", () => {
  it("connects an account with its tokens sealed", { timeout: 60_000 }, async () => {
    const { workspaceId } = await createFixture(api);
    const env = { ...process.env, DATABASE_URL: overrides.databaseUrl!, CUTROOM_DATA_DIR: environment.dataDir, CUTROOM_ACCOUNTS_KEY: ACCOUNTS_KEY.toString("base64") };
    const tsx = path.join(repoRoot, "node_modules", ".bin", "tsx");
    const { stdout } = await run(tsx, ["src/cli/account.ts", "connect", "youtube", "--name", "Main channel", "--access-token", "ya29.cli-token", "--refresh-token", "1//refresh", "--workspace", workspaceId], { cwd: repoRoot, env });
    const accountId = stdout.trim();
    const row = (await prisma().socialAccount.findUnique({ where: { account_id: accountId } }))!;
    expect(row).toMatchObject({ workspace_id: workspaceId, platform: "youtube", status: "connected", account_name: "Main channel" });
    expect(row.credentials_encrypted).not.toContain("ya29");
    expect(openCredentials(ACCOUNTS_KEY, accountId, row.credentials_encrypted!)).toEqual({ access_token: "ya29.cli-token", refresh_token: "1//refresh" });
  });
});
