// Operations outside the resource table (usage, key management, and later actions and webhooks):
// each is a GraphQL root field declared with the REST route Sofa serves it at. Domain modules add
// theirs when they define the field; rest/ routes, documents and lists them from here.
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface PlatformOperation {
  rootType: "Query" | "Mutation";
  fieldName: string;
  method: HttpMethod;
  /** Sofa path relative to /api/v1, with `:param` placeholders (path params are GraphQL args). */
  path: string;
  /** Every listed scope is needed (checked as field auth on the GraphQL field). */
  scopes: readonly string[];
  successStatus: 200 | 201;
  /**
   * How REST carries the GraphQL arguments besides path params: the JSON body as `input`; query
   * parameters as arguments; query parameters gathered into `input` (GET actions); or nothing.
   */
  input: "body" | "query" | "query_input" | "none";
  /** Query parameters accepted when input is "query" (each a GraphQL argument). */
  queryParams?: readonly string[];
  /** For "query_input": turns the query string into the `input` object (typed by its fields). */
  decodeQuery?(query: URLSearchParams): Record<string, unknown>;
  /** The `input` argument's scalar type and its JSON schema, so OpenAPI describes its fields. */
  inputDoc?: { typeName: string; schema: Record<string, unknown> };
  /** OpenAPI tag. */
  tag: string;
  /** REST answers with every field of the result, nested objects included (actions' typed results). */
  fullSelection?: boolean;
  /** The result is a file: REST answers its bytes unless the client asks for JSON. */
  binary?: boolean;
  /** With `stream: true` in its input, REST answers Server-Sent Events unless the client asks for JSON. */
  streams?: boolean;
  /** The success body's `object` is kept as the field returns it. */
  description: string;
}

const operations: PlatformOperation[] = [];

export function definePlatformOperation(operation: PlatformOperation): PlatformOperation {
  if (operations.some((existing) => existing.fieldName === operation.fieldName)) {
    throw new Error(`Platform operation ${operation.fieldName} is declared twice`);
  }
  operations.push(operation);
  return operation;
}

export function platformOperations(): readonly PlatformOperation[] {
  return operations;
}

/** An operation's path in OpenAPI's notation: `/videos/{video_id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([a-z_]+)/g, "{$1}");
}

export function pathSegments(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** Matches a path's segments against an operation pattern's segments; returns its params. */
export function matchOperationPath(want: readonly string[], have: readonly string[]): Record<string, string> | undefined {
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    const actual = have[index]!;
    if (segment.startsWith(":")) {
      try {
        params[segment.slice(1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (segment !== actual) {
      return undefined;
    }
  }
  return params;
}
