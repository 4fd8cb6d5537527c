import type { PrismaClient } from "../generated/prisma/client.js";
import type { AuthContext } from "../auth/auth-context.js";

/** What every resolver receives, on both surfaces (GraphQL directly, REST through Sofa). */
export interface GraphQLContext {
  prisma: PrismaClient;
  auth: AuthContext;
  requestId: string;
}
