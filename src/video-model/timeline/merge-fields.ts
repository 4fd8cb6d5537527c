// Merge fields: `{{name}}` in any string of a composition (a text, a src, a colour, a font) is a
// placeholder that `renders.create` fills from its `merge` values (docs/renders.md, "Merge
// fields"). Pure functions: list the placeholders of a value, and substitute them. A composition
// is saved with its placeholders (the fields that check a format, colours and sources, let a
// placeholder through: `holdsMergeField`), and parsed in full once they are filled.
import { z } from "zod";
import { validationFailed, type ValidationIssue } from "../../validation/issues.js";

/** `{{ name }}`: a letter or `_` first, then letters, digits, `_`, `-` or `.`; spaces inside the braces are allowed. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]{0,63})\s*\}\}/g;

/** One placeholder where it stands: its name and the dotted path of the string holding it. */
export interface MergeFieldUse {
  name: string;
  path: string;
}

/** The values `renders.create` takes: name → text (numbers and booleans are written as text). */
export const mergeValues = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, "A merge field's name is a letter or _, then letters, digits, _, - or . (at most 64)."), z.union([z.string().max(10_000), z.number(), z.boolean()]))
  .refine((values) => Object.keys(values).length <= 200, { message: "At most 200 merge values.", params: { type: "object.max" } })
  .describe("Values of the composition's {{name}} merge fields, by name.");
export type MergeValues = z.output<typeof mergeValues>;

/** Whether a string holds at least one `{{name}}`. */
export function holdsMergeField(text: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  return PLACEHOLDER.test(text);
}

const joinPath = (prefix: string, key: string | number) => (prefix ? `${prefix}.${key}` : String(key));

/** Every placeholder in the strings of a JSON value (object keys are not read), in document order. */
export function mergeFieldUses(value: unknown, prefix = ""): MergeFieldUse[] {
  const uses: MergeFieldUse[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node === "string") {
      for (const match of node.matchAll(PLACEHOLDER)) uses.push({ name: match[1]!, path });
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, joinPath(path, index)));
    } else if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) walk(item, joinPath(path, key));
    }
  };
  walk(value, prefix);
  return uses;
}

/** The distinct placeholder names of a value, in order of first appearance. */
export function mergeFieldNames(value: unknown): string[] {
  return [...new Set(mergeFieldUses(value).map((use) => use.name))];
}

/**
 * The value with every placeholder whose name has a value replaced by it (a substituted value is
 * not read again for placeholders), and the placeholders left without one.
 */
export function substituteMergeFields(value: unknown, values: Readonly<Record<string, string | number | boolean>>, prefix = ""): { value: unknown; missing: MergeFieldUse[] } {
  const missing: MergeFieldUse[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === "string") {
      return node.replace(PLACEHOLDER, (whole, name: string) => {
        if (Object.hasOwn(values, name)) return String(values[name]);
        missing.push({ name, path });
        return whole;
      });
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, joinPath(path, index)));
    if (node !== null && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item, joinPath(path, key))]));
    return node;
  };
  return { value: walk(value, prefix), missing };
}

/**
 * The composition with its merge fields filled, or a 422 validation_failed with one issue per
 * missing name at `merge.<name>` (its message says where the name is used). `prefix` is the path
 * of the composition in the caller's input, for those messages.
 */
export function fillMergeFields(composition: unknown, values: Readonly<Record<string, string | number | boolean>> = {}, prefix = "composition"): unknown {
  const { value, missing } = substituteMergeFields(composition, values, prefix);
  if (missing.length === 0) return value;
  const byName = new Map<string, string[]>();
  for (const use of missing) byName.set(use.name, [...(byName.get(use.name) ?? []), use.path]);
  const issues: ValidationIssue[] = [...byName].map(([name, paths]) => ({
    path: `merge.${name}`,
    message: `No value for the merge field {{${name}}}, used at ${paths.slice(0, 5).join(", ")}${paths.length > 5 ? ` and ${paths.length - 5} more` : ""}.`,
    type: "any.required",
  }));
  throw validationFailed(issues, `Missing merge values: ${[...byName.keys()].join(", ")}.`);
}
