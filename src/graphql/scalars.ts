import { GraphQLScalarType } from "graphql";
import { DateTimeResolver, JSONResolver } from "graphql-scalars";
import { builder } from "./builder.js";
import { parseJsonLiteral } from "./json-literal.js";

/**
 * graphql-scalars' DateTime, answering the ISO string rather than a Date: the printed JSON is the
 * same, but JSON.stringify calls toJSON on every Date it meets, which made printing a page of 25
 * records four times slower (docs/benchmarks.md).
 */
const DateTime = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  serialize(value) {
    const date = DateTimeResolver.serialize(value);
    return date.toISOString();
  },
});

/** graphql-scalars' JSON, reading literals with the service's JSON literal reader (./json-literal.ts). */
const JSON_SCALAR = new GraphQLScalarType({ ...JSONResolver.toConfig(), parseLiteral: parseJsonLiteral });

builder.addScalarType("DateTime", DateTime);
builder.addScalarType("JSON", JSON_SCALAR);
