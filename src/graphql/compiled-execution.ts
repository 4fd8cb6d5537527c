// Operations run compiled (graphql-jit), once per document and operation name: graphql-js collects
// and completes a selection field by field on every execution, a compiled query is a function
// built once for it. REST's fixed documents and yoga's parsed-document cache hand the same
// document object back for the same operation, so the compilation is paid once. An operation
// graphql-jit cannot compile runs on graphql-js.
import { execute, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import type { Plugin } from "graphql-yoga";
import { getOperationAST, OperationTypeNode } from "graphql";

const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

function compiledQuery(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): CompiledQuery | null {
  let byName = compiled.get(document);
  if (!byName) compiled.set(document, (byName = new Map<string, CompiledQuery | null>()));
  const key = operationName ?? "";
  let query = byName.get(key);
  if (query === undefined) {
    const result = compileQuery(schema, document, operationName);
    query = isCompiledQuery(result) ? result : null;
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

/** Runs one operation compiled, or on graphql-js when it cannot be compiled. */
export function executeCompiled(run: OperationRun): Promise<ExecutionResult> | ExecutionResult {
  const query = compiledQuery(run.schema, run.document, run.operationName);
  return query ? query.query(undefined, run.contextValue, run.variableValues ?? {}) : execute(run);
}

/** Yoga runs queries and mutations compiled; subscriptions stay on graphql-js. */
export const useCompiledExecution: Plugin = {
  onExecute({ args, setExecuteFn }) {
    const { schema, document } = args as ExecutionArgs;
    const operationName = (args as ExecutionArgs).operationName ?? undefined;
    if (getOperationAST(document, operationName)?.operation === OperationTypeNode.SUBSCRIPTION) return;
    const query = compiledQuery(schema, document, operationName);
    if (query) setExecuteFn((run) => query.query(run.rootValue, run.contextValue, (run.variableValues ?? {}) as Record<string, unknown>));
  },
};
