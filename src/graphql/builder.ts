// Builder configuration only: plugins, context, scalars and the scope rule. Types and fields live
// with their domains (src/resources, src/videos, ...).
import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from "@pothos/plugin-scope-auth";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import LoadedColumnsPlugin from "./loaded-column-plugin.js";
import InternedPathsPlugin from "./response-path-plugin.js";
import type PrismaTypes from "../generated/pothos-types.js";
import { datamodel } from "./datamodel.js";
import type { GraphQLContext } from "./context.js";
import { missingScopes } from "../auth/scopes.js";
import { insufficientScope } from "../auth/scope-refusal.js";
import { ApiError } from "../errors/api-error.js";

function requiredScopesOf(failure: AuthFailure): string[] {
  switch (failure.kind) {
    case AuthScopeFailureType.AuthScope:
      return Array.isArray(failure.parameter) ? (failure.parameter as string[]) : [];
    case AuthScopeFailureType.AllAuthScopes:
    case AuthScopeFailureType.AnyAuthScopes:
      return failure.failures.flatMap(requiredScopesOf);
    default:
      return [];
  }
}

/** The 403 of a refused scope check, naming every required and every granted scope. */
export function scopeRefusal(context: GraphQLContext, failure: AuthFailure): ApiError {
  return insufficientScope(context.auth.scopes, requiredScopesOf(failure));
}

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  AuthScopes: {
    /** Every listed scope must be granted (wildcards match at request time). */
    scopes: readonly string[];
  };
}>({
  // First, so its shortcut wraps the others' resolvers (it only marks scope-free columns).
  plugins: [LoadedColumnsPlugin, InternedPathsPlugin, ScopeAuthPlugin, PrismaPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (context) => ({
      scopes: (required: readonly string[]) => missingScopes(context.auth.scopes, required).length === 0,
    }),
    unauthorizedError: (_parent, context, _info, result) => scopeRefusal(context, result.failure),
  },
  prisma: {
    client: (context) => context.prisma,
    dmmf: datamodel,
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === "production" ? null : "warn",
  },
});
