// Operations run compiled (graphql-jit), once per document and operation name: graphql-js collects
// and completes a selection field by field on every execution, a compiled query is a function
// built once for it. REST's documents are fixed objects (one per operation and selection), so
// each compilation is paid once. An operation graphql-jit cannot compile runs on graphql-js.
//
// /graphql stays on graphql-js: under graphql-jit, nested lists were batched into more queries
// (6 statements for folders { videos } instead of 4) and a JSON input scalar given as a variable
// was coerced differently, both caught by the suite.
import { execute, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";

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
