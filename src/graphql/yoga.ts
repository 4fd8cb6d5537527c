// GraphQL over HTTP at /graphql (GraphiQL on). Authentication happens before this handler runs
// (src/http/app.ts), which passes the resolver context in the server context.
import { createYoga, type Plugin } from "graphql-yoga";
import type { ExecutionResult } from "graphql";
import { getSchema } from "./schema.js";
import type { GraphQLContext } from "./context.js";
import { formatGraphQLError } from "./errors.js";
import { graphqlGuardPlugins } from "./guard-plugins.js";
import { GRAPHIQL_OPTIONS, renderGraphiQL } from "./graphiql.js";

export interface YogaServerContext {
  graphqlContext: GraphQLContext;
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

export function createGraphQLHandler() {
  return createYoga<YogaServerContext>({
    schema: getSchema(),
    graphqlEndpoint: "/graphql",
    // Served from the service itself, no CDN (src/graphql/graphiql.ts).
    graphiql: GRAPHIQL_OPTIONS,
    renderGraphiQL,
    landingPage: false,
    // Our own plugin formats every error; yoga's masking would hide the service's codes.
    maskedErrors: false,
    logging: false,
    context: ({ graphqlContext }) => graphqlContext,
    // Input, size and cost guards (src/graphql/guard-plugins.ts; docs/security.md).
    plugins: [useServiceErrors, ...graphqlGuardPlugins()],
  });
}
