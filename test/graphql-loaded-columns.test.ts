// The loaded-column shortcut (src/graphql/loaded-column-plugin.ts): a column on the row answers
// from it, `null` included; a column the row was loaded without goes to the wrapped resolver,
// which is how @pothos/plugin-prisma fetches what a row lacks.
import SchemaBuilder from "@pothos/core";
import { execute, parse } from "graphql";
import { expect, it } from "vitest";
import LoadedColumnsPlugin, { LOADED_COLUMN } from "../src/graphql/loaded-column-plugin.js";

interface Row {
  name?: string | null;
}

function schemaWith(fallback: (row: Row) => string) {
  // The service's plugins make their options required in Pothos's global types; this builder
  // carries the one plugin under test only.
  const builder = new SchemaBuilder<{ Context: object }>({ plugins: [LoadedColumnsPlugin] } as never);
  const Thing = builder.objectRef<Row>("Thing").implement({
    fields: (t) => ({
      name: t.string({ nullable: true, extensions: { [LOADED_COLUMN]: "name" }, resolve: fallback }),
      unmarked: t.string({ resolve: () => "resolver ran" }),
    }),
  });
  builder.queryType({ fields: (t) => ({ things: t.field({ type: [Thing], resolve: () => [{ name: "loaded" }, { name: null }, {}] }) }) });
  return builder.toSchema();
}

it("answers a loaded column from the row, null included, and hands an absent one to the resolver", async () => {
  const fallbackRows: Row[] = [];
  const schema = schemaWith((row) => {
    fallbackRows.push(row);
    return "fetched";
  });
  const result = await execute({ schema, document: parse("{ things { name unmarked } }"), contextValue: {} });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({
    things: [
      { name: "loaded", unmarked: "resolver ran" },
      { name: null, unmarked: "resolver ran" },
      { name: "fetched", unmarked: "resolver ran" },
    ],
  });
  // Only the row loaded without the column reached the resolver.
  expect(fallbackRows).toEqual([{}]);
});
