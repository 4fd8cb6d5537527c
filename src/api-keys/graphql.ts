// GraphQL fields (and, through Sofa, REST routes) for managing keys: create, change, rotate,
// revoke. Listing and reading keys come from the resource declaration (resource.ts).
import { queryFromInfo } from "@pothos/plugin-prisma";
import { builder } from "../graphql/builder.js";
import { parseJsonLiteral } from "../graphql/json-literal.js";
import type { GraphQLContext } from "../graphql/context.js";
import { definePlatformOperation } from "../registry/operations.js";
import { createKey, revokeKey, rotateKey, updateKey, type NewSecret } from "./service.js";

const loose = builder as any;

const ApiKeySecret = builder.objectRef<NewSecret>("ApiKeySecret").implement({
  description: "A key's secret, shown this once (at creation or rotation), and the key itself.",
  fields: (t) => ({
    object: t.exposeString("object", { description: "Always 'api_key_secret'." }),
    secret: t.exposeString("secret", { description: "The whole key. Store it now: it cannot be read again." }),
    key_id: t.exposeID("key_id"),
    api_key: (t as any).field({ type: "ApiKey", resolve: (parent: NewSecret) => parent.api_key }),
  }),
});

const KeyInput = loose.scalarType("ApiKeyInput", {
  description:
    "A JSON object. Create: name, preset (read_only, content_editor, automation, full_access) or scopes, mode (live|test), " +
    "ip_allowlist, origin_allowlist, expires_at, rate_limits {minute, hour, day, credits_day}, quota_limit, quota_unit (requests|credits). " +
    "Update: the same settings (no preset or mode) plus paused. Rotate: grace_period_seconds (0 to 604800).",
  serialize: (value: unknown) => value,
  parseValue: (value: unknown) => value,
  parseLiteral: parseJsonLiteral,
});

const createOperation = definePlatformOperation({ rootType: "Mutation", fieldName: "create_api_key", method: "POST", path: "/api_keys", scopes: ["api_keys:write"], successStatus: 201, input: "body", tag: "api_keys", description: "Create a key; its secret is returned once. A key never grants scopes its creator lacks." });
const updateOperation = definePlatformOperation({ rootType: "Mutation", fieldName: "update_api_key", method: "PATCH", path: "/api_keys/:key_id", scopes: ["api_keys:write"], successStatus: 200, input: "body", tag: "api_keys", description: "Change a key's name, scopes, allow-lists, limits, quota or expiry, or pause (paused: true) and resume it." });
const rotateOperation = definePlatformOperation({ rootType: "Mutation", fieldName: "rotate_api_key", method: "POST", path: "/api_keys/:key_id/rotate", scopes: ["api_keys:write"], successStatus: 200, input: "body", tag: "api_keys", description: "Replace a key's secret; with grace_period_seconds the old secret keeps working that long." });
const revokeOperation = definePlatformOperation({ rootType: "Mutation", fieldName: "revoke_api_key", method: "DELETE", path: "/api_keys/:key_id", scopes: ["api_keys:delete"], successStatus: 200, input: "none", tag: "api_keys", description: "Revoke a key for good; it answers 401 key_revoked from then on." });

const secretQuery = (context: GraphQLContext, info: unknown) => queryFromInfo({ context, info: info as never, path: ["api_key"] }) as { select?: Record<string, unknown> };

builder.mutationFields((t) => ({
  create_api_key: t.field({
    type: ApiKeySecret,
    description: createOperation.description,
    authScopes: { scopes: createOperation.scopes },
    args: { input: t.arg({ type: KeyInput, required: true }) },
    resolve: (_root, args, context, info) => createKey(context, args.input, secretQuery(context, info)),
  }),
  rotate_api_key: t.field({
    type: ApiKeySecret,
    description: rotateOperation.description,
    authScopes: { scopes: rotateOperation.scopes },
    args: { key_id: t.arg.id({ required: true }), input: t.arg({ type: KeyInput }) },
    resolve: (_root, args, context, info) => rotateKey(context, String(args.key_id), args.input ?? {}, secretQuery(context, info)),
  }),
}));

loose.mutationFields((t: any) => ({
  update_api_key: t.prismaField({
    type: "ApiKey",
    description: updateOperation.description,
    authScopes: { scopes: updateOperation.scopes },
    args: { key_id: t.arg.id({ required: true }), input: t.arg({ type: KeyInput, required: true }) },
    resolve: (query: never, _root: unknown, args: { key_id: string; input: unknown }, context: GraphQLContext) => updateKey(context, String(args.key_id), args.input, query),
  }),
  revoke_api_key: t.prismaField({
    type: "ApiKey",
    description: revokeOperation.description,
    authScopes: { scopes: revokeOperation.scopes },
    args: { key_id: t.arg.id({ required: true }) },
    resolve: (query: never, _root: unknown, args: { key_id: string }, context: GraphQLContext) => revokeKey(context, String(args.key_id), query),
  }),
}));
