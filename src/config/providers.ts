// Provider settings: which provider answers each capability, with which model, and how a call is
// limited. Parsed once at start-up from the environment map config.ts hands over (this file never
// reads process.env); a bad `<provider>/<model>` value or a model whose provider has no key fails
// here, with a message naming the variable, instead of on the first paid call.
import { inspect } from "node:util";

export const CAPABILITIES = [
  "text", "vision", "image", "speech", "transcription", "video", "lipsync", "music", "cutout", "search", "page",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export interface ModelChoice {
  capability: Capability;
  provider: string;
  model: string;
  /** `<provider>/<model id>`. */
  ref: string;
  /** The setting that chooses it (`CUTROOM_IMAGE_MODEL`). */
  setting: string;
  /** Named by its setting, picked because a provider key is set, or picked by the call (`getModel`). */
  source: "setting" | "default" | "request";
}

export const PROVIDER_NAMES = ["openai", "fal", "elevenlabs", "searxng", "tavily", "local"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/**
 * A credential that never prints itself: JSON, string conversion and util.inspect (pino, console)
 * all show `[redacted]`, so logging the configuration cannot leak a key. `reveal()` is for the one
 * place that sends it.
 */
export class SecretValue {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return "[redacted]";
  }
  toString(): string {
    return "[redacted]";
  }
  [inspect.custom](): string {
    return "[redacted]";
  }
}

export interface KeyedEndpoint {
  apiKey: SecretValue;
  /** Without a trailing slash. */
  baseUrl: string;
}

export interface ProviderSettings {
  /** Any OpenAI-compatible server (Chat Completions, images, audio). */
  openai?: KeyedEndpoint;
  /** fal's queue protocol; baseUrl replaces https://queue.fal.run. */
  fal?: KeyedEndpoint;
  elevenlabs?: KeyedEndpoint;
  searxng?: { baseUrl: string };
  tavily?: KeyedEndpoint;
  /** The model of every capability that has one, named by its setting or picked by default. */
  models: Partial<Record<Capability, ModelChoice>>;
  /** Time limit of one synchronous call, retries included. */
  timeoutMs: number;
  /** Overall time limit of a long-running job (submit, polling, download). */
  longTimeoutMs: number;
  /** Retries after the first attempt, on 429, 5xx and unreachable hosts. */
  maxRetries: number;
  /** Pause between two status polls of a long-running job. */
  pollIntervalMs: number;
  /** First pause of the hand adapters' exponential backoff (doubled each retry); the AI SDK's is its own 2 s. */
  retryBaseDelayMs: number;
}

/** The variable that names the model of each capability. */
export const MODEL_SETTINGS: Record<Capability, string> = {
  text: "CUTROOM_TEXT_MODEL",
  vision: "CUTROOM_VISION_MODEL",
  image: "CUTROOM_IMAGE_MODEL",
  speech: "CUTROOM_SPEECH_MODEL",
  transcription: "CUTROOM_TRANSCRIPTION_MODEL",
  video: "CUTROOM_VIDEO_MODEL",
  lipsync: "CUTROOM_LIPSYNC_MODEL",
  music: "CUTROOM_MUSIC_MODEL",
  cutout: "CUTROOM_CUTOUT_MODEL",
  search: "CUTROOM_SEARCH_MODEL",
  page: "CUTROOM_PAGE_MODEL",
};

/**
 * What an operator sets to make a capability available: the model variable, except for search
 * (a SearXNG instance or a Tavily key is what is missing) and page reading (always there).
 */
export const ENABLING_SETTINGS: Record<Capability, string> = {
  ...MODEL_SETTINGS,
  search: "SEARXNG_URL or TAVILY_API_KEY",
};

/** The key (or address) each remote provider needs; `local` needs none. */
export const PROVIDER_KEYS: Record<Exclude<ProviderName, "local">, string> = {
  openai: "OPENAI_API_KEY",
  fal: "FAL_KEY",
  elevenlabs: "ELEVENLABS_API_KEY",
  searxng: "SEARXNG_URL",
  tavily: "TAVILY_API_KEY",
};

/** Which capabilities each provider has an adapter for. */
export const PROVIDER_CAPABILITIES: Record<ProviderName, readonly Capability[]> = {
  openai: ["text", "vision", "image", "speech", "transcription"],
  fal: ["video", "lipsync", "music", "cutout"],
  elevenlabs: ["speech"],
  searxng: ["search"],
  tavily: ["search"],
  local: ["speech", "lipsync", "page"],
};

/** The only model ids some providers have: local tools, Tavily's two search depths. */
const FIXED_MODELS: Partial<Record<ProviderName, Partial<Record<Capability, readonly string[]>>>> = {
  local: { speech: ["espeak-ng"], lipsync: ["still"], page: ["readability"] },
  tavily: { search: ["basic", "advanced"] },
};

/** The model each provider answers with when its key is set and no setting names one (docs/providers.md). */
export const DEFAULT_MODELS: Record<ProviderName, Partial<Record<Capability, string>>> = {
  openai: { text: "gpt-4.1-mini", vision: "gpt-4.1-mini", image: "gpt-image-1", speech: "gpt-4o-mini-tts", transcription: "whisper-1" },
  fal: {
    video: "fal-ai/kling-video/v2/master/text-to-video",
    lipsync: "fal-ai/kling-video/v1/pro/ai-avatar",
    music: "fal-ai/ace-step",
    cutout: "fal-ai/birefnet/v2",
  },
  elevenlabs: { speech: "eleven_multilingual_v2" },
  searxng: { search: "general" },
  tavily: { search: "basic" },
  local: { speech: "espeak-ng", lipsync: "still", page: "readability" },
};

/** Which configured provider supplies a capability's default, first match wins (speech: ElevenLabs > OpenAI > espeak-ng). */
export const DEFAULT_PRECEDENCE: Record<Capability, readonly ProviderName[]> = {
  text: ["openai"],
  vision: ["openai"],
  image: ["openai"],
  speech: ["elevenlabs", "openai", "local"],
  transcription: ["openai"],
  video: ["fal"],
  lipsync: ["fal", "local"],
  music: ["fal"],
  cutout: ["fal"],
  search: ["searxng", "tavily"],
  page: ["local"],
};

const DEFAULT_BASE_URLS = {
  openai: "https://api.openai.com/v1",
  fal: "https://queue.fal.run",
  elevenlabs: "https://api.elevenlabs.io",
  tavily: "https://api.tavily.com",
} as const;

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_LONG_TIMEOUT_MS = 15 * 60_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_POLL_INTERVAL_MS = 2_000;
export const DEFAULT_RETRY_BASE_DELAY_MS = 2_000;

type Env = Record<string, string | undefined>;

/** A value, or undefined when the variable is unset or blank. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function baseUrl(env: Env, name: string, fallback?: string): string | undefined {
  const value = read(env, name) ?? fallback;
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name}='${value}' is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} must be an http(s) URL, got '${url.protocol}'.`);
  return value.replace(/\/+$/, "");
}

function positiveInt(env: Env, name: string, fallback: number, { allowZero = false } = {}): number {
  const value = read(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || (!allowZero && Number(value) === 0)) throw new Error(`${name} must be a ${allowZero ? "non-negative" : "positive"} integer, got '${value}'.`);
  return Number(value);
}

function keyed(env: Env, keyName: string, urlName: string, fallbackUrl: string | undefined): KeyedEndpoint | undefined {
  const key = read(env, keyName);
  const url = baseUrl(env, urlName, fallbackUrl);
  if (!key) return undefined;
  return { apiKey: new SecretValue(key), baseUrl: url! };
}

function isConfigured(settings: Omit<ProviderSettings, "models">, provider: ProviderName): boolean {
  return provider === "local" || settings[provider] !== undefined;
}

function choice(capability: Capability, provider: ProviderName, model: string, setting: string, source: ModelChoice["source"]): ModelChoice {
  return { capability, provider, model, ref: `${provider}/${model}`, setting, source };
}

/** Checks one `<provider>/<model id>` setting; throws a message naming the variable and the fix. */
export function parseModelRef(capability: Capability, setting: string, value: string, settings: Omit<ProviderSettings, "models">): ModelChoice {
  const slash = value.indexOf("/");
  const provider = slash > 0 ? value.slice(0, slash) : "";
  const model = slash > 0 ? value.slice(slash + 1) : "";
  const offering = PROVIDER_NAMES.filter((name) => PROVIDER_CAPABILITIES[name].includes(capability));
  if (!provider || !model || /\s/.test(value)) {
    throw new Error(`${setting}='${value}' is not of the form <provider>/<model id>, e.g. ${offering[0]}/${DEFAULT_MODELS[offering[0]!][capability] ?? "model"}.`);
  }
  if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw new Error(`${setting}='${value}': unknown provider '${provider}'; ${capability} is offered by ${offering.join(", ")}.`);
  }
  const name = provider as ProviderName;
  if (!PROVIDER_CAPABILITIES[name].includes(capability)) {
    throw new Error(`${setting}='${value}': ${name} has no ${capability} adapter here; ${capability} is offered by ${offering.join(", ")}.`);
  }
  const fixed = FIXED_MODELS[name]?.[capability];
  if (fixed && !fixed.includes(model)) {
    throw new Error(`${setting}='${value}': ${name} offers ${capability} only as ${fixed.map((id) => `${name}/${id}`).join(" or ")}.`);
  }
  if (name === "fal" && model.split("/").filter(Boolean).length < 2) {
    throw new Error(`${setting}='${value}': a fal model is an endpoint id <owner>/<app>[/<path>], e.g. fal/${DEFAULT_MODELS.fal[capability] ?? "fal-ai/flux/dev"}.`);
  }
  if (!isConfigured(settings, name)) {
    throw new Error(`${setting}='${value}' needs ${PROVIDER_KEYS[name as Exclude<ProviderName, "local">]} to be set.`);
  }
  return choice(capability, name, model, setting, "setting");
}

/** Parses every provider variable (docs/providers.md); throws on the first bad one. */
export function parseProviderSettings(env: Env): ProviderSettings {
  const base: Omit<ProviderSettings, "models"> = {
    openai: keyed(env, "OPENAI_API_KEY", "OPENAI_BASE_URL", DEFAULT_BASE_URLS.openai),
    fal: keyed(env, "FAL_KEY", "CUTROOM_FAL_BASE_URL", DEFAULT_BASE_URLS.fal),
    elevenlabs: keyed(env, "ELEVENLABS_API_KEY", "CUTROOM_ELEVENLABS_BASE_URL", DEFAULT_BASE_URLS.elevenlabs),
    searxng: read(env, "SEARXNG_URL") ? { baseUrl: baseUrl(env, "SEARXNG_URL")! } : undefined,
    tavily: keyed(env, "TAVILY_API_KEY", "CUTROOM_TAVILY_BASE_URL", DEFAULT_BASE_URLS.tavily),
    timeoutMs: positiveInt(env, "CUTROOM_PROVIDER_TIMEOUT_MS", DEFAULT_TIMEOUT_MS),
    longTimeoutMs: positiveInt(env, "CUTROOM_PROVIDER_LONG_TIMEOUT_MS", DEFAULT_LONG_TIMEOUT_MS),
    maxRetries: positiveInt(env, "CUTROOM_PROVIDER_MAX_RETRIES", DEFAULT_MAX_RETRIES, { allowZero: true }),
    pollIntervalMs: positiveInt(env, "CUTROOM_PROVIDER_POLL_INTERVAL_MS", DEFAULT_POLL_INTERVAL_MS),
    retryBaseDelayMs: positiveInt(env, "CUTROOM_PROVIDER_RETRY_BASE_MS", DEFAULT_RETRY_BASE_DELAY_MS),
  };
  const models: Partial<Record<Capability, ModelChoice>> = {};
  for (const capability of CAPABILITIES) {
    const setting = MODEL_SETTINGS[capability];
    const value = read(env, setting);
    if (value !== undefined) {
      models[capability] = parseModelRef(capability, setting, value, base);
      continue;
    }
    const provider = DEFAULT_PRECEDENCE[capability].find((name) => isConfigured(base, name));
    if (provider) models[capability] = choice(capability, provider, DEFAULT_MODELS[provider][capability]!, setting, "default");
  }
  return { ...base, models };
}
