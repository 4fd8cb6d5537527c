// Sending scheduled posts out (docs/publishing.md). PostgreSQL is the source of truth; Redis only
// wakes the publisher up:
// - publishing.schedule_post queues a BullMQ job delayed until scheduled_at (publishing.publish);
// - publishing.sweep, every CUTROOM_PUBLISH_SWEEP_MS, takes every overdue post (its job lost with
//   Redis's data, a worker down at the time, a post rescheduled) and every post waiting on a render.
// Both only advance a post by a conditional status move (`UPDATE ... WHERE status = ...`), so of
// any number of jobs and sweeps that reach one post, one claims it and it goes out once:
//   scheduled ──► rendering ──► publishing ──► published      post.published (target_accounts)
//       │              └──────────────┴───────► failed         post.failed
//       └─(has a completed render)──► publishing
// A video with no completed render is rendered first by the render operation (src/renders), billed
// at renders.create's price. A post a dead worker left `publishing` is failed after
// CUTROOM_PUBLISH_STUCK_AFTER_MS, never sent a second time.
import { z } from "zod";
import type { Readable } from "node:stream";
import { defineJob, type JobDefinition, type JobDependencies } from "../jobs/job.js";
import type { Prisma, Render, ScheduledPost, SocialAccount } from "../generated/prisma/client.js";
import { logger } from "../logger.js";
import { newId } from "../ids.js";
import { recordEvent } from "../outbox/record-event.js";
import { presentRecord } from "../resources/selection.js";
import { fileServiceFor } from "../storage/from-config.js";
import { insertOperation } from "../operations/store.js";
import { enqueueOperation } from "../operations/worker.js";
import { renderOperation, parseComposition, renderFormat } from "../renders/index.js";
import { spendCredits, InsufficientCreditsError } from "../credits/ledger.js";
import { openCredentials, sealCredentials, type PlatformCredentials } from "./credentials.js";
import { PLATFORMS } from "./platforms/index.js";
import { PlatformError, type PlatformAdapter } from "./platforms/types.js";
import { scheduledPosts } from "./resource.js";

/** What a render queued for a post costs: renders.create's price (docs/credits.md). */
export const POST_RENDER_CREDITS = 10;
/** How soon a post waiting on its render looks again. */
const RENDER_CHECK_MS = 1000;
/** Posts taken per sweep pass and state; the next pass takes the rest. */
const BATCH = 100;

type Deps = Pick<JobDependencies, "prisma" | "config" | "enqueue">;

export interface TargetAccount {
  account_id: string | null;
  platform: string;
  status: "published" | "failed";
  platform_post_id?: string;
  url?: string;
  error?: { code: string; message: string };
}

class PostFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

const postPayload = z.strictObject({ post_id: z.string().min(1), request_id: z.string().optional() });

export const publishJob: JobDefinition<typeof postPayload> = defineJob({
  name: "publishing.publish",
  payload: postPayload,
  attempts: 1,
  forgetWhenDone: true,
  handler: ({ post_id }, dependencies) => advancePost(dependencies, post_id),
});

/** The delayed job that sends a post out at its time (a second one for the same time is a no-op). */
export function queuePublish(enqueue: Deps["enqueue"], post: Pick<ScheduledPost, "post_id" | "scheduled_at">): Promise<unknown> {
  const delay = Math.max(0, post.scheduled_at.getTime() - Date.now());
  return enqueue(publishJob, { post_id: post.post_id }, { jobId: `${post.post_id}-at-${post.scheduled_at.getTime()}`, delay });
}

export const publishSweepJob: JobDefinition = defineJob({
  name: "publishing.sweep",
  payload: z.strictObject({ request_id: z.string().optional() }),
  every: { milliseconds: (config) => config.publishing.sweepMs, payload: {} },
  attempts: 1,
  async handler(_payload, dependencies) {
    const { prisma, config } = dependencies;
    const now = new Date();
    const waiting = await prisma.scheduledPost.findMany({
      where: { OR: [{ status: "scheduled", scheduled_at: { lte: now } }, { status: "rendering" }] },
      select: { post_id: true },
      orderBy: { scheduled_at: "asc" },
      take: BATCH,
    });
    for (const post of waiting) await advancePost(dependencies, post.post_id);
    const stuck = await prisma.scheduledPost.findMany({
      where: { status: "publishing", updated_at: { lt: new Date(now.getTime() - config.publishing.stuckAfterMs) } },
      take: BATCH,
    });
    for (const post of stuck) {
      await failPost(dependencies, post, "publishing", new PostFailure("worker_lost", "The worker publishing this post stopped before it finished; it is not sent again, check the platform."));
    }
    return { advanced: waiting.length, stuck: stuck.length };
  },
});

/** Moves one post as far as it can go now. Safe to call any number of times, from anywhere. */
export async function advancePost(deps: Deps, postId: string): Promise<Record<string, unknown>> {
  const { prisma } = deps;
  const post = await prisma.scheduledPost.findUnique({ where: { post_id: postId } });
  if (!post) return { post_id: postId, skipped: "unknown" };
  try {
    if (post.status === "scheduled") {
      if (post.scheduled_at.getTime() > Date.now()) return { post_id: postId, skipped: "not due" };
      if (!post.video_id) throw new PostFailure("video_missing", "The post's video was deleted.");
      const render = await prisma.render.findFirst({
        where: { workspace_id: post.workspace_id, video_id: post.video_id, render_status: "completed", output_key: { not: null } },
        orderBy: [{ render_creation_date: "desc" }, { render_id: "desc" }],
      });
      return render ? await publish(deps, post, "scheduled", render) : await renderFirst(deps, post);
    }
    if (post.status === "rendering") {
      const render = post.render_id ? await prisma.render.findUnique({ where: { render_id: post.render_id } }) : null;
      if (!render) throw new PostFailure("render_missing", "The render queued for this post was deleted.");
      if (render.render_status === "failed") throw new PostFailure("render_failed", `The video could not be rendered: ${render.error_message ?? render.error_code ?? "unknown error"}`);
      if (render.render_status === "completed") return await publish(deps, post, "rendering", render);
      await deps.enqueue(publishJob, { post_id: postId }, { delay: RENDER_CHECK_MS });
      return { post_id: postId, waiting: "render" };
    }
    return { post_id: postId, skipped: post.status };
  } catch (error) {
    if (!(error instanceof PostFailure)) throw error;
    await failPost(deps, post, post.status, error);
    return { post_id: postId, status: "failed", error_code: error.code };
  }
}

/** The video has no completed render: queue one (the render operation), billed as renders.create. */
async function renderFirst(deps: Deps, post: ScheduledPost): Promise<Record<string, unknown>> {
  const { prisma } = deps;
  const video = await prisma.video.findUnique({ where: { video_id: post.video_id! }, select: { video_id: true, video_type_id: true, video_format: true, composition: true } });
  if (!video) throw new PostFailure("video_missing", "The post's video was deleted.");
  try {
    parseComposition(video.composition);
  } catch (error) {
    throw new PostFailure("video_not_renderable", `The video has no completed render and cannot be rendered: ${(error as Error).message}`);
  }
  const renderId = newId("render");
  let operation;
  try {
    operation = await prisma.$transaction(async (tx) => {
      const claimed = await tx.scheduledPost.updateMany({ where: { post_id: post.post_id, status: "scheduled" }, data: { status: "rendering", render_id: renderId } });
      if (claimed.count === 0) return undefined;
      await tx.render.create({
        data: { render_id: renderId, workspace_id: post.workspace_id, video_id: video.video_id, video_type_id: video.video_type_id, video_format: renderFormat(video.video_format), render_status: "queued", credits_consumed: POST_RENDER_CREDITS },
      });
      const queued = await insertOperation(tx, renderOperation, { workspaceId: post.workspace_id, subjectId: renderId, input: {}, creditsHeld: POST_RENDER_CREDITS, action: "publishing.schedule_post" });
      await spendCredits(tx, {
        workspaceId: post.workspace_id,
        amount: POST_RENDER_CREDITS,
        actionType: "renders.create",
        referenceId: renderId,
        description: `Render of the video of scheduled post ${post.post_id}`,
        metadata: { operation_id: queued.operation_id, hold: true, post_id: post.post_id },
      });
      return queued;
    });
  } catch (error) {
    if (error instanceof InsufficientCreditsError) throw new PostFailure("insufficient_credits", `The video has no completed render and the workspace cannot pay for one (${POST_RENDER_CREDITS} credits).`);
    throw error;
  }
  if (!operation) return { post_id: post.post_id, skipped: "claimed elsewhere" };
  await enqueueOperation(deps.enqueue, renderOperation, operation);
  await deps.enqueue(publishJob, { post_id: post.post_id }, { delay: RENDER_CHECK_MS });
  return { post_id: post.post_id, status: "rendering", render_id: renderId };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Claims the post (exactly one caller wins), uploads it, records the outcome and its event. */
async function publish(deps: Deps, post: ScheduledPost, from: "scheduled" | "rendering", render: Render): Promise<Record<string, unknown>> {
  const { prisma, config } = deps;
  const claimed = await prisma.scheduledPost.updateMany({
    where: { post_id: post.post_id, status: from, ...(from === "scheduled" && { scheduled_at: { lte: new Date() } }) },
    data: { status: "publishing", render_id: render.render_id },
  });
  if (claimed.count === 0) return { post_id: post.post_id, skipped: "claimed elsewhere" };
  const claimedPost = { ...post, status: "publishing" };
  const account = post.account_id ? await prisma.socialAccount.findUnique({ where: { account_id: post.account_id } }) : null;
  const target: TargetAccount = { account_id: post.account_id, platform: account?.platform ?? post.platform, status: "failed" };
  try {
    if (!account || account.workspace_id !== post.workspace_id) throw new PostFailure("account_missing", "The post's account was disconnected.");
    if (account.status !== "connected") throw new PostFailure("account_not_connected", `The account is ${account.status}; reconnect it.`);
    const adapter = PLATFORMS[account.platform];
    if (!adapter) throw new PostFailure("platform_unsupported", `No publisher for the platform '${account.platform}'.`);
    if (!account.credentials_encrypted) throw new PostFailure("account_not_connected", "The account has no credentials; reconnect it.");
    const credentials = await usableCredentials(deps, account, account.credentials_encrypted, adapter);
    const files = await fileServiceFor(prisma, config);
    const bytes = await readAll(await files.storage.open(render.output_key!));
    const video = await prisma.video.findUnique({ where: { video_id: post.video_id ?? "" }, select: { video_name: true } });
    const result = await adapter.publish({
      credentials,
      baseUrl: config.publishing.platformUrls[account.platform] ?? "",
      video: { bytes, contentType: "video/mp4" },
      title: post.title ?? video?.video_name ?? "",
      caption: post.caption ?? "",
    });
    const published: TargetAccount = { ...target, status: "published", platform_post_id: result.platform_post_id, url: result.url };
    await prisma.$transaction(async (tx) => {
      const [row] = await tx.scheduledPost.updateManyAndReturn({
        where: { post_id: post.post_id, status: "publishing" },
        data: { status: "published", published_at: new Date(), platform_post_url: result.url, error_message: null, target_accounts: [published] as unknown as Prisma.InputJsonValue },
      });
      if (row) await recordEvent(tx, { workspaceId: row.workspace_id, type: "post.published", livemode: true, data: { object: presentRecord(scheduledPosts, row), target_accounts: [published] } });
    });
    logger.info({ post_id: post.post_id, platform: account.platform, url: result.url }, "post published");
    return { post_id: post.post_id, status: "published" };
  } catch (error) {
    const failure =
      error instanceof PostFailure ? error
      : error instanceof PlatformError ? new PostFailure(error.code, error.message)
      : new PostFailure("internal_error", "Publishing failed unexpectedly; it has been logged.");
    if (!(error instanceof PostFailure) && !(error instanceof PlatformError)) logger.error({ err: error, post_id: post.post_id }, "publishing failed unexpectedly");
    await failPost(deps, claimedPost, "publishing", failure, target);
    return { post_id: post.post_id, status: "failed", error_code: failure.code };
  }
}

/** An access token expiring within this is refreshed before the upload begins. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * The account's credentials, with an access token that expires soon traded for a new one first —
 * when the account has a refresh token and the platform an OAuth client (docs/publishing.md,
 * "Tokens"). Only before the upload: retrying an upload that a platform refused part-way could post
 * twice. The new tokens are sealed onto the account only if no other publisher refreshed it
 * meanwhile; if one did, its tokens are used.
 */
async function usableCredentials(deps: Deps, account: SocialAccount, sealed: string, adapter: PlatformAdapter): Promise<PlatformCredentials> {
  const key = deps.config.publishing.accountsKey;
  const credentials = openCredentials(key, account.account_id, sealed);
  const client = deps.config.publishing.oauth?.[account.platform];
  const expiresAt = credentials.expires_at ? Date.parse(credentials.expires_at) : NaN;
  if (!credentials.refresh_token || !client || !(expiresAt - Date.now() < REFRESH_MARGIN_MS)) return credentials;
  const tokens = await adapter.refresh({ credentials: { ...credentials, refresh_token: credentials.refresh_token }, client });
  const refreshed: PlatformCredentials = {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? credentials.refresh_token,
    ...(tokens.expires_in && { expires_at: new Date(Date.now() + tokens.expires_in * 1000).toISOString() }),
  };
  const { count } = await deps.prisma.socialAccount.updateMany({
    where: { account_id: account.account_id, credentials_encrypted: sealed },
    data: { credentials_encrypted: sealCredentials(key, account.account_id, refreshed) },
  });
  if (count === 0) {
    const current = await deps.prisma.socialAccount.findUnique({ where: { account_id: account.account_id }, select: { credentials_encrypted: true } });
    if (current?.credentials_encrypted) return openCredentials(key, account.account_id, current.credentials_encrypted);
  }
  logger.info({ account_id: account.account_id, platform: account.platform, expires_at: refreshed.expires_at }, "account token refreshed");
  return refreshed;
}

async function failPost(deps: Deps, post: ScheduledPost, from: string, failure: PostFailure, target?: TargetAccount): Promise<void> {
  const outcome: TargetAccount = { ...(target ?? { account_id: post.account_id, platform: post.platform, status: "failed" }), status: "failed", error: { code: failure.code, message: failure.message } };
  const message = `${failure.code}: ${failure.message}`.slice(0, 2000);
  await deps.prisma.$transaction(async (tx) => {
    const [row] = await tx.scheduledPost.updateManyAndReturn({
      where: { post_id: post.post_id, status: from },
      data: { status: "failed", error_message: message, target_accounts: [outcome] as unknown as Prisma.InputJsonValue },
    });
    if (row) await recordEvent(tx, { workspaceId: row.workspace_id, type: "post.failed", livemode: true, data: { object: presentRecord(scheduledPosts, row), error_code: failure.code, target_accounts: [outcome] } });
  });
  logger.info({ post_id: post.post_id, error_code: failure.code }, "post failed");
}
