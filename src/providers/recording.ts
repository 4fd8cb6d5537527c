// A view of the providers that notes what every call used: each answer's `meta` (provider, model,
// tokens, images, seconds) is collected, so the caller can book it on the ledger entry it pays with.
import type { CallMeta, Capability, CapabilityAdapters } from "./types.js";

export interface ProviderAccess {
  get<C extends Capability>(capability: C): CapabilityAdapters[C];
  getModel<C extends Capability>(capability: C, ref: string): CapabilityAdapters[C];
}

function recording<Adapter>(adapter: Adapter, usage: CallMeta[]): Adapter {
  return new Proxy(adapter as object, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const answer = (await (value as (...params: unknown[]) => Promise<unknown>).apply(target, args)) as { meta?: CallMeta } | undefined;
        if (answer?.meta) usage.push(answer.meta);
        return answer;
      };
    },
  }) as Adapter;
}

/** `view`, with every call's usage pushed onto `usage`. */
export function recordingUsage(view: ProviderAccess, usage: CallMeta[]): ProviderAccess {
  return {
    get: (capability) => recording(view.get(capability), usage),
    getModel: (capability, ref) => recording(view.getModel(capability, ref), usage),
  };
}
