// What every adapter is built with: the parsed settings, the URL guard, the ffmpeg binary and a
// scratch directory. One object, so adding an adapter never changes the registry's signature.
import type { OutboundGuard } from "../outbound/url-guard.js";
import type { RetryPolicy } from "./call.js";
import type { CallTarget } from "./errors.js";
import type { ModelChoice } from "../config/providers.js";
import type { ProviderSettings } from "../config/providers.js";

export interface ProviderRuntime {
  settings: ProviderSettings;
  /** The one way to fetch an address a user (or a provider's answer) handed us. */
  outbound: OutboundGuard;
  ffmpegPath: string;
  /** Scratch files of local tools and probes; created on first use. */
  workDir: string;
}

/** Builds the adapter of one capability from its model choice. */
export type AdapterFactory<Adapter> = (choice: ModelChoice, runtime: ProviderRuntime) => Adapter;

export function targetOf(choice: ModelChoice): CallTarget {
  return { capability: choice.capability, provider: choice.provider, model: choice.model };
}

export function retryPolicyOf(settings: ProviderSettings): RetryPolicy {
  return { maxRetries: settings.maxRetries, baseDelayMs: settings.retryBaseDelayMs };
}
