// Resolves each capability to the adapter of its configured model (docs/providers.md). The rest
// of the service asks this registry, never an adapter directly, so configuration decides which
// provider answers and a capability without a model fails the same clear way everywhere.
import os from "node:os";
import path from "node:path";
import { ApiError } from "../errors/api-error.js";
import { FFMPEG_PATH } from "../media/binaries.js";
import type { OutboundGuard } from "../outbound/url-guard.js";
import { elevenLabsSpeech } from "./adapters/elevenlabs.js";
import { falCutout, falLipsync, falMusic, falVideo } from "./adapters/fal.js";
import { openAiImage, openAiSpeech, openAiText, openAiTranscription, openAiVision } from "./adapters/openai.js";
import { searxngSearch, tavilySearch } from "./adapters/search.js";
import { usableModels, type CatalogModel } from "./catalog.js";
import { espeakSpeech } from "./local/espeak.js";
import { readabilityPages } from "./local/readability.js";
import { stillLipsync } from "./local/still.js";
import type { AdapterFactory, ProviderRuntime } from "./runtime.js";
import { ENABLING_SETTINGS, MODEL_SETTINGS, type ProviderName, type ProviderSettings } from "../config/providers.js";
import { CAPABILITIES, type Capability, type CapabilityAdapters } from "./types.js";

/** The model a capability runs on this deployment. */
export type { ModelChoice } from "../config/providers.js";
import type { ModelChoice } from "../config/providers.js";

export interface Providers {
  /** The configured model of a capability, or undefined when none is. */
  model(capability: Capability): ModelChoice | undefined;
  /** The adapter of a capability; 400 invalid_request naming the setting when none is configured. */
  get<C extends Capability>(capability: C): CapabilityAdapters[C];
}

/** The refusal of a call that needs a capability this deployment has no model for. */
export function capabilityUnavailable(capability: Capability, setting: string): ApiError {
  return new ApiError("invalid_request", `This deployment has no ${capability} model configured: set ${setting}.`, {
    details: { capability, setting, available: false },
    hint: `An operator sets ${setting} (see docs/providers.md); nothing was spent.`,
  });
}

// ---------------------------------------------------------------------------------------------
// Construction

/** One capability's standing on this deployment, for discovery (`GET /api/v1`). */
export interface CapabilityAvailability {
  capability: Capability;
  available: boolean;
  /** `<provider>/<model id>` when available. */
  model: string | null;
  provider: string | null;
  /** What chooses the model (when available) or what an operator sets to make it available. */
  setting: string;
  source: ModelChoice["source"] | null;
}

/** What one action call may use: the declared surface plus a model picked by the call. */
export interface ProviderView extends Providers {
  /**
   * The adapter of a specific usable model (one `catalog()` lists for the capability), for calls
   * that let the user pick a model; 400 invalid_request (param `model`) for any other ref.
   */
  getModel<C extends Capability>(capability: C, ref: string): CapabilityAdapters[C];
}

/** The registry as built by createProviders: the call view plus discovery and the test-mode switch. */
export interface ProviderRegistry extends ProviderView {
  /** Every capability: available or not, its model ref and setting. */
  availability(): CapabilityAvailability[];
  /**
   * The view an action call uses. A test-mode call (`livemode: false`) gets a view whose `get`
   * throws: test calls must never reach a provider, and the runner already keeps them away, so
   * reaching this is a bug (an internal Error, 500), not a client mistake. `model()` and
   * `availability()` still answer, so a test call can quote what a live one would use.
   */
  forCall(call: { livemode: boolean }): ProviderView;
  /** The models usable on this deployment, with their prices (src/providers/catalog.ts). */
  catalog(): CatalogModel[];
  readonly settings: ProviderSettings;
}

export interface ProviderDeps {
  outbound: OutboundGuard;
  /** Defaults to the project's ffmpeg (src/media/binaries.ts). */
  ffmpegPath?: string;
  /** Scratch space of local tools; defaults to `<os tmp>/cutroom-providers`. */
  workDir?: string;
}

type Factories = { [C in Capability]: Partial<Record<ProviderName, AdapterFactory<CapabilityAdapters[C]>>> };

/** Which adapter serves each capability for each provider; settings.ts refuses any other pairing at start-up. */
const FACTORIES: Factories = {
  text: { openai: openAiText },
  vision: { openai: openAiVision },
  image: { openai: openAiImage },
  speech: { openai: openAiSpeech, elevenlabs: elevenLabsSpeech, local: espeakSpeech },
  transcription: { openai: openAiTranscription },
  video: { fal: falVideo },
  lipsync: { fal: falLipsync, local: stillLipsync },
  music: { fal: falMusic },
  cutout: { fal: falCutout },
  search: { searxng: searxngSearch, tavily: tavilySearch },
  page: { local: readabilityPages },
};

/** Builds the registry; adapters are made on first use and kept. */
export function createProviders(settings: ProviderSettings, deps: ProviderDeps): ProviderRegistry {
  const runtime: ProviderRuntime = {
    settings,
    outbound: deps.outbound,
    ffmpegPath: deps.ffmpegPath ?? FFMPEG_PATH,
    workDir: deps.workDir ?? path.join(os.tmpdir(), "cutroom-providers"),
  };
  /** Adapters by capability and model ref, built on first use. */
  const built = new Map<string, unknown>();

  const model = (capability: Capability): ModelChoice | undefined => settings.models[capability];

  function adapterFor<C extends Capability>(choice: ModelChoice & { capability: C }): CapabilityAdapters[C] {
    const key = `${choice.capability} ${choice.ref}`;
    let adapter = built.get(key) as CapabilityAdapters[C] | undefined;
    if (!adapter) {
      const factory = (FACTORIES[choice.capability] as Partial<Record<string, AdapterFactory<CapabilityAdapters[C]>>>)[choice.provider];
      if (!factory) throw new Error(`No ${choice.capability} adapter for provider '${choice.provider}'.`);
      adapter = factory(choice, runtime);
      built.set(key, adapter);
    }
    return adapter;
  }

  function get<C extends Capability>(capability: C): CapabilityAdapters[C] {
    const choice = model(capability);
    if (!choice) throw capabilityUnavailable(capability, ENABLING_SETTINGS[capability]);
    return adapterFor(choice as ModelChoice & { capability: C });
  }

  function getModel<C extends Capability>(capability: C, ref: string): CapabilityAdapters[C] {
    const configured = model(capability);
    if (configured?.ref === ref) return adapterFor(configured as ModelChoice & { capability: C });
    const usable = usableModels(settings).find((item) => item.capability === capability && item.ref === ref);
    if (!usable) {
      throw new ApiError("invalid_request", `'${ref}' is not a ${capability} model of this deployment.`, {
        param: "model",
        details: { capability, usable: usableModels(settings).filter((item) => item.capability === capability).map((item) => item.ref) },
      });
    }
    return adapterFor({ capability, provider: usable.provider, model: usable.model, ref, setting: MODEL_SETTINGS[capability], source: "request" });
  }

  function availability(): CapabilityAvailability[] {
    return CAPABILITIES.map((capability) => {
      const choice = model(capability);
      return choice
        ? { capability, available: true, model: choice.ref, provider: choice.provider, setting: choice.setting, source: choice.source }
        : { capability, available: false, model: null, provider: null, setting: ENABLING_SETTINGS[capability], source: null };
    });
  }

  const registry: ProviderRegistry = {
    settings,
    model,
    get,
    getModel,
    availability,
    catalog: () => usableModels(settings),
    forCall({ livemode }) {
      if (livemode) return registry;
      const refuse = (capability: Capability): never => {
        throw new Error(`A test-mode call asked for the ${capability} provider; test calls must never reach a provider (the action runner should have stopped it).`);
      };
      return { model, get: refuse, getModel: refuse };
    },
  };
  return registry;
}
