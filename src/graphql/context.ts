import type { PrismaClient } from "../generated/prisma/client.js";
import type { AuthContext } from "../auth/auth-context.js";
import type { Guards } from "../guards/guards.js";

/** What every resolver receives, on both surfaces (GraphQL directly, REST through Sofa). */
export interface GraphQLContext {
  prisma: PrismaClient;
  auth: AuthContext;
  requestId: string;
  /** Rate windows, quotas and the rest, for fields that report on them (usage). */
  guards: Guards;
}
