// The schema as Sofa reads it to build REST routes and OpenAPI: without the child lists nested
// under records (Video.renders, Folder.videos, ...). REST records never carry them (a referenced
// id, never a nested list), and their paging arguments would otherwise show up in the OpenAPI
// document as query parameters no REST route takes. Operations still execute on the full schema.
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import type { GraphQLSchema } from "graphql";
import { SERVED_RESOURCES } from "../src/registry/resources.js";
import { typeNameOf } from "../src/resources/fields.js";

const CHILD_LISTS = new Set(
  SERVED_RESOURCES.flatMap((resource) => Object.keys(resource.children ?? {}).map((field) => `${typeNameOf(resource)}.${field}`)),
);

export function restSchemaView(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => (CHILD_LISTS.has(`${typeName}.${fieldName}`) ? null : field),
  });
}
