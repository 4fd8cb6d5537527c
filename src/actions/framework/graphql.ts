// One GraphQL field per live action, and through Sofa its REST route /api/v1/actions/{name} with
// the catalog's method: POST actions are mutations taking a JSON body, GET actions queries taking
// query parameters. The field's type is the action's declared output (with `credits` on credit
// actions; or the quote a test key gets from a model call). Scopes are field auth; the rest is the
// runner's.
import { builder, scopeRefusal } from "../../graphql/builder.js";
import { parseJsonLiteral } from "../../graphql/json-literal.js";
import { inputCheckExtension } from "../../graphql/input-check.js";
import { hasInputFields, inputObjectTypeOf, requiresInput } from "../../graphql/zod-input.js";
import { recordInputType } from "../../resources/graphql.js";
import type { AuthFailure } from "@pothos/plugin-scope-auth";
import type { GraphQLContext } from "../../graphql/context.js";
import { objectTypeOf, unionTypeOf } from "../../graphql/zod-output.js";
import { definePlatformOperation } from "../../registry/operations.js";
import { pascal } from "../../resources/filter-inputs.js";
import type { ActionDefinition } from "../catalog.js";
import type { LiveAction } from "./action.js";
import { recordFailure, runAction } from "./runner.js";
import { currentRequestContext } from "../../context/request-context.js";
import { actionSchema, checkActionInput, decodeQueryInput, recordInputOf } from "./input.js";
import { openApiSchemaOf } from "../../resources/input-docs.js";
import { actionQuote } from "./outputs.js";
import { answersWithQuote, resultObjects, resultSchema } from "./result-schema.js";

const loose = builder as any;

/** `renders.create` → `renders_create` (GraphQL names take no dots). */
export function actionFieldName(action: ActionDefinition): string {
  return action.name.replace(".", "_");
}

/** `renders.create` → `RendersCreate`. */
function actionTypeStem(action: ActionDefinition): string {
  return pascal(actionFieldName(action));
}

function describeCost(action: ActionDefinition): string {
  if (!action.credits) return "Free.";
  const price = action.price;
  const per = price.per && price.per !== "call" ? ` per ${price.per}${price.unit_field ? ` (${price.unit_field})` : ""}` : " per call";
  return `Spends ${price.credits} credit${price.credits === 1 ? "" : "s"}${per}${price.times_field ? ` × ${price.times_field}` : ""}.`;
}

function actionDescription(action: LiveAction): string {
  const purpose = /[.!?]$/.test(action.purpose) ? action.purpose : `${action.purpose}.`;
  const quote = answersWithQuote(action) ? " With a test key it answers an ActionQuote." : "";
  return `${purpose.charAt(0).toUpperCase()}${purpose.slice(1)} Scopes: ${action.scopes.join(" and ")}. ${describeCost(action)}${quote}`;
}

const withLivemode = new Set<unknown>();

/** Every answer says whether a live key produced it, as REST's envelope does (contract 2.1.3). */
function addLivemode(ref: unknown): unknown {
  if (withLivemode.has(ref)) return ref;
  withLivemode.add(ref);
  loose.objectField(ref, "livemode", (t: any) =>
    t.boolean({ description: "false when an sk_test_ key produced the answer.", resolve: (_parent: unknown, _args: unknown, context: GraphQLContext) => context.auth.livemode }),
  );
  return ref;
}

/** The field's type: the result object, or the union of it and the quote. */
function resultType(action: LiveAction): unknown {
  const stem = actionTypeStem(action);
  const result = addLivemode(objectTypeOf(resultSchema(action), `${stem}Result`, `What ${action.name} answers.`));
  if (!answersWithQuote(action)) return result;
  const quote = addLivemode(objectTypeOf(actionQuote, "ActionQuote"));
  return unionTypeOf(
    `${stem}Answer`,
    [
      { ref: result, object: resultObjects(action) },
      { ref: quote, object: "action_quote" },
    ],
    `${stem}Result for a live key; ActionQuote for a test key (a model call is quoted, never made).`,
  );
}

let emptyInput: unknown;

/**
 * The input of an action that takes no field: GraphQL input objects need one, so it is a scalar
 * whose only sensible value is {} (anything else is refused by the action's schema, as on REST).
 */
function emptyInputType(): unknown {
  emptyInput ??= loose.scalarType("EmptyInput", {
    description: "No fields: leave `input` out or send {}. A field sent is refused with validation_failed (allowed: []).",
    serialize: (value: unknown) => value,
    // GET actions arrive from REST as the JSON text of their decoded query parameters.
    parseValue: (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value),
    parseLiteral: parseJsonLiteral,
  });
  return emptyInput;
}

/** The action's `input` type, from the schema that validates it, and whether it is required. */
function inputTypeOf(action: LiveAction): { type: unknown; required: boolean } {
  const schema = actionSchema(action);
  const name = `${actionTypeStem(action)}Input`;
  const description = `Input of ${action.name}.`;
  const record = recordInputOf(action);
  if (record) return { type: recordInputType(record.resource, record.mode, { schema, name, description }), required: requiresInput(schema) };
  if (!hasInputFields(schema)) return { type: emptyInputType(), required: false };
  return { type: inputObjectTypeOf(schema, name, { description }), required: requiresInput(schema) };
}

/**
 * Adds each action's GraphQL field (and, through its platform operation, its REST route) to the
 * schema being built. The schema index calls it with the catalog (src/platform/schema.ts).
 */
export function defineActionFields(actions: readonly LiveAction[]): void {
  actions.forEach(defineActionField);
}

function defineActionField(action: LiveAction): void {
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
    inputDoc: { typeName: `${actionTypeStem(action)}Input`, schema: openApiSchemaOf(actionSchema(action)) },
    tag: "actions",
    description: actionDescription(action),
    fullSelection: true,
    binary: action.binary,
    streams: action.streams,
  });
  const input = inputTypeOf(action);
  const type = resultType(action);
  const attach = action.method === "GET" ? loose.queryField.bind(loose) : loose.mutationField.bind(loose);
  attach(fieldName, (t: any) =>
    t.field({
      type,
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
      args: { input: t.arg({ type: input.type, required: input.required }) },
      // An input GraphQL refuses is answered as the runner would: scope, then the schema's 422,
      // recorded as action.failed (src/graphql/input-check.ts).
      extensions: inputCheckExtension({
        scopes: operation.scopes,
        validate: (_context, raw) => checkActionInput(action, raw),
        refused: (context, error) => recordFailure(context, action, error),
      }),
      resolve: (_root: unknown, args: { input?: unknown }, context: GraphQLContext) => runAction(context, action, args.input ?? {}),
    }),
  );
}
