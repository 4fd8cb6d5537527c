// Resolves each capability to the adapter of its configured model (docs/providers.md). The rest
// of the service asks this registry, never an adapter directly, so configuration decides which
// provider answers and a capability without a model fails the same clear way everywhere.
import { ApiError } from "../errors/api-error.js";
import type { Capability, CapabilityAdapters } from "./types.js";

/** The model a capability runs on this deployment. */
export interface ModelChoice {
  capability: Capability;
  provider: string;
  model: string;
  /** `<provider>/<model id>`. */
  ref: string;
  /** The setting that chooses it (`CUTROOM_IMAGE_MODEL`). */
  setting: string;
  /** Named by its setting, or picked because a provider key is set. */
  source: "setting" | "default";
}

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
