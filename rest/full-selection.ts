// Typed action results answered whole on REST: Sofa selects a field's result only to a fixed depth
// (kept shallow for records, whose relations nest without end), so for operations declared with
// `fullSelection` the REST layer selects every field of the result, nested objects and every
// member of a union included. Action results are trees, so the walk ends.
import {
  Kind, OperationTypeNode, getNamedType, isObjectType, isUnionType, type DocumentNode, type FieldNode, type GraphQLNamedType, type GraphQLSchema,
  type InlineFragmentNode, type OperationDefinitionNode, type SelectionSetNode,
} from "graphql";

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;

function selectionOf(type: GraphQLNamedType, seen: readonly string[]): SelectionSetNode | undefined {
  if (seen.includes(type.name)) throw new Error(`The result type ${type.name} refers to itself; it cannot be selected whole`);
  if (isUnionType(type)) {
    const fragments: InlineFragmentNode[] = type.getTypes().map((member) => ({
      kind: Kind.INLINE_FRAGMENT,
      typeCondition: { kind: Kind.NAMED_TYPE, name: name(member.name) },
      selectionSet: selectionOf(member, [...seen, type.name])!,
    }));
    return { kind: Kind.SELECTION_SET, selections: fragments };
  }
  if (!isObjectType(type)) return undefined;
  const fields: FieldNode[] = Object.values(type.getFields()).map((field) => ({
    kind: Kind.FIELD,
    name: name(field.name),
    selectionSet: selectionOf(getNamedType(field.type), [...seen, type.name]),
  }));
  return { kind: Kind.SELECTION_SET, selections: fields };
}

const cache = new WeakMap<DocumentNode, DocumentNode>();

/** Sofa's operation with its root field's selection replaced by the whole result. */
export function wholeResultDocument(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const known = cache.get(document);
  if (known) return known;
  const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const root = operation?.selectionSet.selections[0];
  const rootType = operation?.operation === OperationTypeNode.MUTATION ? schema.getMutationType() : schema.getQueryType();
  if (!operation || !root || root.kind !== Kind.FIELD || !rootType) return document;
  const field = rootType.getFields()[root.name.value];
  if (!field) return document;
  const whole: DocumentNode = {
    ...document,
    definitions: document.definitions.map((definition) =>
      definition === operation ? { ...operation, selectionSet: { ...operation.selectionSet, selections: [{ ...root, selectionSet: selectionOf(getNamedType(field.type), []) }] } } : definition,
    ),
  };
  cache.set(document, whole);
  return whole;
}
