import type { PrismaClient } from "../generated/prisma/client.js";
import type { AuthContext } from "../context/auth-context.js";
import type { Guards } from "../guards/guards.js";
import type { OutboundGuard } from "../outbound/url-guard.js";
import type { JobQueues } from "../jobs/queues.js";
import type { LiveEvents } from "../outbox/live.js";
import type { FileService } from "../storage/from-config.js";
import type { ProviderRegistry } from "../providers/registry.js";
import type { Keyring } from "../config/keyring.js";

/** Long-lived services some resolvers need. */
export interface ServiceHandles {
  outbound: OutboundGuard;
  jobs: JobQueues;
  live: LiveEvents;
  /** Webhook delivery settings, for the test send, and the keyring that seals signing secrets (src/webhooks/delivery.ts). */
  webhookSettings: { retrySeconds: readonly number[]; timeoutMs: number; keyring: Keyring };
  /** Stored files (render outputs) and their signed links. */
  files: FileService;
  /** Models and local tools, by capability (src/providers). */
  providers: ProviderRegistry;
  /** Check every action answer against its declared output (tests, development). */
  checkOutputs: boolean;
}

/** What every resolver receives, on both surfaces (GraphQL directly, REST through Sofa). */
export interface GraphQLContext {
  prisma: PrismaClient;
  auth: AuthContext;
  requestId: string;
  /** Rate windows, quotas and the rest, for fields that report on them (usage). */
  guards: Guards;
  services: ServiceHandles;
}
