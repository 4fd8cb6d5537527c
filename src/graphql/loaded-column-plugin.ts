// A column the planned query already loaded answers straight from its row.
//
// In select mode, @pothos/plugin-prisma wraps every exposed column so that a row loaded without it
// can fetch it: per field and per row it builds the response path's key, looks up the plan's
// mapping and records the row's mappings. For a record of 60 columns that bookkeeping was most of
// a request's GraphQL time (docs/benchmarks.md). A column is either on the row (its value, `null`
// included) or absent (`undefined`); only an absent one needs the plugin's fallback, so a field
// marked `loadedColumn` reads the row first and hands over to the wrapped resolver otherwise.
// Fields with scopes of their own are never marked: the shortcut would skip their check.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import type { GraphQLFieldResolver } from "graphql";

const pluginName = "loadedColumns";

/** Marks an exposed column (field extensions): the row's property it reads. */
export const LOADED_COLUMN = "cutroomLoadedColumn";

export class LoadedColumnsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: GraphQLFieldResolver<unknown, Types["Context"], object>, fieldConfig: PothosOutputFieldConfig<Types>): GraphQLFieldResolver<unknown, Types["Context"], object> {
    const column = fieldConfig.extensions?.[LOADED_COLUMN];
    if (typeof column !== "string") return resolver;
    return (parent, args, context, info) => {
      const value = parent === null || typeof parent !== "object" ? undefined : (parent as Record<string, unknown>)[column];
      return value === undefined ? resolver(parent, args, context, info) : value;
    };
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      loadedColumns: LoadedColumnsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, LoadedColumnsPlugin);

export default pluginName;
