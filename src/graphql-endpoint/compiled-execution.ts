// Operations run compiled (graphql-jit), once per document and operation name: graphql-js collects
// and completes a selection field by field on every execution, a compiled query is a function
// built once for it. REST's fixed documents and yoga's parsed-document cache hand the same
// document object back for the same operation, so the compilation is paid once.
//
// Some operations stay on graphql-js:
// - subscriptions (graphql-jit compiles queries and mutations only);
// - documents graphql-jit cannot compile;
// - documents with a variable inside the literal of a scalar (`input: { metadata: { a: $f } }`, a
//   JSON field): graphql-jit parses scalar literals without the variables, so the variable would
//   arrive as null.
// Under graphql-jit every resolver gets a fresh path object; src/graphql/response-path-plugin.ts
// interns them, as plugin-prisma's query plans are found by path identity.
import {
  execute,
  getNullableType,
  getOperationAST,
  isScalarType,
  Kind,
  OperationTypeNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  BREAK,
  type ASTNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import type { Plugin } from "graphql-yoga";
import { findRefusedInput, refusedInputResult } from "./input-refusals.js";

const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

function holdsVariable(node: ASTNode): boolean {
  let found = false;
  visit(node, {
    Variable() {
      found = true;
      return BREAK;
    },
  });
  return found;
}

/** Whether some list or object literal given for a scalar holds a variable (graphql-jit would drop it). */
export function hasVariableInScalarLiteral(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  const inScalar = (node: ASTNode) => {
    // The literal's own type (TypeInfo holds a list's item type inside it): a list of strings is
    // read by graphql-jit item by item, a JSON value as one scalar literal.
    const type = node.kind === Kind.LIST ? typeInfo.getParentInputType() : typeInfo.getInputType();
    if (type && isScalarType(getNullableType(type)) && holdsVariable(node)) {
      found = true;
      return BREAK;
    }
    return undefined;
  };
  visit(document, visitWithTypeInfo(typeInfo, { [Kind.OBJECT]: inScalar, [Kind.LIST]: inScalar }));
  return found;
}

function compiledQuery(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): CompiledQuery | null {
  let byName = compiled.get(document);
  if (!byName) compiled.set(document, (byName = new Map<string, CompiledQuery | null>()));
  const key = operationName ?? "";
  let query = byName.get(key);
  if (query === undefined) {
    query = null;
    const operation = getOperationAST(document, operationName);
    if (operation && operation.operation !== OperationTypeNode.SUBSCRIPTION && !hasVariableInScalarLiteral(schema, document)) {
      const result = compileQuery(schema, document, operationName);
      if (isCompiledQuery(result)) query = result;
    }
    byName.set(key, query);
  }
  return query;
}

export interface OperationRun {
  schema: GraphQLSchema;
  document: DocumentNode;
  contextValue: unknown;
  variableValues?: Record<string, unknown>;
  operationName?: string;
}

/**
 * Runs one operation compiled, or on graphql-js when it cannot be compiled; a typed input GraphQL
 * would refuse is answered with its field's own refusal (./input-refusals.ts).
 */
export function executeCompiled(run: OperationRun): Promise<ExecutionResult> | ExecutionResult {
  const refused = findRefusedInput(run.schema, run.document, run.operationName, run.variableValues);
  if (refused) return refusedInputResult(refused, run.contextValue);
  const query = compiledQuery(run.schema, run.document, run.operationName);
  return query ? query.query(undefined, run.contextValue, run.variableValues ?? {}) : execute(run);
}

/**
 * Yoga runs what can be compiled compiled, the rest on its own executor; a typed input GraphQL
 * would refuse is answered with its field's own refusal (./input-refusals.ts).
 */
export const useCompiledExecution: Plugin = {
  onExecute({ args, setExecuteFn }) {
    const { schema, document, operationName, variableValues } = args as ExecutionArgs;
    const refused = findRefusedInput(schema, document, operationName, variableValues);
    if (refused) {
      setExecuteFn((run) => refusedInputResult(refused, run.contextValue));
      return;
    }
    const query = compiledQuery(schema, document, operationName ?? undefined);
    if (query) setExecuteFn((run) => query.query(run.rootValue, run.contextValue, (run.variableValues ?? {}) as Record<string, unknown>));
  },
};
