// GraphQL fields (and, through Sofa, REST routes) for managing webhook endpoints: register,
// change, rotate the secret, delete, test, resend a delivery, recover failed deliveries.
// Listing endpoints and reading the delivery log come from the resource declarations.
import { builder } from "../graphql/builder.js";
import { inputCheckExtension } from "../graphql/input-check.js";
import { inputObjectTypeOf, requiresInput } from "../graphql/zod-input.js";
import type { GraphQLContext } from "../graphql/context.js";
import { definePlatformOperation } from "../registry/operations.js";
import { openApiSchemaOf } from "../resources/input-docs.js";
import {
  checkEndpointInput, createEndpoint, deleteEndpoint, endpointInputSchemas, recoverDeliveries, resendDelivery, rotateEndpointSecret, testEndpoint, updateEndpoint,
  type TestResult,
} from "./service.js";

const loose = builder as any;

/** The GraphQL input type of each endpoint input; the REST body is documented under the same name. */
const INPUT_NAMES = { create: "WebhookEndpointCreateInput", update: "WebhookEndpointUpdateInput", rotate: "WebhookSecretRotateInput", recover: "WebhookRecoverInput" } as const;

const inputs = {
  create: inputObjectTypeOf(endpointInputSchemas.create, INPUT_NAMES.create, {
    description: "A new endpoint: url (https, public), events (names, families such as video.*, or *), description, enabled.",
  }),
  update: inputObjectTypeOf(endpointInputSchemas.update, INPUT_NAMES.update, {
    description: "An endpoint's url, events, description or enabled to change, each optional; with enabled: true, since also recovers what it missed.",
  }),
  rotate: inputObjectTypeOf(endpointInputSchemas.rotate, INPUT_NAMES.rotate, {
    description: "grace_period_seconds (0 to 604800, default 86400): how long the old secret still signs deliveries.",
  }),
  recover: inputObjectTypeOf(endpointInputSchemas.recover, INPUT_NAMES.recover, { description: "since (ISO 8601): how far back to recover." }),
};

/** The typed `input` argument and the check answering an input GraphQL refuses (scope, 404, then the 422). */
const inputOf = (t: any, which: keyof typeof inputs, declared: { scopes: readonly string[] }) => ({
  args: { input: t.arg({ type: inputs[which], required: requiresInput(endpointInputSchemas[which]) }) },
  extensions: inputCheckExtension({ scopes: declared.scopes, validate: (context, raw, args) => checkEndpointInput(context, which, args.endpoint_id, raw) }),
});

/** A route; one taking a body names its input, whose zod schema also documents the REST body. */
const operation = (fieldName: string, method: "POST" | "PATCH" | "DELETE", path: string, scope: "write" | "delete", description: string, body?: keyof typeof inputs, successStatus: 200 | 201 = 200) =>
  definePlatformOperation({
    rootType: "Mutation", fieldName, method, path, scopes: [`webhooks:${scope}`], successStatus, input: body ? "body" : "none", tag: "webhooks", description,
    ...(body && { inputDoc: { typeName: INPUT_NAMES[body], schema: openApiSchemaOf(endpointInputSchemas[body]) } }),
  });

const create = operation("create_webhook_endpoint", "POST", "/webhooks", "write", "Register an endpoint. The answer carries the signing secret, this once.", "create", 201);
const update = operation("update_webhook_endpoint", "PATCH", "/webhooks/:endpoint_id", "write", "Change an endpoint's url, events, description or enabled; re-enabling resets its failure count, and with `since` also recovers what the endpoint missed.", "update");
const remove = operation("delete_webhook_endpoint", "DELETE", "/webhooks/:endpoint_id", "delete", "Delete an endpoint and its delivery log.");
const rotate = operation("rotate_webhook_secret", "POST", "/webhooks/:endpoint_id/rotate_secret", "write", "Replace the signing secret; during the grace period deliveries carry a v1 signature for each secret.", "rotate");
const test = operation("test_webhook_endpoint", "POST", "/webhooks/:endpoint_id/test", "write", "Send a real signed webhook.test now and report the endpoint's status, timing and a short sanitised excerpt of its answer.");
const resend = operation("resend_webhook_delivery", "POST", "/webhooks/:endpoint_id/deliveries/:delivery_id/resend", "write", "Send one delivery again (same delivery id).");
const recover = operation("recover_webhook_deliveries", "POST", "/webhooks/:endpoint_id/recover", "write", "Deliver every event since `since` the endpoint subscribes to and did not get: failed deliveries are sent again, events that happened while it was disabled get a delivery; each once.", "recover");

const Deletion = builder.objectRef<{ object: string; endpoint_id: string; deleted: true }>("WebhookEndpointDeletion").implement({
  fields: (t) => ({ object: t.exposeString("object"), endpoint_id: t.exposeID("endpoint_id"), deleted: t.exposeBoolean("deleted") }),
});

const TestReport = builder.objectRef<TestResult>("WebhookTest").implement({
  description: "What the endpoint answered to a test send.",
  fields: (t) => ({
    object: t.exposeString("object"),
    endpoint_id: t.exposeID("endpoint_id"),
    event_id: t.exposeID("event_id"),
    delivery_id: t.exposeID("delivery_id"),
    succeeded: t.exposeBoolean("succeeded"),
    status_code: t.exposeInt("status_code", { nullable: true }),
    duration_ms: t.exposeFloat("duration_ms"),
    error: t.exposeString("error", { nullable: true, description: "timeout, connection_failed, address_not_public, ... when no HTTP answer came" }),
    response_excerpt: t.exposeString("response_excerpt", { nullable: true, description: "At most 200 printable characters of the answer." }),
  }),
});

const Recovery = builder.objectRef<{ object: string; endpoint_id: string; since: string; requeued: number; delivery_ids: string[] }>("WebhookRecovery").implement({
  fields: (t) => ({
    object: t.exposeString("object"),
    endpoint_id: t.exposeID("endpoint_id"),
    since: t.exposeString("since"),
    requeued: t.exposeInt("requeued"),
    delivery_ids: t.exposeStringList("delivery_ids"),
  }),
});

const scopes = (declared: { scopes: readonly string[] }) => ({ scopes: declared.scopes });
const endpointArg = (t: any) => ({ endpoint_id: t.arg.id({ required: true }) });
const withEndpoint = (t: any, typed: ReturnType<typeof inputOf>) => ({ ...typed, args: { ...endpointArg(t), ...typed.args } });

loose.mutationFields((t: any) => ({
  [create.fieldName]: t.prismaField({
    type: "WebhookEndpoint",
    description: create.description,
    authScopes: scopes(create),
    ...inputOf(t, "create", create),
    resolve: (query: never, _root: unknown, args: { input?: unknown }, context: GraphQLContext) => createEndpoint(context, args.input ?? {}, query),
  }),
  [update.fieldName]: t.prismaField({
    type: "WebhookEndpoint",
    description: update.description,
    authScopes: scopes(update),
    ...withEndpoint(t, inputOf(t, "update", update)),
    resolve: (query: never, _root: unknown, args: { endpoint_id: string; input?: unknown }, context: GraphQLContext) => updateEndpoint(context, String(args.endpoint_id), args.input ?? {}, query),
  }),
  [remove.fieldName]: t.field({
    type: Deletion,
    description: remove.description,
    authScopes: scopes(remove),
    args: endpointArg(t),
    resolve: (_root: unknown, args: { endpoint_id: string }, context: GraphQLContext) => deleteEndpoint(context, String(args.endpoint_id)),
  }),
  [rotate.fieldName]: t.prismaField({
    type: "WebhookEndpoint",
    description: rotate.description,
    authScopes: scopes(rotate),
    ...withEndpoint(t, inputOf(t, "rotate", rotate)),
    resolve: (query: never, _root: unknown, args: { endpoint_id: string; input?: unknown }, context: GraphQLContext) => rotateEndpointSecret(context, String(args.endpoint_id), args.input ?? {}, query),
  }),
  [test.fieldName]: t.field({
    type: TestReport,
    description: test.description,
    authScopes: scopes(test),
    args: endpointArg(t),
    resolve: (_root: unknown, args: { endpoint_id: string }, context: GraphQLContext) => testEndpoint(context, String(args.endpoint_id)),
  }),
  [resend.fieldName]: t.prismaField({
    type: "WebhookDelivery",
    description: resend.description,
    authScopes: scopes(resend),
    args: { ...endpointArg(t), delivery_id: t.arg.id({ required: true }) },
    resolve: (query: never, _root: unknown, args: { endpoint_id: string; delivery_id: string }, context: GraphQLContext) =>
      resendDelivery(context, String(args.endpoint_id), String(args.delivery_id), query),
  }),
  [recover.fieldName]: t.field({
    type: Recovery,
    description: recover.description,
    authScopes: scopes(recover),
    ...withEndpoint(t, inputOf(t, "recover", recover)),
    resolve: (_root: unknown, args: { endpoint_id: string; input?: unknown }, context: GraphQLContext) => recoverDeliveries(context, String(args.endpoint_id), args.input ?? {}),
  }),
}));
