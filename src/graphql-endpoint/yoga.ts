// GraphQL over HTTP at /graphql (GraphiQL on). Authentication happens before this handler runs
// (src/http/app.ts), which passes the resolver context in the server context.
import { createYoga, type Plugin } from "graphql-yoga";
import type { ExecutionResult } from "graphql";
import type { GraphQLSchema } from "graphql";
import { useCompiledExecution } from "./compiled-execution.js";
import { useInputRefusals } from "./input-refusals.js";
import type { GraphQLContext } from "../graphql/context.js";
import { formatGraphQLError } from "../graphql/errors.js";
import { graphqlGuardPlugins } from "./guard-plugins.js";
import { GRAPHIQL_OPTIONS, renderGraphiQL } from "./graphiql.js";
import type { GraphQLBody } from "./http-request.js";

export interface YogaServerContext {
  graphqlContext: GraphQLContext;
  /** A POST body already read and checked (src/graphql-endpoint/http-request.ts). */
  graphqlBody?: GraphQLBody;
}

/**
 * Every error carries the service envelope in `extensions`. When nothing could be returned
 * (data null), the first one is also given as a top-level `error`, the contract's failure marker.
 */
function formatResult(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((error) => formatGraphQLError(error));
  const failed = result.data === null || result.data === undefined;
  // `http` (the status of a request-level failure) is for yoga, not part of the envelope.
  const { http: _status, ...envelope } = errors[0]!.extensions;
  return { ...(failed && { error: envelope }), ...result, errors };
}

const useServiceErrors: Plugin<YogaServerContext> = {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- yoga's setResult is a closure over the result, not a method using `this`
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result)) setResult(result.map(formatResult));
    else if (result && typeof result === "object" && !(Symbol.asyncIterator in result)) setResult(formatResult(result as ExecutionResult));
  },
};

/** A POST body checked before yoga runs is not read (nor parsed) a second time. */
const useCheckedBody: Plugin<YogaServerContext> = {
  onRequestParse({ serverContext, setRequestParser }) {
    const body = (serverContext as Partial<YogaServerContext>).graphqlBody;
    if (body) {
      const params = { query: body.query, variables: body.variables ?? undefined, operationName: body.operationName ?? undefined, extensions: body.extensions };
      setRequestParser(() => params);
    }
  },
};

export function createGraphQLHandler(schema: GraphQLSchema) {
  return createYoga<YogaServerContext>({
    schema,
    graphqlEndpoint: "/graphql",
    // Served from the service itself, no CDN (src/graphql-endpoint/graphiql.ts).
    graphiql: GRAPHIQL_OPTIONS,
    renderGraphiQL,
    landingPage: false,
    // Our own plugin formats every error; yoga's masking would hide the service's codes.
    maskedErrors: false,
    logging: false,
    // The body cap is ours, applied before yoga runs (src/web/request-body.ts); yoga reads no body
    // (useCheckedBody), so its own limit would only pipe a stream already read.
    maxRequestBodySize: false,
    context: ({ graphqlContext }) => graphqlContext,
    // Input, size and cost guards (src/graphql-endpoint/guard-plugins.ts; docs/security.md).
    // Typed-input findings of validation are answered by the field's own refusal (./input-refusals.ts).
    plugins: [useServiceErrors, useCheckedBody, ...graphqlGuardPlugins(), useInputRefusals, useCompiledExecution],
  });
}
