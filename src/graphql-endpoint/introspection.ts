// Introspection without a key: what GraphiQL (and codegen, and an IDE plugin) asks first, before
// anyone could paste a key into its headers. The schema is public anyway (the OpenAPI document
// at /docs is served without a key); no field that reads data is answered without one.
import { Kind, OperationTypeNode, parse, type DocumentNode, type SelectionSetNode } from "graphql";
import { withBufferedBody } from "../web/request-body.js";
import type { GraphQLBody } from "./http-request.js";

/** A keyless POST body is read only when it declares a length within this (an introspection query is a few KB). */
const MAX_KEYLESS_BODY = 64 * 1024;

/** Does the selected operation (or the only one) ask only for __schema, __type and __typename? */
export function isIntrospectionOnly(query: string, operationName?: string | null): boolean {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: 5_000 });
  } catch {
    return false;
  }
  const fragments = new Map(document.definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [])));
  const operations = document.definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION ? [definition] : []));
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation || operation.operation !== OperationTypeNode.QUERY) return false;
  const seen = new Set<string>();
  const onlyMeta = (selections: SelectionSetNode): boolean =>
    selections.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value.startsWith("__");
      if (selection.kind === Kind.INLINE_FRAGMENT) return onlyMeta(selection.selectionSet);
      const name = selection.name.value;
      if (seen.has(name)) return true;
      seen.add(name);
      const fragment = fragments.get(name);
      return fragment !== undefined && onlyMeta(fragment.selectionSet);
    });
  return onlyMeta(operation.selectionSet);
}

/**
 * The request, its body buffered, when it is an introspection query sent without any credential;
 * undefined otherwise (it then goes the usual way, and is refused for its missing key).
 */
export async function keylessIntrospection(request: Request, url: URL): Promise<Request | undefined> {
  if (request.method === "GET") {
    const query = url.searchParams.get("query");
    return query && isIntrospectionOnly(query, url.searchParams.get("operationName")) ? request : undefined;
  }
  if (request.method !== "POST") return undefined;
  const declared = Number(request.headers.get("content-length"));
  if (!Number.isInteger(declared) || declared <= 0 || declared > MAX_KEYLESS_BODY) return undefined;
  const buffered = await withBufferedBody(request, MAX_KEYLESS_BODY);
  let body: Partial<GraphQLBody> | undefined;
  try {
    body = JSON.parse(await buffered.clone().text()) as Partial<GraphQLBody>;
  } catch {
    return undefined;
  }
  if (typeof body?.query !== "string" || !isIntrospectionOnly(body.query, body.operationName)) return undefined;
  return buffered;
}
