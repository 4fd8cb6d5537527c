// GraphQL fields (and, through Sofa, REST routes) for managing keys: create, change, rotate,
// revoke. Listing and reading keys come from the resource declaration (resource.ts).
import { queryFromInfo } from "@pothos/plugin-prisma";
import { builder } from "../graphql/builder.js";
import { inputCheckExtension } from "../graphql/input-check.js";
import { inputObjectTypeOf, requiresInput } from "../graphql/zod-input.js";
import type { GraphQLContext } from "../graphql/context.js";
import { definePlatformOperation } from "../registry/operations.js";
import { checkKeyInput, createKey, keyInputSchemas, revokeKey, rotateKey, updateKey, type NewSecret } from "./service.js";

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

const presets = "read_only, content_editor, automation, full_access";
const CreateInput: any = inputObjectTypeOf(keyInputSchemas.create, "ApiKeyCreateInput", {
  description: `A new key: name, preset (${presets}) or scopes, mode (live|test), ip_allowlist, origin_allowlist, expires_at, rate_limits {minute, hour, day, credits_day}, quota_limit, quota_unit (requests|credits).`,
});
const UpdateInput: any = inputObjectTypeOf(keyInputSchemas.update, "ApiKeyUpdateInput", {
  description: "A key's settings to change (no preset or mode), plus paused; fields left out are kept.",
});
const RotateInput: any = inputObjectTypeOf(keyInputSchemas.rotate, "ApiKeyRotateInput", {
  description: "grace_period_seconds (0 to 604800): how long the old secret keeps working.",
});

/** An input GraphQL refuses is answered as the service would: scope, then 404 for another key, then the 422. */
const keyCheck = (which: keyof typeof keyInputSchemas, scopes: readonly string[]) =>
  inputCheckExtension({ scopes, validate: (context, raw, args) => checkKeyInput(context, which, args.key_id, raw) });

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
    args: { input: t.arg({ type: CreateInput, required: requiresInput(keyInputSchemas.create) }) },
    extensions: keyCheck("create", createOperation.scopes),
    resolve: (_root, args, context, info) => createKey(context, args.input ?? {}, secretQuery(context, info)),
  }),
  rotate_api_key: t.field({
    type: ApiKeySecret,
    description: rotateOperation.description,
    authScopes: { scopes: rotateOperation.scopes },
    args: { key_id: t.arg.id({ required: true }), input: t.arg({ type: RotateInput, required: requiresInput(keyInputSchemas.rotate) }) },
    extensions: keyCheck("rotate", rotateOperation.scopes),
    resolve: (_root, args, context, info) => rotateKey(context, String(args.key_id), args.input ?? {}, secretQuery(context, info)),
  }),
}));

loose.mutationFields((t: any) => ({
  update_api_key: t.prismaField({
    type: "ApiKey",
    description: updateOperation.description,
    authScopes: { scopes: updateOperation.scopes },
    args: { key_id: t.arg.id({ required: true }), input: t.arg({ type: UpdateInput, required: requiresInput(keyInputSchemas.update) }) },
    extensions: keyCheck("update", updateOperation.scopes),
    resolve: (query: never, _root: unknown, args: { key_id: string; input?: unknown }, context: GraphQLContext) => updateKey(context, String(args.key_id), args.input ?? {}, query),
  }),
  revoke_api_key: t.prismaField({
    type: "ApiKey",
    description: revokeOperation.description,
    authScopes: { scopes: revokeOperation.scopes },
    args: { key_id: t.arg.id({ required: true }) },
    resolve: (query: never, _root: unknown, args: { key_id: string }, context: GraphQLContext) => revokeKey(context, String(args.key_id), query),
  }),
}));
