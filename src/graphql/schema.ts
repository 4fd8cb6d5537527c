// Assembles the one GraphQL schema both surfaces serve: /graphql directly, /api/v1 through Sofa.
import type { GraphQLSchema } from "graphql";
import { builder } from "./builder.js";
import "./scalars.js";
import { SERVED_RESOURCES } from "../registry/resources.js";
import { defineResourceGraphQL } from "../resources/graphql.js";
// Operations beyond the resource table; each declares its REST route as it defines its field.
import "../api-keys/graphql.js";
import "../usage/graphql.js";
import "../webhooks/graphql.js";
import "../events/graphql.js";
import "../actions/framework/graphql.js";

builder.queryType({ description: "Reads. Every field needs a read scope of its group." });
builder.mutationType({ description: "Writes. With an sk_test_ key they are validated and rolled back." });

for (const resource of SERVED_RESOURCES) defineResourceGraphQL(resource);


let schema: GraphQLSchema | undefined;

export function getSchema(): GraphQLSchema {
  schema ??= builder.toSchema();
  return schema;
}
