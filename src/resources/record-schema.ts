// A resource's record as a zod schema (what presentRecord returns), derived from the Prisma model
// and the declaration: the output type of actions that answer with records (renders.create,
// videos.update, renders.list's items), with the same field names and nullability as the resource.
import { z } from "zod";
import { perResource } from "../registry/per-resource.js";
import type { ModelField } from "../graphql/datamodel.js";
import type { ResourceDefinition } from "../registry/resource.js";
import { unwrap } from "../validation/issues.js";
import { isClosedSetField } from "../graphql/zod-output.js";
import { apiFieldName, publicColumns, typeNameOf } from "./fields.js";

/** A status or format column whose values the resource declares (its fieldRules enum), as it is typed in GraphQL. */
function declaredValues(resource: ResourceDefinition, column: ModelField): z.ZodEnum | undefined {
  const rule = resource.fieldRules?.[column.name];
  if (!rule || column.isList || !isClosedSetField(apiFieldName(resource, column.name))) return undefined;
  const inner = unwrap(rule);
  return inner instanceof z.ZodEnum ? inner : undefined;
}

function columnSchema(column: ModelField, declared?: z.ZodEnum): z.ZodType {
  const scalar: Record<string, () => z.ZodType> = {
    String: () => z.string(),
    Boolean: () => z.boolean(),
    Int: () => z.number().int(),
    BigInt: () => z.number().int(),
    Float: () => z.number(),
    DateTime: () => z.iso.datetime({ offset: true }),
    Json: () => z.json(),
  };
  const base = declared ? () => declared : scalar[column.type];
  if (!base) throw new Error(`No record schema for a ${column.type} column (${column.name})`);
  const schema = column.isList ? z.array(base()) : base();
  // A JSON column may hold null itself; z.json() already allows it.
  return column.isRequired || column.type === "Json" ? schema : schema.nullable();
}

/** The record of a resource as actions return it (`object` plus every readable field). */
export const recordSchema = perResource((resource): z.ZodObject => {
  const shape: Record<string, z.ZodType> = { object: z.literal(resource.kind) };
  for (const column of publicColumns(resource)) shape[apiFieldName(resource, column.name)] = columnSchema(column, declaredValues(resource, column));
  for (const [name, field] of Object.entries(resource.virtualFields ?? {})) {
    shape[name] = (field.graphqlType === "StringList" ? z.array(z.string()) : z.json()).describe(field.description);
  }
  return z.object(shape).meta({ id: `${typeNameOf(resource)}Record`, description: `A ${resource.kind} record, as the ${resource.name} resource shows it.` });
});
