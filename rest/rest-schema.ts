// The schema as Sofa reads it to build REST routes and OpenAPI: without the child lists nested
// under records (Video.renders, Folder.videos, ...). REST records never carry them (a referenced
// id, never a nested list), and their paging arguments would otherwise show up in the OpenAPI
// document as query parameters no REST route takes. Operations still execute on the full schema.
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import type { GraphQLSchema } from "graphql";
import { servedResources } from "../src/registry/resources.js";
import { typeNameOf } from "../src/resources/fields.js";

export function restSchemaView(schema: GraphQLSchema): GraphQLSchema {
  const childLists = new Set(
    servedResources().flatMap((resource) => Object.keys(resource.children ?? {}).map((field) => `${typeNameOf(resource)}.${field}`)),
  );
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => (childLists.has(`${typeName}.${fieldName}`) ? null : field),
  });
}
