// Sparse fieldsets (`fields`) and heavy-field expansion (`expand`) for REST. GraphQL clients pick
// their own selection; for REST, Sofa's generated operation is narrowed before it runs, so the
// SQL (planned from the selection by Pothos) loads only what the response will carry.
import { Kind, type DocumentNode, type FieldNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import { ApiError } from "../src/errors/api-error.js";
import type { ResourceDefinition } from "../src/registry/resource.js";
import { readableFieldNames } from "../src/resources/fields.js";
import { perResource } from "../src/registry/per-resource.js";

export interface RecordSelection {
  /** Response field order: `object`, the id, then the record's fields in model order. */
  order: readonly string[];
  /** Field names to keep; undefined keeps every field. */
  fields?: Set<string>;
  /** Heavy fields to drop (lists leave them out unless expanded). */
  omit: Set<string>;
  /** Path from the root field to the record: [] for a single record, ["data"] for a list. */
  path: string[];
}

function splitList(value: string | null): string[] | undefined {
  if (value === null) return undefined;
  return value.split(",").map((item) => item.trim()).filter(Boolean);
}

export function parseSelection(resource: ResourceDefinition, query: URLSearchParams, isList: boolean): RecordSelection {
  const readable = readableFieldNames(resource);
  const fields = splitList(query.get("fields"));
  const unknownField = fields?.find((name) => !readable.includes(name));
  if (unknownField) {
    throw new ApiError("invalid_request", `'${unknownField}' is not a field of ${resource.name}.`, {
      param: "fields",
      details: { allowed: readable },
    });
  }
  const expand = splitList(query.get("expand")) ?? [];
  const unknownExpand = expand.find((name) => !resource.heavy.includes(name));
  if (unknownExpand) {
    throw new ApiError("invalid_request", `'${unknownExpand}' cannot be expanded on ${resource.name}.`, {
      param: "expand",
      details: { allowed: [...resource.heavy] },
    });
  }
  const keep = fields ? new Set([...fields, resource.idField, "object"]) : undefined;
  // A heavy field named in `fields` counts as asked for.
  const omit = isList ? new Set(resource.heavy.filter((name) => !expand.includes(name) && !fields?.includes(name))) : new Set<string>();
  return { order: fieldOrder(resource), fields: keep, omit, path: isList ? ["data"] : [] };
}

// `deleted` is the deletion confirmation's own field.
const fieldOrder = perResource((resource): readonly string[] => [...new Set(["object", resource.idField, ...readableFieldNames(resource), "deleted"])]);

/** The selection of a write: every field, in order. */
export function fullRecordSelection(resource: ResourceDefinition): RecordSelection {
  return { order: fieldOrder(resource), omit: new Set(), path: [] };
}

const LIST_ORDER = ["object", "data", "has_more", "next_cursor", "total"];

function rank(order: readonly string[], name: string): number {
  const index = order.indexOf(name);
  return index === -1 ? order.length : index;
}

function narrow(selectionSet: SelectionSetNode, path: string[], selection: RecordSelection): SelectionSetNode {
  const [head, ...rest] = path;
  return {
    ...selectionSet,
    selections: selectionSet.selections
      .filter((node) => {
        if (node.kind !== Kind.FIELD || head !== undefined) return true;
        const name = node.name.value;
        // Only the record's own fields: REST carries a referenced id (video_id), never the
        // nested record, which would need the other resource's read scope too.
        return selection.order.includes(name) && !selection.omit.has(name) && (!selection.fields || selection.fields.has(name));
      })
      .sort((a, b) => {
        if (a.kind !== Kind.FIELD || b.kind !== Kind.FIELD) return 0;
        const order = head === undefined ? selection.order : LIST_ORDER;
        return rank(order, a.name.value) - rank(order, b.name.value);
      })
      .map((node) => {
        if (head === undefined || node.kind !== Kind.FIELD || node.name.value !== head || !node.selectionSet) return node;
        return { ...node, selectionSet: narrow(node.selectionSet, rest, selection) } satisfies FieldNode;
      }),
  };
}

/** Narrowed documents kept per operation document; a client's `fields` lists could be endless. */
const NARROWED_PER_DOCUMENT = 256;
const narrowedDocuments = new WeakMap<DocumentNode, Map<string, DocumentNode>>();

function selectionKey(selection: RecordSelection): string {
  const fields = selection.fields ? [...selection.fields].sort().join(",") : "*";
  return `${selection.path.join(".")}|${fields}|${[...selection.omit].sort().join(",")}`;
}

/**
 * Rewrites Sofa's operation so the record carries only the selected fields. The same selection
 * gets the same document object back: graphql-js and Pothos cache their per-field planning on the
 * document's nodes, and a fresh document per request made every request plan anew.
 */
export function narrowDocument(document: DocumentNode, selection: RecordSelection): DocumentNode {
  let known = narrowedDocuments.get(document);
  if (!known) narrowedDocuments.set(document, (known = new Map<string, DocumentNode>()));
  const key = selectionKey(selection);
  let narrowed = known.get(key);
  if (!narrowed) {
    if (known.size >= NARROWED_PER_DOCUMENT) known.clear();
    narrowed = buildNarrowedDocument(document, selection);
    known.set(key, narrowed);
  }
  return narrowed;
}

function buildNarrowedDocument(document: DocumentNode, selection: RecordSelection): DocumentNode {
  return {
    ...document,
    definitions: document.definitions.map((definition) => {
      if (definition.kind !== Kind.OPERATION_DEFINITION) return definition;
      const root = definition.selectionSet.selections[0];
      if (!root || root.kind !== Kind.FIELD || !root.selectionSet) return definition;
      const narrowedRoot: FieldNode = { ...root, selectionSet: narrow(root.selectionSet, selection.path, selection) };
      return { ...definition, selectionSet: { ...definition.selectionSet, selections: [narrowedRoot] } } satisfies OperationDefinitionNode;
    }),
  };
}

/** The record fields a selection returns, in response order (CSV columns). */
export function selectedColumns(resource: ResourceDefinition, selection: RecordSelection): string[] {
  return fieldOrder(resource).filter((name) => name !== "deleted").filter((name) => !selection.omit.has(name) && (!selection.fields || selection.fields.has(name)));
}
