// Sofa turns the GraphQL schema into the /api/v1 resource routes and their OpenAPI description.
// Route paths, verbs and statuses come from the resource registry; the REST layer around it
// (rest/handler.ts) adds only what REST needs on top.
import {
  execute,
  getOperationAST,
  GraphQLBoolean,
  GraphQLError,
  isEqualType,
  isInputObjectType,
  isScalarType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type TypeNode,
} from "graphql";
import { buildOperationNodeForField } from "@graphql-tools/utils";
import { executeCompiled } from "../src/graphql-endpoint/compiled-execution.js";
import { createSofa, useSofa } from "sofa-api";
import { API_VERSION } from "../src/config.js";
import { servedResources } from "../src/registry/resources.js";
import { platformOperations } from "../src/registry/operations.js";
import { servedOperations } from "../src/resources/served.js";
import { inputJsonSchema } from "../src/resources/input-docs.js";
import { typeNameOf } from "../src/resources/fields.js";
import type { GraphQLContext } from "../src/graphql/context.js";
import { classifyGraphQLError } from "../src/graphql/errors.js";
import { errorResponse } from "../src/web/responses.js";
import { matchOperationPath, pathSegments } from "../src/registry/operations.js";
import { narrowDocument, type RecordSelection } from "./selection.js";
import { wholeResultDocument } from "./full-selection.js";
import { restSchemaView } from "./rest-schema.js";

export const API_BASE_PATH = "/api/v1";

/** What the REST layer hands Sofa for one request. */
export interface SofaServerContext {
  graphqlContext: GraphQLContext;
  selection?: RecordSelection;
  wholeResult?: boolean;
}

interface SofaContextValue extends GraphQLContext {
  restSelection?: RecordSelection;
  /** The operation answers its whole result (typed action results). */
  wholeResult?: boolean;
}

function sofaRoutes() {
  const routes: Record<string, { method: "GET" | "POST" | "PATCH" | "DELETE"; path: string; responseStatus: 200 | 201; tags: string[] }> = {};
  for (const served of servedOperations()) {
    routes[`${served.rootType}.${served.fieldName}`] = { method: served.method, path: served.path, responseStatus: served.successStatus, tags: [served.tag] };
  }
  return routes;
}

function customScalars(schema: GraphQLSchema): Record<string, unknown> {
  const scalars: Record<string, unknown> = {
    DateTime: { type: "string", format: "date-time" },
    JSON: {},
  };
  for (const resource of servedResources()) {
    if (resource.routes.includes("create")) scalars[`${typeNameOf(resource)}CreateInput`] = inputJsonSchema(resource, "create");
    if (resource.routes.includes("update")) scalars[`${typeNameOf(resource)}UpdateInput`] = inputJsonSchema(resource, "update");
  }
  for (const { inputDoc } of platformOperations()) if (inputDoc) scalars[inputDoc.typeName] = inputDoc.schema;
  // Other JSON-object inputs (ApiKeyInput, ...) are described by their GraphQL description.
  for (const type of Object.values(schema.getTypeMap())) {
    if (isScalarType(type) && type.name.endsWith("Input") && !scalars[type.name]) {
      scalars[type.name] = { type: "object", additionalProperties: true, description: type.description ?? undefined };
    }
  }
  return scalars;
}

function sofaConfig(schema: GraphQLSchema) {
  return {
    // Routes and OpenAPI come from REST's view of the schema; execution uses the full one.
    schema: restSchemaView(schema),
    basePath: API_BASE_PATH,
    routes: sofaRoutes(),
    customScalars: customScalars(schema),
    // Records nest no further than their own fields; lists one level deeper.
    depthLimit: 1,
    context: (serverContext: unknown): SofaContextValue => {
      const { graphqlContext, selection, wholeResult } = serverContext as SofaServerContext;
      return { ...graphqlContext, restSelection: selection, wholeResult };
    },
    execute: ((args: ExecutionArgs) => {
      // Sofa plans on the REST view of the schema; the operation runs on the whole one.
      const { restSelection: selection, wholeResult } = args.contextValue as SofaContextValue;
      if (wholeResult) return execute({ ...args, schema, document: wholeResultDocument(schema, args.document) });
      return execute({ ...args, schema, ...(selection && { document: narrowDocument(args.document, selection) }) });
    }),
    errorHandler: (errors: readonly unknown[]) => errorResponse(classifyGraphQLError(errors[0])) as never,
    // fets collects the paths only while its own endpoint is on; the REST layer never forwards
    // this path (it serves the post-processed document from rest/openapi.ts).
    openAPI: { endpoint: "/__sofa/openapi.json", info: { title: "Cutroom API", version: API_VERSION } } as never,
    swaggerUI: { endpoint: false } as never,
  };
}

/** Sofa's router: the REST layer reads its OpenAPI description (rest/openapi.ts). */
export function createSofaHandler(schema: GraphQLSchema) {
  return useSofa(sofaConfig(schema));
}

export type SofaHandler = ReturnType<typeof createSofaHandler>;

/** An operation as the REST route table matched it (src/resources/served.ts). */
export interface OperationTarget {
  rootType: "Query" | "Mutation";
  fieldName: string;
  /** Relative to /api/v1, with `:param` placeholders. */
  path: string;
  successStatus: number;
}

/** What one operation answered: its field's value, or the error envelope as a response. */
export type OperationAnswer = { ok: true; status: number; data: unknown } | { ok: false; response: Response };

interface PlannedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  pattern: string[];
}

/** A query or form value as the variable's type takes it (what Sofa's parseVariable does). */
function variableValue(value: unknown, type: TypeNode, schema: GraphQLSchema): unknown {
  if (type.kind === Kind.NON_NULL_TYPE) return variableValue(value, type.type, schema);
  if (type.kind === Kind.LIST_TYPE) return (Array.isArray(value) ? value : [value]).map((item) => variableValue(item, type.type, schema));
  const named = schema.getType(type.name.value);
  if (isScalarType(named)) return named.serialize(isEqualType(GraphQLBoolean, named) ? value === "true" || value === true : value);
  if (isInputObjectType(named)) return value && typeof value === "object" ? value : JSON.parse(String(value));
  return value;
}

/**
 * Runs the one operation the REST route table matched, with the document Sofa builds for its
 * field (same models, same depth), without going through Sofa's router: no pattern matching over
 * every route, no Request to build, no JSON printed and read back before the envelope is added.
 * Variables come from the path, then the query, then the body, as in Sofa.
 */
export function createOperationRunner(schema: GraphQLSchema) {
  const config = sofaConfig(schema);
  const sofa = createSofa(config);
  const plans = new Map<string, PlannedOperation>();

  function plan(target: OperationTarget): PlannedOperation {
    const cacheKey = `${target.rootType}.${target.fieldName}`;
    let planned = plans.get(cacheKey);
    if (!planned) {
      const node = buildOperationNodeForField({
        kind: target.rootType === "Query" ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
        schema: sofa.schema,
        field: target.fieldName,
        models: sofa.models,
        ignore: sofa.ignore,
        circularReferenceDepth: sofa.depthLimit,
      });
      const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [node] };
      planned = { document, operation: getOperationAST(document)!, pattern: pathSegments(target.path) };
      plans.set(cacheKey, planned);
    }
    return planned;
  }

  return async function run(
    target: OperationTarget,
    url: URL,
    context: GraphQLContext,
    options: { selection?: RecordSelection; body?: Record<string, unknown>; wholeResult?: boolean } = {},
  ): Promise<OperationAnswer> {
    const planned = plan(target);
    const params = matchOperationPath(planned.pattern, pathSegments(url.pathname.slice(API_BASE_PATH.length))) ?? {};
    const variableValues: Record<string, unknown> = {};
    try {
      for (const definition of planned.operation.variableDefinitions ?? []) {
        const name = definition.variable.name.value;
        const fromQuery = url.searchParams.getAll(name);
        const raw = name in params ? params[name] : (fromQuery.length > 1 ? fromQuery : fromQuery[0]) || options.body?.[name];
        if (raw === undefined || raw === null) continue;
        const value = variableValue(raw, definition.type, sofa.schema);
        if (value !== undefined) variableValues[name] = value;
      }
    } catch (error) {
      return { ok: false, response: errorResponse(classifyGraphQLError(new GraphQLError(error instanceof Error ? error.message : String(error)))) };
    }
    const contextValue: SofaContextValue = { ...context, restSelection: options.selection, wholeResult: options.wholeResult };
    const { selection, wholeResult } = options;
    const document = wholeResult ? wholeResultDocument(schema, planned.document) : selection ? narrowDocument(planned.document, selection) : planned.document;
    // REST's documents are fixed objects (one per operation and selection): each runs compiled.
    const result = await executeCompiled({ schema, document, contextValue, variableValues, operationName: planned.operation.name?.value });
    if (result.errors?.length) return { ok: false, response: errorResponse(classifyGraphQLError(result.errors[0])) };
    return { ok: true, status: target.successStatus, data: (result.data)?.[target.fieldName] ?? null };
  };
}

export type OperationRunner = ReturnType<typeof createOperationRunner>;
