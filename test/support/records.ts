// Sample records of every resource, shared by the suites that walk all of them: a minimal create
// payload (and one change) for each resource with a create route, and a seed that inserts a row of
// each resource without one, the way the actions that write it do.
import type { PrismaClient } from "../../src/generated/prisma/client.js";
import { newId } from "../../src/ids.js";
import { createApiKey } from "../../src/auth/key-service.js";

type Row = Record<string, any>;

/** Minimal create payloads and one change each (null where the resource cannot be updated). */
export const ROUND_TRIPS: Record<string, { create: Row; update: Row | null }> = {
  videos: { create: { video_name: "Teaser" }, update: { video_comment: "cut 2" } },
  folders: { create: { folder_name: "Drafts" }, update: { folder_color: "#ff0000" } },
  assets: {
    create: { provider_file_name: "logo.png", provider_file_url: "https://cdn.example.com/logo.png", file_mime_type: "image/png", file_size_bytes: 5_000_000_000 },
    update: null,
  },
  characters: { create: { character_name: "Ada" }, update: { character_description: "A calm narrator", media: [{ url: "https://cdn.example.com/ada.png" }] } },
  agents: { create: { agent_name: "Painter" }, update: { agent_model: "img-2", is_default: true } },
  flows: { create: { name: "Nightly digest", nodes: [{ id: "start", type: "set", values: {} }], edges: [] }, update: { status: "active" } },
  slideshows: { create: { slideshow_name: "City tour" }, update: { slides: [{ text: "One" }], slideshow_format: "square" } },
  templates: { create: { name: "Promo" }, update: { category: "ads", is_public: true } },
  video_styles: { create: { name: "Neon" }, update: { style_data: { glow: 0.8 } } },
  smart_group_configs: { create: { name: "Quiz of four", type: "quiz" }, update: { base_type: "qcm", layer_mappings: { q: "title" } } },
  custom_video_types: { create: { name: "Recipe" }, update: { type: "tutorial" } },
  // Within the scheduling horizon (a year); its video and account come from PREREQUISITES.
  scheduled_posts: { create: { platform: "video_site", scheduled_at: new Date(Date.now() + 7 * 86_400_000).toISOString(), caption: "Out now" }, update: { title: "Launch" } },
  character_tags: { create: { tag_name: "Hero" }, update: { tag_color: "#00ff00" } },
};

/**
 * What a create needs in the workspace beyond its payload: a scheduled post goes through the
 * scheduling service (src/publishing/scheduling.ts), so it names the workspace's video and
 * connected account, and the workspace pays its credit. Returns the fields to add to the payload.
 */
export const PREREQUISITES: Record<string, (prisma: PrismaClient, workspaceId: string) => Promise<Row>> = {
  scheduled_posts: async (prisma, workspace_id) => {
    const video = await prisma.video.create({ data: { video_id: newId("video"), workspace_id, video_name: "To publish" } });
    const account = await prisma.socialAccount.create({ data: { account_id: newId("social_account"), workspace_id, platform: "video_site", account_name: "Channel" } });
    await prisma.workspace.update({ where: { workspace_id }, data: { credit_balance: { increment: 10 } } });
    return { video_id: video.video_id, account_id: account.account_id };
  },
};

/** A resource's create payload, with what it needs made in the workspace first. */
export async function createPayload(prisma: PrismaClient, name: string, workspaceId: string): Promise<Row> {
  return { ...ROUND_TRIPS[name]!.create, ...(await PREREQUISITES[name]?.(prisma, workspaceId)) };
}

export type Seed = (workspaceId: string) => Promise<string>;

/** Inserts one row of each resource without create, in a workspace, the way actions write them; returns its id. */
export function seeds(prisma: () => PrismaClient): Record<string, Seed> {
  return {
    scripts: async (workspace_id) =>
      (
        await prisma().script.create({
          data: {
            script_id: newId("script"),
            workspace_id,
            title: "Why cats purr",
            paragraph_count: 1,
            word_count: 1,
            script_paragraphs: { create: { paragraph_id: newId("script_paragraph"), position: 0, text: "Hi", word_count: 1 } },
          },
        })
      ).script_id,
    generations: async (workspace_id) =>
      (await prisma().generation.create({ data: { generation_id: newId("generation"), workspace_id, agent_type: "image", prompt: "a fox", status: "completed", credits_consumed: 4 } }))
        .generation_id,
    music: async (workspace_id) =>
      (await prisma().musicGeneration.create({ data: { generation_id: newId("music_generation"), workspace_id, title: "Theme", tracks: [{ url: "https://cdn.example.com/a.mp3" }] } }))
        .generation_id,
    social_accounts: async (workspace_id) =>
      (await prisma().socialAccount.create({ data: { account_id: newId("social_account"), workspace_id, platform: "video_site", account_name: "Channel" } })).account_id,
    renders: async (workspace_id) =>
      (await prisma().render.create({ data: { render_id: newId("render"), workspace_id, render_status: "completed", progress: 100, output_url: "https://cdn.example.com/r.mp4" } }))
        .render_id,
    backgrounds: async (workspace_id) =>
      (await prisma().background.create({ data: { background_ref: newId("background"), workspace_id, name: "Our studio", media_url: "https://cdn.example.com/bg.jpg", tags: ["studio"] } }))
        .background_ref,
    voices: async (workspace_id) =>
      (await prisma().voice.create({ data: { voice_ref: newId("voice"), workspace_id, display_name: "Our clone", provider: "acme", scope: "workspace", kind: "cloned", labels: { language: "fr" } } }))
        .voice_ref,
    agent_executions: async (workspace_id) => {
      const agent = await prisma().agent.create({ data: { agent_id: newId("agent"), workspace_id, agent_name: "Painter" } });
      return (await prisma().agentExecution.create({ data: { execution_id: newId("agent_execution"), workspace_id, agent_id: agent.agent_id, prompt_used: "a fox", result: { ok: true } } }))
        .execution_id;
    },
    flow_executions: async (workspace_id) => {
      const flow = await prisma().flow.create({ data: { flow_id: newId("flow"), workspace_id, name: "Nightly" } });
      return (await prisma().flowExecution.create({ data: { execution_id: newId("flow_execution"), workspace_id, flow_id: flow.flow_id, status: "completed", node_states: {} } }))
        .execution_id;
    },
    credit_transactions: async (workspace_id) =>
      (await prisma().creditTransaction.create({ data: { transaction_id: newId("credit_transaction"), workspace_id, action_type: "images.generate", amount: -4, balance_after: 96 } }))
        .transaction_id,
    playground_generations: async (workspace_id) =>
      (await prisma().playgroundGeneration.create({ data: { playground_generation_id: newId("playground_generation"), workspace_id, prompt: "a fox", media_url: "https://cdn.example.com/f.png" } }))
        .playground_generation_id,
  };
}

/** A row of each platform resource (request log, keys, webhook endpoints and deliveries, events). */
export function platformSeeds(prisma: () => PrismaClient): Record<string, Seed> {
  const endpoint = async (workspace_id: string) =>
    prisma().webhookEndpoint.create({ data: { endpoint_id: newId("webhook_endpoint"), workspace_id, url: "https://hooks.example.com/in", events: ["*"], signing_secret: "whsec_test" } });
  const event = async (workspace_id: string) =>
    prisma().outboxEvent.create({ data: { event_id: newId("event"), workspace_id, type: "video.created", livemode: true, data: { object: { object: "video" } } } });
  return {
    logs: async (workspace_id) =>
      (await prisma().requestLog.create({ data: { logged_request_id: newId("request"), workspace_id, method: "GET", route: "/api/v1/videos", path: "/api/v1/videos", status: 200, duration_ms: 3 } })).logged_request_id,
    api_keys: async (workspace_id) => (await createApiKey(prisma(), { workspaceId: workspace_id, mode: "live", scopes: ["videos:read"] })).keyId,
    webhooks: async (workspace_id) => (await endpoint(workspace_id)).endpoint_id,
    webhook_deliveries: async (workspace_id) => {
      const [{ endpoint_id }, { event_id }] = [await endpoint(workspace_id), await event(workspace_id)];
      return (await prisma().webhookDelivery.create({ data: { delivery_id: newId("webhook_delivery"), workspace_id, endpoint_id, event_id, event_type: "video.created", status: "delivered" } })).delivery_id;
    },
    events: async (workspace_id) => (await event(workspace_id)).event_id,
  };
}
