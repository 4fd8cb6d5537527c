// One GraphQL field per live action, and through Sofa its REST route /api/v1/actions/{name} with
// the catalog's method: POST actions are mutations taking a JSON body, GET actions queries taking
// query parameters. Scopes are field auth; the rest is the runner's.
import { builder, scopeRefusal } from "../../graphql/builder.js";
import type { AuthFailure } from "@pothos/plugin-scope-auth";
import type { GraphQLContext } from "../../graphql/context.js";
import { definePlatformOperation } from "../../registry/operations.js";
import { pascal } from "../../resources/filter-inputs.js";
import { ACTIONS, type ActionDefinition } from "../catalog.js";
import { actionHandler } from "./handler.js";
import { recordFailure, runAction } from "./runner.js";
import { currentRequestContext } from "../../context/request-context.js";
import { actionSchema, decodeQueryInput } from "./input.js";
import { openApiSchemaOf } from "../../resources/input-docs.js";
import "../handlers.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
const loose = builder as any;

/** `renders.create` → `renders_create` (GraphQL names take no dots). */
function actionFieldName(action: ActionDefinition): string {
  return action.name.replace(".", "_");
}

/** `renders.create` → `RendersCreateInput`. */
function actionInputTypeName(action: ActionDefinition): string {
  return `${pascal(actionFieldName(action))}Input`;
}

function describeCost(action: ActionDefinition): string {
  if (!action.credits) return "Free.";
  const price = action.price;
  const per = price.per && price.per !== "call" ? ` per ${price.per}${price.unit_field ? ` (${price.unit_field})` : ""}` : " per call";
  return `Spends ${price.credits} credit${price.credits === 1 ? "" : "s"}${per}${price.times_field ? ` × ${price.times_field}` : ""}.`;
}

function actionDescription(action: ActionDefinition): string {
  const purpose = /[.!?]$/.test(action.purpose) ? action.purpose : `${action.purpose}.`;
  return `${purpose.charAt(0).toUpperCase()}${purpose.slice(1)} Scopes: ${action.scopes.join(" and ")}. ${describeCost(action)}`;
}

const ActionResult = loose.scalarType("ActionResult", {
  description: "The action's answer: a JSON object whose `object` names what it is (a render, a list, ...). Credit actions add `credits` {cost, charged, balance_after}.",
  serialize: (value: unknown) => value,
  parseValue: (value: unknown) => value,
});

export const LIVE_ACTIONS: readonly ActionDefinition[] = ACTIONS.filter((action) => actionHandler(action.name));

for (const action of LIVE_ACTIONS) {
  const fieldName = actionFieldName(action);
  const operation = definePlatformOperation({
    rootType: action.method === "GET" ? "Query" : "Mutation",
    fieldName,
    method: action.method,
    path: `/actions/${action.name}`,
    scopes: action.scopes,
    successStatus: 200,
    input: action.method === "GET" ? "query_input" : "body",
    decodeQuery: (query) => decodeQueryInput(action, query),
    inputDoc: { typeName: actionInputTypeName(action), schema: openApiSchemaOf(actionSchema(action)) },
    tag: "actions",
    description: actionDescription(action),
  });
  const inputType = loose.scalarType(actionInputTypeName(action), {
    description: `Input of ${action.name}: a JSON object with ${Object.keys(actionSchema(action).shape).join(", ") || "no fields"}.`,
    serialize: (value: unknown) => value,
    // GET actions arrive from REST as the JSON text of their decoded query parameters.
    parseValue: (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value),
  });
  const attach = action.method === "GET" ? loose.queryField.bind(loose) : loose.mutationField.bind(loose);
  attach(fieldName, (t: any) =>
    t.field({
      type: ActionResult,
      description: operation.description,
      authScopes: { scopes: operation.scopes },
      // A refused scope is an action call that returned an error: audited as action.failed.
      unauthorizedError: (_parent: unknown, _args: unknown, context: GraphQLContext, _info: unknown, result: { failure: AuthFailure }) => {
        const error = scopeRefusal(context, result.failure);
        const write = recordFailure(context, action, error).catch(() => undefined);
        const request = currentRequestContext();
        if (request) (request.pendingWrites ??= []).push(write);
        return error;
      },
      args: { input: t.arg({ type: inputType, required: false }) },
      resolve: (_root: unknown, args: { input?: unknown }, context: GraphQLContext) => runAction(context, action, args.input ?? {}),
    }),
  );
}
