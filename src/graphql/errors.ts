// Maps whatever a GraphQL execution reported to the service's error vocabulary, for both
// surfaces: /graphql puts the envelope in `extensions`, Sofa turns it into the REST envelope.
import { GraphQLError } from "graphql";
import { ApiError } from "../errors/api-error.js";
import { errorEnvelope, findApiError, toApiError } from "../errors/envelope.js";

export function classifyGraphQLError(error: unknown): ApiError {
  const apiError = findApiError(error);
  if (apiError) return apiError;
  // Errors outside any resolver (syntax, validation, variable coercion) are the request's fault,
  // and graphql-js's messages for them are safe to show.
  if (error instanceof GraphQLError && !error.path) {
    // graphql-yoga reports an unparsable body with the JSON SyntaxError as its cause.
    if (error.originalError instanceof SyntaxError) return new ApiError("invalid_json", "The body is not valid JSON.");
    // Yoga's one refusal by verb: a mutation sent with GET.
    if (error.extensions?.http?.status === 405) {
      return new ApiError("method_not_allowed", "Mutations must be sent with POST.", { headers: { Allow: "POST" }, details: { allowed_methods: ["POST"] } });
    }
    return new ApiError("invalid_request", error.message);
  }
  return toApiError(error);
}

/** The GraphQL error a client sees: the envelope's fields in `extensions`, code included. */
export function formatGraphQLError(error: GraphQLError): GraphQLError {
  const apiError = classifyGraphQLError(error);
  const { error: body } = errorEnvelope(apiError);
  // An error outside any field (the request, its document or variables) means nothing ran: the
  // answer takes the error's status instead of 200. Yoga reads `http` and leaves it out of the body.
  const http = error.path ? undefined : { status: apiError.status, ...(apiError.headers && { headers: apiError.headers }) };
  return new GraphQLError(body.message, {
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...body, ...(http && { http }) },
  });
}
