// The schema index: assembles the one GraphQL schema both surfaces serve (/graphql directly,
// /api/v1 through Sofa) from the catalogs. It is part of the composition root: the only module
// that names the platform operations' GraphQL files and hands the lists to the builders.
import type { GraphQLSchema } from "graphql";
import "./catalogs.js";
import { builder } from "../graphql/builder.js";
import "../graphql/scalars.js";
import { servedResources } from "../registry/resources.js";
import { allActions } from "../actions/catalog.js";
import { defineResourceGraphQL } from "../resources/graphql.js";
import { defineActionFields } from "../actions/framework/graphql.js";
// Operations beyond the resource table; each declares its REST route as it defines its field.
import "../api-keys/graphql.js";
import "../usage/graphql.js";
import "../webhooks/graphql.js";
import "../events/graphql.js";

builder.queryType({ description: "Reads. Every field needs a read scope of its group." });
builder.mutationType({ description: "Writes. With an sk_test_ key they are validated and rolled back." });

for (const resource of servedResources()) defineResourceGraphQL(resource);
defineActionFields(allActions());

let schema: GraphQLSchema | undefined;

export function getSchema(): GraphQLSchema {
  schema ??= builder.toSchema();
  return schema;
}
