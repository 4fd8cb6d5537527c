// Values in a flow's nodes may refer to what the run knows (docs/flows.md): `{{vars.name}}`, a
// variable; `{{nodes.<id>.<field>}}`, an earlier node's output; `{{item}}`, the element a map node
// is at. A string that is exactly one reference takes the referred value as it is (a number, a
// list); references inside longer text are written out as text.
import { CONDITION_OPERATORS } from "./graph.js";

export interface Scope {
  vars: Record<string, unknown>;
  nodes: Record<string, unknown>;
  item?: unknown;
}

const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/;
const INLINE = /\{\{\s*([\w.-]+)\s*\}\}/g;

export function lookup(scope: Scope, path: string): unknown {
  let value: unknown = scope;
  for (const part of path.split(".")) {
    if (value === null || value === undefined) return undefined;
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
    else if (typeof value === "object") value = (value as Record<string, unknown>)[part];
    else return undefined;
  }
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The value with every reference resolved against the scope. */
export function resolve(value: unknown, scope: Scope): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(scope, whole[1]!);
    return value.replace(INLINE, (_match, path: string) => asText(lookup(scope, path)));
  }
  if (Array.isArray(value)) return value.map((entry) => resolve(entry, scope));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, resolve(entry, scope)]));
  }
  return value;
}

/** A condition node's test. */
export function compare(left: unknown, op: (typeof CONDITION_OPERATORS)[number], right: unknown): boolean {
  switch (op) {
    case "eq":
      return JSON.stringify(left) === JSON.stringify(right);
    case "ne":
      return JSON.stringify(left) !== JSON.stringify(right);
    case "gt":
      return Number(left) > Number(right);
    case "gte":
      return Number(left) >= Number(right);
    case "lt":
      return Number(left) < Number(right);
    case "lte":
      return Number(left) <= Number(right);
    case "contains":
      return Array.isArray(left) ? left.some((entry) => JSON.stringify(entry) === JSON.stringify(right)) : asText(left).includes(asText(right));
    case "exists":
      return left !== undefined && left !== null;
    case "truthy":
      return Boolean(left);
  }
}
