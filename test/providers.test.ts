// Provider settings, the registry and the catalog (src/providers): which model each capability
// gets from the environment (defaults per key, speech and lip-sync precedence, explicit refs),
// start-up refusal of bad refs, keys that never print, the 400 of an unconfigured capability, the
// test-mode view, discovery and the priced catalog. Calls go to the provider stand-in.
import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../src/config.js";
import { ApiError } from "../src/errors/api-error.js";
import { OutboundGuard } from "../src/outbound/url-guard.js";
import { MODEL_CATALOG } from "../src/providers/catalog.js";
import { createProviders } from "../src/providers/registry.js";
import { parseProviderSettings } from "../src/config/providers.js";
import { CAPABILITIES } from "../src/providers/types.js";
import { instanceFor, startProviderStandIn, STAND_IN_KEYS, type ProviderStandIn } from "./support/provider-standin/index.js";
import { standInProviders } from "./support/provider-standin/inspect.js";

const refs = (env: Record<string, string>) => Object.fromEntries(Object.entries(parseProviderSettings(env).models).map(([capability, choice]) => [capability, choice.ref]));

describe("provider settings", () => {
  it("offers only the local tools without any key", () => {
    expect(refs({})).toEqual({ speech: "local/espeak-ng", lipsync: "local/still", page: "local/readability" });
  });

  it("picks a default model for each capability a provider with a key has", () => {
    expect(refs({ OPENAI_API_KEY: "sk-a" })).toEqual({
      text: "openai/gpt-4.1-mini",
      vision: "openai/gpt-4.1-mini",
      image: "openai/gpt-image-1",
      speech: "openai/gpt-4o-mini-tts",
      transcription: "openai/whisper-1",
      lipsync: "local/still",
      page: "local/readability",
    });
    expect(refs({ FAL_KEY: "k" })).toMatchObject({
      video: "fal/fal-ai/kling-video/v2/master/text-to-video",
      lipsync: "fal/fal-ai/kling-video/v1/pro/ai-avatar",
      music: "fal/fal-ai/ace-step",
      cutout: "fal/fal-ai/birefnet/v2",
      speech: "local/espeak-ng",
    });
    const choice = parseProviderSettings({ FAL_KEY: "k" }).models.video!;
    expect(choice).toMatchObject({ provider: "fal", model: "fal-ai/kling-video/v2/master/text-to-video", setting: "CUTROOM_VIDEO_MODEL", source: "default" });
  });

  it("chooses speech by precedence: setting > ElevenLabs key > OpenAI key > local/espeak-ng", () => {
    expect(refs({}).speech).toBe("local/espeak-ng");
    expect(refs({ OPENAI_API_KEY: "sk-a" }).speech).toBe("openai/gpt-4o-mini-tts");
    expect(refs({ OPENAI_API_KEY: "sk-a", ELEVENLABS_API_KEY: "el" }).speech).toBe("elevenlabs/eleven_multilingual_v2");
    expect(refs({ OPENAI_API_KEY: "sk-a", ELEVENLABS_API_KEY: "el", CUTROOM_SPEECH_MODEL: "openai/tts-1" }).speech).toBe("openai/tts-1");
    expect(refs({ ELEVENLABS_API_KEY: "el", CUTROOM_SPEECH_MODEL: "local/espeak-ng" }).speech).toBe("local/espeak-ng");
    expect(parseProviderSettings({ CUTROOM_SPEECH_MODEL: "local/espeak-ng" }).models.speech?.source).toBe("setting");
  });

  it("makes search available only with SearXNG or Tavily, SearXNG first unless a setting says otherwise", () => {
    expect(refs({}).search).toBeUndefined();
    expect(refs({ SEARXNG_URL: "http://searx.internal:8080/" }).search).toBe("searxng/general");
    expect(refs({ TAVILY_API_KEY: "tvly-a" }).search).toBe("tavily/basic");
    expect(refs({ SEARXNG_URL: "http://searx.internal", TAVILY_API_KEY: "tvly-a" }).search).toBe("searxng/general");
    expect(refs({ SEARXNG_URL: "http://searx.internal", TAVILY_API_KEY: "tvly-a", CUTROOM_SEARCH_MODEL: "tavily/advanced" }).search).toBe("tavily/advanced");
    expect(parseProviderSettings({ SEARXNG_URL: "http://searx.internal:8080/" }).searxng?.baseUrl).toBe("http://searx.internal:8080");
  });

  it("reads the call limits, with their defaults", () => {
    expect(parseProviderSettings({})).toMatchObject({ timeoutMs: 120_000, longTimeoutMs: 900_000, maxRetries: 2, pollIntervalMs: 2000, retryBaseDelayMs: 2000 });
    expect(parseProviderSettings({ CUTROOM_PROVIDER_TIMEOUT_MS: "5000", CUTROOM_PROVIDER_LONG_TIMEOUT_MS: "60000", CUTROOM_PROVIDER_MAX_RETRIES: "0" })).toMatchObject({ timeoutMs: 5000, longTimeoutMs: 60_000, maxRetries: 0 });
    expect(() => loadConfig({ CUTROOM_PROVIDER_TIMEOUT_MS: "soon" })).toThrow(/CUTROOM_PROVIDER_TIMEOUT_MS must be a positive integer/);
    expect(() => loadConfig({ CUTROOM_PROVIDER_MAX_RETRIES: "-1" })).toThrow(/CUTROOM_PROVIDER_MAX_RETRIES/);
  });

  it.each([
    [{ CUTROOM_TEXT_MODEL: "gpt-4.1-mini", OPENAI_API_KEY: "k" }, /CUTROOM_TEXT_MODEL='gpt-4.1-mini' is not of the form <provider>\/<model id>/],
    [{ CUTROOM_TEXT_MODEL: "anthropic/claude-3", OPENAI_API_KEY: "k" }, /CUTROOM_TEXT_MODEL='anthropic\/claude-3': unknown provider 'anthropic'; text is offered by openai/],
    [{ CUTROOM_VIDEO_MODEL: "openai/sora-2", OPENAI_API_KEY: "k" }, /CUTROOM_VIDEO_MODEL='openai\/sora-2': openai has no video adapter here; video is offered by fal/],
    [{ CUTROOM_IMAGE_MODEL: "openai/gpt-image-1" }, /CUTROOM_IMAGE_MODEL='openai\/gpt-image-1' needs OPENAI_API_KEY to be set/],
    [{ CUTROOM_SPEECH_MODEL: "local/piper" }, /local offers speech only as local\/espeak-ng/],
    [{ CUTROOM_SEARCH_MODEL: "tavily/deep", TAVILY_API_KEY: "t" }, /tavily offers search only as tavily\/basic or tavily\/advanced/],
    [{ CUTROOM_MUSIC_MODEL: "fal/ace-step", FAL_KEY: "k" }, /CUTROOM_MUSIC_MODEL='fal\/ace-step': a fal model is an endpoint id/],
    [{ CUTROOM_SEARCH_MODEL: "searxng/general" }, /needs SEARXNG_URL to be set/],
    [{ SEARXNG_URL: "searx.internal" }, /SEARXNG_URL='searx.internal' is not a URL/],
    [{ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "ftp://models.internal" }, /OPENAI_BASE_URL must be an http\(s\) URL/],
  ])("refuses to start with %o", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("never prints a key: JSON, string conversion and inspect show [redacted]", () => {
    const config = loadConfig({ OPENAI_API_KEY: "sk-live-secret-1", FAL_KEY: "fal-secret-2", ELEVENLABS_API_KEY: "el-secret-3", TAVILY_API_KEY: "tvly-secret-4" });
    const printed = [JSON.stringify(config), inspect(config, { depth: 10 }), String(config.providers.openai?.apiKey)].join("\n");
    for (const secret of ["sk-live-secret-1", "fal-secret-2", "el-secret-3", "tvly-secret-4"]) expect(printed).not.toContain(secret);
    expect(printed).toContain("[redacted]");
    expect(config.providers.openai?.apiKey.reveal()).toBe("sk-live-secret-1");
  });
});

describe("provider registry", () => {
  let standIn: ProviderStandIn;
  beforeAll(async () => {
    standIn = await startProviderStandIn();
  });
  afterAll(async () => {
    await standIn.close();
  });
  beforeEach(() => standIn.reset());

  it("refuses an unconfigured capability with 400 invalid_request naming the setting, before any request", () => {
    const providers = createProviders(loadConfig({}).providers, { outbound: new OutboundGuard({ allow: [] }) });
    for (const [capability, setting] of [["video", "CUTROOM_VIDEO_MODEL"], ["text", "CUTROOM_TEXT_MODEL"], ["search", "SEARXNG_URL or TAVILY_API_KEY"]] as const) {
      let thrown: unknown;
      try {
        providers.get(capability);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      const error = thrown as ApiError;
      expect(error.status).toBe(400);
      expect(error.code).toBe("invalid_request");
      expect(error.message).toContain(setting);
      expect(error.details).toMatchObject({ capability, setting, available: false });
    }
  });

  it("describes every capability for discovery", () => {
    const availability = standInProviders(standIn, { FAL_KEY: "" }).availability();
    expect(availability.map((item) => item.capability)).toEqual([...CAPABILITIES]);
    expect(availability.find((item) => item.capability === "text")).toEqual({ capability: "text", available: true, model: "openai/gpt-4.1-mini", provider: "openai", setting: "CUTROOM_TEXT_MODEL", source: "default" });
    expect(availability.find((item) => item.capability === "video")).toEqual({ capability: "video", available: false, model: null, provider: null, setting: "CUTROOM_VIDEO_MODEL", source: null });
    expect(availability.find((item) => item.capability === "lipsync")).toMatchObject({ available: true, model: "local/still" });
  });

  it("gives a test-mode call a view that refuses every provider, and sends nothing", () => {
    const providers = standInProviders(standIn);
    const testView = providers.forCall({ livemode: false });
    for (const capability of CAPABILITIES) {
      expect(() => testView.get(capability)).toThrow(/test-mode call asked for the .* provider/);
      expect(() => testView.getModel(capability, "openai/gpt-4.1")).toThrow(/test-mode/);
    }
    // An internal fault, not a client error: the runner is supposed to stop test calls first.
    let thrown: unknown;
    try {
      testView.get("text");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).not.toBeInstanceOf(ApiError);
    expect(testView.model("text")?.ref).toBe("openai/gpt-4.1-mini");
    expect(standIn.calls()).toHaveLength(0);
    expect(providers.forCall({ livemode: true }).get("text")).toBe(providers.get("text"));
  });

  it("runs another usable model when a call names one, and refuses a model the deployment cannot run", async () => {
    const providers = standInProviders(standIn);
    const result = await providers.getModel("text", "openai/gpt-4.1").generateText({ prompt: "Name a colour" });
    expect(result.meta).toMatchObject({ provider: "openai", model: "gpt-4.1" });
    expect(standIn.calls("openai.chat")[0]?.model).toBe("gpt-4.1");
    expect(() => providers.getModel("text", "openai/not-in-catalog")).toThrow(ApiError);
    expect(() => providers.getModel("video", "fal/fal-ai/unknown/model")).toThrow(/not a video model of this deployment/);
  });
});

describe("model catalog", () => {
  it("lists the configured model first, then the other models of providers with a key, with prices", () => {
    const providers = createProviders(loadConfig({ OPENAI_API_KEY: "sk-a", CUTROOM_TEXT_MODEL: "openai/gpt-4.1" }).providers, { outbound: new OutboundGuard({ allow: [] }) });
    const catalog = providers.catalog();
    const text = catalog.filter((item) => item.capability === "text");
    expect(text[0]).toMatchObject({ ref: "openai/gpt-4.1", configured: true, price: { credits: 1, per: "1k_tokens" } });
    expect(text.slice(1).map((item) => item.ref)).toEqual(["openai/gpt-4.1-mini", "openai/gpt-4o-mini"]);
    expect(catalog.some((item) => item.provider === "fal")).toBe(false);
    expect(catalog.find((item) => item.capability === "speech" && item.configured)?.ref).toBe("openai/gpt-4o-mini-tts");
    expect(catalog.some((item) => item.ref === "local/espeak-ng" && !item.configured)).toBe(true);
  });

  it("lists only local tools without keys, and a configured model it does not know without a price", () => {
    const local = createProviders(loadConfig({}).providers, { outbound: new OutboundGuard({ allow: [] }) }).catalog();
    expect(local.map((item) => item.ref)).toEqual(["local/espeak-ng", "local/still", "local/readability"]);
    const custom = createProviders(loadConfig({ OPENAI_API_KEY: "k", CUTROOM_TEXT_MODEL: "openai/my-finetune" }).providers, { outbound: new OutboundGuard({ allow: [] }) }).catalog();
    const configured = custom.find((item) => item.capability === "text" && item.configured);
    expect(configured).toMatchObject({ ref: "openai/my-finetune", label: "openai/my-finetune" });
    expect(configured?.price).toBeUndefined();
  });

  it("prices every entry in a known unit, and only refs settings accept", () => {
    for (const entry of MODEL_CATALOG) {
      expect(entry.price.credits).toBeGreaterThanOrEqual(0);
      expect(["1k_tokens", "image", "second", "minute", "1k_characters", "request"]).toContain(entry.price.per);
      const provider = entry.ref.split("/")[0]!;
      const env: Record<string, string> = { OPENAI_API_KEY: "k", FAL_KEY: "k", ELEVENLABS_API_KEY: "k", TAVILY_API_KEY: "k", SEARXNG_URL: "http://s" };
      const variable = { text: "CUTROOM_TEXT_MODEL", vision: "CUTROOM_VISION_MODEL", image: "CUTROOM_IMAGE_MODEL", speech: "CUTROOM_SPEECH_MODEL", transcription: "CUTROOM_TRANSCRIPTION_MODEL", video: "CUTROOM_VIDEO_MODEL", lipsync: "CUTROOM_LIPSYNC_MODEL", music: "CUTROOM_MUSIC_MODEL", cutout: "CUTROOM_CUTOUT_MODEL", search: "CUTROOM_SEARCH_MODEL", page: "CUTROOM_PAGE_MODEL" }[entry.capability];
      expect(parseProviderSettings({ ...env, [variable]: entry.ref }).models[entry.capability]).toMatchObject({ provider, ref: entry.ref, source: "setting" });
    }
  });
});

describe("the stand-in's JSON Schema answers", () => {
  // Each zod schema goes through the same conversion the AI SDK sends, and the instance must parse.
  const schemas = {
    nested: z.object({
      title: z.string().min(12).max(40),
      scenes: z.array(z.object({ heading: z.string(), seconds: z.number().int().min(3).max(9), mood: z.enum(["calm", "tense", "bright"]) })).min(3).max(4),
      published: z.boolean(),
      note: z.string().nullable(),
      summary: z.string().optional(),
    }),
    formats: z.object({ at: z.iso.datetime(), day: z.iso.date(), id: z.uuid(), mail: z.email(), link: z.url() }),
    numbers: z.object({ ratio: z.number().gt(0).lt(1), step: z.number().multipleOf(5).min(12).max(30), count: z.number().int().nonnegative() }),
    unions: z.object({ either: z.union([z.string(), z.number()]), constant: z.literal("fixed"), tuple: z.tuple([z.string(), z.number()]) }),
    arrays: z.object({ none: z.array(z.string()).max(0), many: z.array(z.number()).min(5) }),
  };

  it.each(Object.entries(schemas))("produces a valid instance for %s", (_name, schema) => {
    const jsonSchema = z.toJSONSchema(schema, { target: "draft-7" }) as Record<string, unknown>;
    const value = instanceFor(jsonSchema, "A travel video about the bright trams of Lisbon");
    expect(schema.safeParse(value).success).toBe(true);
  });

  it("draws strings from the prompt and prefers an enum value the prompt names", () => {
    const schema = z.object({ headline: z.string(), mood: z.enum(["calm", "tense", "bright"]) });
    const value = instanceFor(z.toJSONSchema(schema), "Bright trams climbing Lisbon hills") as { headline: string; mood: string };
    expect(value.headline).toMatch(/trams|Lisbon|Bright/i);
    expect(value.mood).toBe("bright");
  });
});

describe("stand-in credentials", () => {
  it("hands out distinctive keys, all of them in env()", async () => {
    const standIn = await startProviderStandIn();
    try {
      const env = standIn.env();
      expect(Object.values(env)).toEqual(expect.arrayContaining(Object.values(STAND_IN_KEYS)));
      expect(env.OPENAI_BASE_URL).toBe(`${standIn.url}/openai/v1`);
    } finally {
      await standIn.close();
    }
  });
});
