// GraphQL types and root fields for every declared resource. Nothing here is specific to one
// resource: the declaration and the Prisma model say what to build.
import { queryFromInfo } from "@pothos/plugin-prisma";
import { builder } from "../graphql/builder.js";
import type { z } from "zod";
import { inputCheckExtension } from "../graphql/input-check.js";
import { inputObjectTypeOf, requiresInput } from "../graphql/zod-input.js";
import { closedSetEnum } from "../graphql/zod-output.js";
import { LOADED_COLUMN } from "../graphql/loaded-column-plugin.js";
import type { GraphQLContext } from "../graphql/context.js";
import type { ModelField } from "../graphql/datamodel.js";
import type { ResourceDefinition } from "../registry/resource.js";
import { apiFieldName, assertAliasesDisplayOnly, idColumn, ignoredInputFields, publicColumns, typeNameOf } from "./fields.js";
import { inputSchema, parseRecordInput } from "./input-schema.js";
import { resourceOperations, requiredScope, type ResourceOperation } from "./operations.js";
import { LIST_ARGUMENTS, listRecords, type ListArgs, type ListPage } from "./list.js";
import { createRecord, deleteRecord, getRecord, loadOwned, updateRecord, type Deletion } from "./service.js";
import type { PrismaQuery } from "./selection.js";
import { inputSchemaDescription } from "./input-docs.js";
import { defineFilterInput } from "./filter-inputs.js";
import { filterConditions, type ResourceFilter } from "./filters.js";
import { childListField, referenceField, registerListType } from "./relations.js";

// Pothos types field builders by model name at compile time; the resource layer is generic over
// models, so it talks to the builder through these loose aliases.
type AnyFieldBuilder = any;
const loose = builder as any;

function exposeColumn(t: AnyFieldBuilder, resource: ResourceDefinition, column: ModelField) {
  const nullable = !column.isRequired;
  const name = column.name;
  if (name === idColumn(resource)) return t.exposeID(name, { extensions: { [LOADED_COLUMN]: name } });
  // A status or format column whose values the resource declares (fieldRules) is an enum.
  const rule = resource.fieldRules?.[name];
  const closed = rule && !column.isList ? closedSetEnum(apiFieldName(resource, name), rule, typeNameOf(resource)) : undefined;
  if (closed) return t.expose(name, { type: closed.type, nullable, extensions: { [LOADED_COLUMN]: name } });
  const scalar: Record<string, string> = { String: "String", Boolean: "Boolean", Int: "Int", Float: "Float", DateTime: "DateTime", Json: "JSON" };
  const type = scalar[column.type];
  if (!type) throw new Error(`No GraphQL type for ${resource.model}.${name} (${column.type})`);
  return t.expose(name, { type: column.isList ? [type] : type, nullable, extensions: { [LOADED_COLUMN]: name } });
}

function defineRecordType(resource: ResourceDefinition) {
  return loose.prismaObject(resource.model, {
    name: typeNameOf(resource),
    description: resource.description,
    // Select mode: a query loads only the columns its selection needs.
    select: { [idColumn(resource)]: true },
    fields: (t: AnyFieldBuilder) => {
      const fields: Record<string, unknown> = {
        object: t.string({ description: `Always '${resource.kind}'.`, resolve: () => resource.kind }),
      };
      for (const column of publicColumns(resource)) fields[apiFieldName(resource, column.name)] = exposeColumn(t, resource, column);
      for (const [name, field] of Object.entries(resource.virtualFields ?? {})) {
        const options = { description: field.description, select: field.select, resolve: (row: Record<string, unknown>) => field.resolve(row) };
        fields[name] = field.graphqlType === "JSON" ? t.field({ type: "JSON", ...options }) : t.stringList(options);
      }
      for (const [name, extra] of Object.entries(resource.graphqlExtras ?? {})) {
        fields[name] = t.string({ nullable: true, description: extra.description, resolve: (row: Record<string, unknown>) => extra.resolve(row) });
      }
      // Referenced records and child lists, loaded in the same planned query (no N+1), each
      // behind its own resource's read scope (src/resources/relations.ts).
      for (const [column, reference] of Object.entries(resource.references ?? {})) fields[reference.relation] = referenceField(t, resource, column, reference);
      for (const [name, child] of Object.entries(resource.children ?? {})) fields[name] = childListField(t, resource, name, child);
      return fields;
    },
  });
}

function defineListType(resource: ResourceDefinition, recordType: unknown) {
  const ref = builder.objectRef<ListPage>(`${typeNameOf(resource)}List`);
  registerListType(resource, ref);
  return ref.implement({
    description: `A page of ${resource.name}.`,
    fields: (t) => ({
      object: t.string({ description: "Always 'list'.", resolve: () => "list" }),
      data: (t as AnyFieldBuilder).field({ type: [recordType], resolve: (page: ListPage) => page.data }),
      has_more: t.exposeBoolean("has_more"),
      next_cursor: t.exposeString("next_cursor", { nullable: true, description: "Pass as `cursor` to get the next page." }),
      total: t.exposeInt("total", { nullable: true, description: "Set only when include_total is true." }),
    }),
  });
}

function defineDeletionType(resource: ResourceDefinition) {
  return builder.objectRef<Deletion>(`${typeNameOf(resource)}Deletion`).implement({
    description: `Confirms that a ${resource.kind} was deleted.`,
    fields: (t) => ({
      object: t.exposeString("object"),
      [resource.idField]: t.exposeID("id"),
      deleted: t.exposeBoolean("deleted"),
    }),
  });
}

/**
 * A record's create or update input as a typed input object, from the schema that validates it
 * (src/graphql/zod-input.ts). The fields the service sets are listed too: sent, they are ignored
 * (contract 2.1.2), as on REST. videos.create / videos.update take the same fields (`schema` and
 * `name` then say which).
 */
export function recordInputType(
  resource: ResourceDefinition,
  mode: "create" | "update",
  options: { schema?: z.ZodObject; name?: string; description?: string } = {},
): unknown {
  const ignored = Object.fromEntries(
    [...ignoredInputFields(resource)].map((name) => [name, { type: "JSON" as const, description: "Set by the service: ignored when sent." }]),
  );
  return inputObjectTypeOf(options.schema ?? inputSchema(resource, mode), options.name ?? `${typeNameOf(resource)}${mode === "create" ? "Create" : "Update"}Input`, {
    description: [options.description, inputSchemaDescription(resource, mode)].filter(Boolean).join(" "),
    extraFields: ignored,
  });
}

/**
 * A write GraphQL refuses for its input is answered as the resolver would: the scope (field auth)
 * first, then for an update the record's ownership (404), then the schema's 422.
 */
function recordInputCheck(resource: ResourceDefinition, operation: ResourceOperation, mode: "create" | "update") {
  return inputCheckExtension({
    scopes: [requiredScope(resource, operation)],
    async validate(context, raw, args) {
      if (mode === "update") await loadOwned(context.prisma, context, resource, String(args[resource.idField]), { select: { [idColumn(resource)]: true } });
      parseRecordInput(resource, mode, raw);
    },
  });
}

const listArgs = (t: AnyFieldBuilder) =>
  Object.fromEntries(
    Object.entries(LIST_ARGUMENTS).map(([name, { type, description }]) => {
      if (type === "integer") return [name, t.arg.int({ description })];
      return [name, type === "boolean" ? t.arg.boolean({ description }) : t.arg.string({ description })];
    }),
  );

function defineOperation(resource: ResourceDefinition, operation: ResourceOperation, types: Record<string, unknown>) {
  const authScopes = { scopes: [requiredScope(resource, operation)] };
  const idArg = (t: AnyFieldBuilder) => ({ [resource.idField]: t.arg.id({ required: true }) });
  const attach = operation.rootType === "Query" ? loose.queryField.bind(loose) : loose.mutationField.bind(loose);
  const query = (q: unknown) => q as PrismaQuery;

  switch (operation.route) {
    case "list":
      return attach(operation.fieldName, (t: AnyFieldBuilder) =>
        t.field({
          type: types.list,
          description: `List ${resource.name} of the workspace.`,
          authScopes,
          args: { ...listArgs(t), ...(types.filter ? { filter: t.arg({ type: types.filter }) } : {}) },
          resolve: (_root: unknown, args: ListArgs & { filter?: ResourceFilter }, context: GraphQLContext, info: unknown) =>
            listRecords(
              context,
              resource,
              args,
              query(queryFromInfo({ context, info: info as never, path: ["data"] })),
              filterConditions(resource, args.filter),
            ),
        }),
      );
    case "get":
      return attach(operation.fieldName, (t: AnyFieldBuilder) =>
        t.prismaField({
          type: resource.model,
          description: `Get one ${resource.kind} by ${resource.idField}.`,
          authScopes,
          args: idArg(t),
          resolve: (q: unknown, _root: unknown, args: Record<string, string>, context: GraphQLContext) =>
            getRecord(context, resource, args[resource.idField]!, query(q)),
        }),
      );
    case "create":
      return attach(operation.fieldName, (t: AnyFieldBuilder) =>
        t.prismaField({
          type: resource.model,
          description: `Create a ${resource.kind}.`,
          authScopes,
          args: { input: t.arg({ type: types.createInput, required: requiresInput(inputSchema(resource, "create")) }) },
          extensions: recordInputCheck(resource, operation, "create"),
          resolve: (q: unknown, _root: unknown, args: { input?: unknown }, context: GraphQLContext) =>
            createRecord(context, resource, args.input ?? {}, query(q)),
        }),
      );
    case "update":
      return attach(operation.fieldName, (t: AnyFieldBuilder) =>
        t.prismaField({
          type: resource.model,
          description: `Change fields of a ${resource.kind}; fields left out are kept.`,
          authScopes,
          args: { ...idArg(t), input: t.arg({ type: types.updateInput, required: requiresInput(inputSchema(resource, "update")) }) },
          extensions: recordInputCheck(resource, operation, "update"),
          resolve: (q: unknown, _root: unknown, args: Record<string, unknown>, context: GraphQLContext) =>
            updateRecord(context, resource, args[resource.idField] as string, args.input ?? {}, query(q)),
        }),
      );
    case "delete":
      return attach(operation.fieldName, (t: AnyFieldBuilder) =>
        t.field({
          type: types.deletion,
          description: `Delete a ${resource.kind}.`,
          authScopes,
          args: idArg(t),
          resolve: (_root: unknown, args: Record<string, string>, context: GraphQLContext) =>
            deleteRecord(context, resource, args[resource.idField]!),
        }),
      );
  }
}

export function defineResourceGraphQL(resource: ResourceDefinition): void {
  assertAliasesDisplayOnly(resource);
  const record = defineRecordType(resource);
  const routes = new Set(resource.routes);
  const types: Record<string, unknown> = {
    record,
    list: routes.has("list") ? defineListType(resource, record) : undefined,
    filter: routes.has("list") ? defineFilterInput(resource) : undefined,
    deletion: routes.has("delete") ? defineDeletionType(resource) : undefined,
    createInput: routes.has("create") ? recordInputType(resource, "create") : undefined,
    updateInput: routes.has("update") ? recordInputType(resource, "update") : undefined,
  };
  for (const operation of resourceOperations(resource)) defineOperation(resource, operation, types);
}
