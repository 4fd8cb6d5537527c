// Sofa turns the GraphQL schema into the /api/v1 resource routes and their OpenAPI description.
// Route paths, verbs and statuses come from the resource registry; the REST layer around it
// (rest/handler.ts) adds only what REST needs on top.
import { execute, isScalarType, type ExecutionArgs, type GraphQLSchema } from "graphql";
import { useSofa } from "sofa-api";
import { API_VERSION } from "../src/config.js";
import { SERVED_RESOURCES } from "../src/registry/resources.js";
import { platformOperations } from "../src/registry/operations.js";
import { servedOperations } from "../src/registry/served.js";
import { inputJsonSchema } from "../src/resources/input-docs.js";
import { typeNameOf } from "../src/resources/fields.js";
import type { GraphQLContext } from "../src/graphql/context.js";
import { classifyGraphQLError } from "../src/graphql/errors.js";
import { errorResponse } from "./responses.js";
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
  for (const resource of SERVED_RESOURCES) {
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

export function createSofaHandler(schema: GraphQLSchema) {
  return useSofa({
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
    errorHandler: (errors) => errorResponse(classifyGraphQLError(errors[0])) as never,
    // fets collects the paths only while its own endpoint is on; the REST layer never forwards
    // this path (it serves the post-processed document from rest/openapi.ts).
    openAPI: { endpoint: "/__sofa/openapi.json", info: { title: "Cutroom API", version: API_VERSION } } as never,
    swaggerUI: { endpoint: false } as never,
  });
}

export type SofaHandler = ReturnType<typeof createSofaHandler>;
