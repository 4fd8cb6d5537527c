// What a GraphQL operation costs (docs/security.md, "GraphQL cost"), in points and in rate-window
// units, before it runs (requested) and after (actual):
// - a scalar or enum field costs 0 points; an object field 1 plus its selection;
// - a list costs by its size: a field that takes `limit` (every list page) makes the lists under
//   it that many items long — `limit` as given, else the default page size — and each item costs
//   1 plus its selection; the page object itself is free. Lists with no `limit` above them count
//   DEFAULT_PAGE_SIZE items;
// - introspection: `__schema` costs one unit's worth of points, `__type` 1, `__typename` 0;
// - action fields (platform operations tagged `actions`) cost 0: the action runner charges its own
//   weight (src/actions/framework/runner.ts).
// A root field counts as many rate-window units as the REST request it stands for: at least 1, and
// one more per UNIT_POINTS points beyond the first hundred (a page of 100 records is one unit, a page
// of 100 renders with their videos two). So aliases cannot buy many reads, or many writes, for one.
import {
  getNamedType,
  getNullableType,
  getOperationAST,
  isListType,
  isObjectType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../contract.js";
import { platformOperations } from "../registry/operations.js";

/** Points one rate-window unit buys. */
export const UNIT_POINTS = 100;

export interface RootFieldCost {
  /** Response key (alias or name). */
  key: string;
  field: string;
  points: number;
  units: number;
  /** An action field: charged by the action runner, not here. */
  action: boolean;
}

export interface OperationCost {
  points: number;
  /** Units of the non-action root fields. */
  units: number;
  /** How many action fields the operation calls. */
  actions: number;
  fields: RootFieldCost[];
}

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

let actionFieldNames: Set<string> | undefined;

/** `Query.x` / `Mutation.x` of every action field (platform operations tagged `actions`). */
function isActionField(rootType: string, field: string): boolean {
  actionFieldNames ??= new Set(platformOperations().filter((operation) => operation.tag === "actions").map((operation) => `${operation.rootType}.${operation.fieldName}`));
  return actionFieldNames.has(`${rootType}.${field}`);
}

/** The fields a selection set asks for, through fragments (each fragment spread once per set). */
function collectFields(walk: Walk, selectionSet: SelectionSetNode, type: GraphQLObjectType, seen = new Set<string>()): { node: FieldNode; parent: GraphQLObjectType }[] {
  const fields: { node: FieldNode; parent: GraphQLObjectType }[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      fields.push({ node: selection, parent: type });
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : type;
      fields.push(...collectFields(walk, selection.selectionSet, isObjectType(condition) ? condition : type, seen));
    } else {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      if (!fragment || seen.has(name)) continue;
      seen.add(name);
      const condition = walk.schema.getType(fragment.typeCondition.name.value);
      fields.push(...collectFields(walk, fragment.selectionSet, isObjectType(condition) ? condition : type, seen));
    }
  }
  return fields;
}

/** The page size a field with a `limit` argument asks for, within the bounds the resolver enforces. */
function limitOf(walk: Walk, node: FieldNode): number | undefined {
  const argument = node.arguments?.find((candidate) => candidate.name.value === "limit");
  let value: unknown;
  if (!argument) value = undefined;
  else if (argument.value.kind === Kind.INT) value = Number(argument.value.value);
  else if (argument.value.kind === Kind.VARIABLE) value = walk.variables[argument.value.name.value];
  if (typeof value !== "number" || !Number.isFinite(value)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(value)));
}

function takesLimit(definition: GraphQLField<unknown, unknown>): boolean {
  return definition.args.some((argument) => argument.name === "limit");
}

/** Points of a field's own cost when introspecting (never walked into). */
function introspectionPoints(name: string): number | undefined {
  if (name === "__typename") return 0;
  if (name === "__schema") return UNIT_POINTS;
  if (name === "__type") return 1;
  return undefined;
}

/** Estimated points of a selection set, lists counted at `listSize` items. */
function estimateSelection(walk: Walk, selectionSet: SelectionSetNode | undefined, type: GraphQLObjectType, listSize: number): number {
  if (!selectionSet) return 0;
  let points = 0;
  for (const { node, parent } of collectFields(walk, selectionSet, type)) points += estimateField(walk, node, parent, listSize);
  return points;
}

function estimateField(walk: Walk, node: FieldNode, parent: GraphQLObjectType, listSize: number): number {
  const introspection = introspectionPoints(node.name.value);
  if (introspection !== undefined) return introspection;
  const definition = parent.getFields()[node.name.value];
  if (!definition) return 0;
  const named = getNamedType(definition.type);
  if (!isObjectType(named)) return 0;
  if (takesLimit(definition)) return estimateSelection(walk, node.selectionSet, named, limitOf(walk, node) ?? DEFAULT_PAGE_SIZE);
  const perItem = 1 + estimateSelection(walk, node.selectionSet, named, DEFAULT_PAGE_SIZE);
  return isListType(getNullableType(definition.type)) ? listSize * perItem : perItem;
}

/**
 * The fields of a selection set, collected once per set and type: the result walk visits the same
 * set for every row of a list. A set belongs to one document, whose fragments never change.
 */
const collected = new WeakMap<SelectionSetNode, Map<string, { node: FieldNode; parent: GraphQLObjectType }[]>>();

function fieldsOf(walk: Walk, selectionSet: SelectionSetNode, type: GraphQLObjectType): { node: FieldNode; parent: GraphQLObjectType }[] {
  let byType = collected.get(selectionSet);
  if (!byType) collected.set(selectionSet, (byType = new Map<string, { node: FieldNode; parent: GraphQLObjectType }[]>()));
  let fields = byType.get(type.name);
  if (!fields) byType.set(type.name, (fields = collectFields(walk, selectionSet, type)));
  return fields;
}

/** Points of what a selection set actually returned: lists counted at their real length. */
function actualSelection(walk: Walk, selectionSet: SelectionSetNode | undefined, type: GraphQLObjectType, value: unknown): number {
  if (!selectionSet || value === null || typeof value !== "object") return 0;
  let points = 0;
  for (const { node, parent } of fieldsOf(walk, selectionSet, type)) {
    const key = (node.alias ?? node.name).value;
    points += actualField(walk, node, parent, (value as Record<string, unknown>)[key]);
  }
  return points;
}

/** The object type a field returns (through lists and non-null), or null for a leaf; once per field. */
const objectTypes = new WeakMap<GraphQLField<unknown, unknown>, GraphQLObjectType | null>();

function objectTypeOf(definition: GraphQLField<unknown, unknown>): GraphQLObjectType | null {
  let type = objectTypes.get(definition);
  if (type === undefined) {
    const named = getNamedType(definition.type);
    objectTypes.set(definition, (type = isObjectType(named) ? named : null));
  }
  return type;
}

function actualField(walk: Walk, node: FieldNode, parent: GraphQLObjectType, value: unknown): number {
  if (value === undefined || value === null) return 0;
  const introspection = introspectionPoints(node.name.value);
  if (introspection !== undefined) return introspection;
  const definition = parent.getFields()[node.name.value];
  if (!definition) return 0;
  const named = objectTypeOf(definition);
  if (!named) return 0;
  if (takesLimit(definition)) return actualSelection(walk, node.selectionSet, named, value);
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + (item === null ? 0 : 1 + actualSelection(walk, node.selectionSet, named, item)), 0);
  return 1 + actualSelection(walk, node.selectionSet, named, value);
}

function unitsOf(points: number): number {
  return Math.max(1, Math.ceil(points / UNIT_POINTS));
}

function rootOf(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLObjectType | undefined {
  return (operation.operation === OperationTypeNode.MUTATION ? schema.getMutationType() : operation.operation === OperationTypeNode.SUBSCRIPTION ? schema.getSubscriptionType() : schema.getQueryType()) ?? undefined;
}

function walkOf(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined): Walk {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  return { schema, fragments, variables: variables ?? {} };
}

function summarise(rootType: GraphQLObjectType, fields: { node: FieldNode; points: number }[]): OperationCost {
  const costs = fields.map(({ node, points }): RootFieldCost => {
    const action = isActionField(rootType.name, node.name.value);
    const free = action || node.name.value === "__typename";
    return { key: (node.alias ?? node.name).value, field: node.name.value, points: action ? 0 : points, units: free ? 0 : unitsOf(points), action };
  });
  return {
    points: costs.reduce((sum, field) => sum + field.points, 0),
    units: costs.reduce((sum, field) => sum + field.units, 0),
    actions: costs.filter((field) => field.action).length,
    fields: costs,
  };
}

/** The cost of an operation before it runs, from its document and variables. */
export function estimateCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | undefined): OperationCost | undefined {
  const operation = getOperationAST(document, operationName);
  const root = operation && rootOf(schema, operation);
  if (!operation || !root) return undefined;
  const walk = walkOf(schema, document, variables);
  const fields = collectFields(walk, operation.selectionSet, root).map(({ node, parent }) => ({ node, points: estimateField(walk, node, parent, DEFAULT_PAGE_SIZE) }));
  return summarise(root, fields);
}

/** The cost of what an operation returned (lists at their real length). */
export function actualCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | undefined, data: unknown): OperationCost | undefined {
  const operation = getOperationAST(document, operationName);
  const root = operation && rootOf(schema, operation);
  if (!operation || !root) return undefined;
  const walk = walkOf(schema, document, variables);
  const fields = collectFields(walk, operation.selectionSet, root).map(({ node, parent }) => {
    const value = data !== null && typeof data === "object" ? (data as Record<string, unknown>)[(node.alias ?? node.name).value] : undefined;
    return { node, points: actualField(walk, node, parent, value) };
  });
  return summarise(root, fields);
}
