// How the service's JSON scalars (JSON, EmptyInput) read a literal written in a document.
//
// graphql-js hands parseLiteral the document's variables as a second argument. graphql-jit
// (src/graphql-endpoint/compiled-execution.ts) never does, and prints a warning to stderr each time it
// compiles a literal of a scalar whose parseLiteral declares that second parameter. It never gets
// a document with a variable inside a scalar literal (those run on graphql-js), so the variables
// are taken as a rest parameter: the same reading, a declared length of 1, no warning.
import { valueFromASTUntyped, type ValueNode } from "graphql";

export function parseJsonLiteral(node: ValueNode, ...rest: [variables?: Record<string, unknown> | null]): unknown {
  return valueFromASTUntyped(node, rest[0] ?? undefined);
}
