// Known models per capability, each with a label and a credit price per unit (docs/providers.md).
// Prices follow what a unit costs upstream, at about 1 credit per US$0.01, rounded up; local tools
// cost nothing upstream and are priced 0. They are the model's price, not an action's: an action
// keeps its own price in src/actions/catalog.ts, and a caller that bills per model rounds the
// total of a call up to whole credits. A model configured by ref but missing here is listed
// without a price rather than with an invented one.
import type { ModelChoice } from "../config/providers.js";
import { PROVIDER_CAPABILITIES, type ProviderName, type ProviderSettings } from "../config/providers.js";
import { CAPABILITIES, type Capability } from "./types.js";

export type PriceUnit = "1k_tokens" | "image" | "second" | "minute" | "1k_characters" | "request";

export interface ModelPrice {
  /** Credits per unit; may be a fraction (a call's total is rounded up). */
  credits: number;
  per: PriceUnit;
}

export interface CatalogEntry {
  capability: Capability;
  /** `<provider>/<model id>`. */
  ref: string;
  label: string;
  price: ModelPrice;
}

export interface CatalogModel {
  capability: Capability;
  ref: string;
  provider: string;
  model: string;
  label: string;
  /** Absent for a configured model the catalog does not know. */
  price?: ModelPrice;
  /** The model this deployment runs for the capability. */
  configured: boolean;
}

const entry = (capability: Capability, ref: string, label: string, credits: number, per: PriceUnit): CatalogEntry => ({ capability, ref, label, price: { credits, per } });

export const MODEL_CATALOG: readonly CatalogEntry[] = [
  entry("text", "openai/gpt-4.1-mini", "GPT-4.1 mini", 0.2, "1k_tokens"),
  entry("text", "openai/gpt-4.1", "GPT-4.1", 1, "1k_tokens"),
  entry("text", "openai/gpt-4o-mini", "GPT-4o mini", 0.1, "1k_tokens"),
  entry("vision", "openai/gpt-4.1-mini", "GPT-4.1 mini (images in)", 0.2, "1k_tokens"),
  entry("vision", "openai/gpt-4o", "GPT-4o (images in)", 1, "1k_tokens"),
  entry("image", "openai/gpt-image-1", "GPT Image 1", 4, "image"),
  entry("image", "openai/dall-e-3", "DALL·E 3", 4, "image"),
  entry("speech", "openai/gpt-4o-mini-tts", "GPT-4o mini TTS", 2, "1k_characters"),
  entry("speech", "openai/tts-1", "OpenAI TTS 1", 2, "1k_characters"),
  entry("speech", "elevenlabs/eleven_multilingual_v2", "ElevenLabs Multilingual v2 (word timings)", 20, "1k_characters"),
  entry("speech", "elevenlabs/eleven_flash_v2_5", "ElevenLabs Flash v2.5 (word timings)", 10, "1k_characters"),
  entry("speech", "local/espeak-ng", "eSpeak NG, offline on this server (robotic)", 0, "1k_characters"),
  entry("transcription", "openai/whisper-1", "Whisper (word timestamps)", 1, "minute"),
  entry("video", "fal/fal-ai/kling-video/v2/master/text-to-video", "Kling 2.0 Master", 28, "second"),
  entry("video", "fal/fal-ai/kling-video/v2.1/master/text-to-video", "Kling 2.1 Master", 28, "second"),
  entry("lipsync", "fal/fal-ai/kling-video/v1/pro/ai-avatar", "Kling AI Avatar Pro (talking photo)", 12, "second"),
  entry("lipsync", "local/still", "Still photo over the voice, not lip-synced", 0, "second"),
  entry("music", "fal/fal-ai/ace-step", "ACE-Step (lyrics or instrumental)", 0.1, "second"),
  entry("cutout", "fal/fal-ai/birefnet/v2", "BiRefNet v2 background removal", 1, "image"),
  entry("search", "searxng/general", "SearXNG (self-hosted)", 0, "request"),
  entry("search", "tavily/basic", "Tavily basic search", 1, "request"),
  entry("search", "tavily/advanced", "Tavily advanced search", 2, "request"),
  entry("page", "local/readability", "Readability, on this server", 0, "request"),
];

function providerOf(ref: string): string {
  return ref.slice(0, ref.indexOf("/"));
}

/** Is a provider usable here: `local` always, the others once their key (or address) is set. */
function providerReady(settings: ProviderSettings, provider: string): boolean {
  if (provider === "local") return true;
  return (Object.keys(PROVIDER_CAPABILITIES) as ProviderName[]).includes(provider as ProviderName) && settings[provider as Exclude<ProviderName, "local">] !== undefined;
}

function fromChoice(choice: ModelChoice, known: CatalogEntry | undefined): CatalogModel {
  return {
    capability: choice.capability,
    ref: choice.ref,
    provider: choice.provider,
    model: choice.model,
    label: known?.label ?? choice.ref,
    ...(known && { price: known.price }),
    configured: true,
  };
}

/**
 * The models usable on this deployment: the configured model of each capability, then the other
 * catalog entries of every provider that is set up (local tools always are). Ordered by
 * capability, the configured model first; `ProviderRegistry.getModel` runs any of them.
 */
export function usableModels(settings: ProviderSettings): CatalogModel[] {
  const models: CatalogModel[] = [];
  for (const capability of CAPABILITIES) {
    const configured = settings.models[capability];
    const entries = MODEL_CATALOG.filter((item) => item.capability === capability);
    if (configured) models.push(fromChoice(configured, entries.find((item) => item.ref === configured.ref)));
    for (const item of entries) {
      if (item.ref === configured?.ref) continue;
      const provider = providerOf(item.ref);
      if (!providerReady(settings, provider)) continue;
      models.push({ capability, ref: item.ref, provider, model: item.ref.slice(provider.length + 1), label: item.label, price: item.price, configured: false });
    }
  }
  return models;
}

/** The catalog entry of a model ref for a capability, if the catalog knows it. */
export function catalogEntry(capability: Capability, ref: string): CatalogEntry | undefined {
  return MODEL_CATALOG.find((item) => item.capability === capability && item.ref === ref);
}
