// Refuses a typed input GraphQL would refuse with the error the field itself gives (see
// src/graphql/input-check.ts), on both surfaces: /graphql (yoga) and REST (compiled execution).
//
// Before an operation runs, each root field carrying an InputCheck has its `input` (a variable's
// raw value, a literal, or nothing) checked against the argument's type. The first one GraphQL
// would refuse makes the answer: the field's scope refusal, else its schema's 422, else GraphQL's
// own finding in the same vocabulary; nothing runs, as when graphql-js refuses a variable.
// Literals are refused by graphql-js's validation, before execution: those findings are taken out
// of the validation result (useInputRefusals) so that this check answers them instead.
import {
  getOperationAST,
  GraphQLError,
  isNonNullType,
  Kind,
  OperationTypeNode,
  valueFromAST,
  valueFromASTUntyped,
  type ASTNode,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ApiError } from "../errors/api-error.js";
import { toApiError } from "../errors/envelope.js";
import { missingScopes } from "../auth/scopes.js";
import { insufficientScope } from "../auth/scope-refusal.js";
import type { GraphQLContext } from "../graphql/context.js";
import { graphqlInputRefusal, INPUT_CHECK, inputIssues, type InputCheck } from "../graphql/input-check.js";

const INPUT = "input";

function checkOf(field: GraphQLField<unknown, unknown> | undefined): InputCheck | undefined {
  return field?.extensions?.[INPUT_CHECK] as InputCheck | undefined;
}

/** The root fields of a selection, through fragments. */
function rootFields(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): FieldNode[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(selection.selectionSet, fragments, seen);
    const name = selection.name.value;
    const fragment = fragments.get(name);
    if (!fragment || seen.has(name)) return [];
    seen.add(name);
    return rootFields(fragment.selectionSet, fragments, seen);
  });
}

export interface RawArgument {
  /** The value as sent: a variable's raw value, or a literal read without its type. */
  raw: unknown;
  /** Whether GraphQL refuses it for the argument's type. */
  refused: boolean;
  /** What GraphQL says when the walk over the raw value finds nothing (a literal's own form). */
  literal?: boolean;
}

function rawArgument(field: FieldNode, definition: GraphQLField<unknown, unknown>, name: string, variables: Record<string, unknown>): RawArgument | undefined {
  const argument = definition.args.find((candidate) => candidate.name === name);
  if (!argument) return undefined;
  const node = field.arguments?.find((candidate) => candidate.name.value === name);
  if (!node) return { raw: undefined, refused: isNonNullType(argument.type) };
  if (node.value.kind === Kind.VARIABLE) {
    const raw = variables[node.value.name.value];
    return { raw, refused: inputIssues(raw, argument.type).length > 0 };
  }
  const raw = valueFromASTUntyped(node.value, variables);
  // valueFromAST passes over unknown fields of an object literal; the walk over the value does not.
  return { raw, refused: valueFromAST(node.value, argument.type, variables) === undefined || inputIssues(raw, argument.type).length > 0, literal: true };
}

function argumentValues(field: FieldNode, variables: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries((field.arguments ?? []).map((argument) => [argument.name.value, valueFromASTUntyped(argument.value, variables)]));
}

/** The refusal of one field's input: its scopes, then its own check, then GraphQL's finding. */
async function refusalOf(check: InputCheck, context: GraphQLContext, field: FieldNode, definition: GraphQLField<unknown, unknown>, argument: RawArgument, variables: Record<string, unknown>): Promise<ApiError> {
  let error: ApiError | undefined;
  if (missingScopes(context.auth.scopes, check.scopes).length > 0) error = insufficientScope(context.auth.scopes, check.scopes);
  else {
    try {
      // A missing `input` is judged as REST judges an empty body.
      await check.validate(context, argument.raw ?? {}, argumentValues(field, variables));
    } catch (thrown) {
      error = toApiError(thrown);
    }
  }
  if (!error) {
    const type = definition.args.find((candidate) => candidate.name === INPUT)!.type;
    error = graphqlInputRefusal(argument.raw, type, argument.literal ? "Enum values are written as names, without quotes, in a GraphQL document." : undefined);
  }
  await check.refused?.(context, error).catch(() => undefined);
  return error;
}

/** A root field whose typed input GraphQL would refuse. */
export interface RefusedInput {
  check: InputCheck;
  field: FieldNode;
  definition: GraphQLField<unknown, unknown>;
  argument: RawArgument;
  variables: Record<string, unknown>;
}

/**
 * The first root field of the operation whose typed input GraphQL would refuse, or undefined to
 * run it. Only fields with an InputCheck are looked at: other operations pay one pass over their
 * root fields.
 */
export function findRefusedInput(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variableValues: Readonly<Record<string, unknown>> | null | undefined,
): RefusedInput | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation === OperationTypeNode.SUBSCRIPTION) return undefined;
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return undefined;
  const definitions = rootType.getFields();
  // A variable left out takes its default, as graphql-js gives it.
  const defaults = (operation.variableDefinitions ?? []).filter((definition) => definition.defaultValue);
  const variables = defaults.length === 0
    ? (variableValues ?? {})
    : { ...Object.fromEntries(defaults.map((definition) => [definition.variable.name.value, valueFromASTUntyped(definition.defaultValue!)])), ...variableValues };
  for (const field of rootFields(operation.selectionSet, fragmentsOf(document))) {
    const definition = definitions[field.name.value];
    const check = checkOf(definition);
    if (!definition || !check) continue;
    const argument = rawArgument(field, definition, INPUT, variables);
    if (argument?.refused) return { check, field, definition, argument, variables };
  }
  return undefined;
}

/**
 * The answer of an operation refused for its input: one error, nothing run, and `data: null` as
 * when the same refusal comes from the field while it runs (its type is non-null), so a client
 * sees one shape (and the contract's failure marker) whichever check caught it.
 */
export async function refusedInputResult(refused: RefusedInput, contextValue: unknown): Promise<ExecutionResult> {
  const error = await refusalOf(refused.check, contextValue as GraphQLContext, refused.field, refused.definition, refused.argument, refused.variables);
  return { data: null, errors: [new GraphQLError(error.message, { nodes: [refused.field], originalError: error })] };
}

const fragmentsByDocument = new WeakMap<DocumentNode, Map<string, FragmentDefinitionNode>>();

/** The document's fragments by name (yoga and REST hand the same document object back: built once). */
function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  let fragments = fragmentsByDocument.get(document);
  if (!fragments) fragmentsByDocument.set(document, (fragments = collectFragments(document)));
  return fragments;
}

function collectFragments(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(document.definitions.filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION).map((fragment) => [fragment.name.value, fragment]));
}

/** Whether a node lies inside another (both from the same document). */
function within(inner: ASTNode, outer: ASTNode): boolean {
  return Boolean(inner.loc && outer.loc && inner.loc.start >= outer.loc.start && inner.loc.end <= outer.loc.end);
}

/**
 * Whether a validation error is about the `input` of a root field carrying an InputCheck: a
 * literal of the wrong shape, or the argument left out. Those are answered by refuseInvalidInputs.
 */
function isInputFinding(error: GraphQLError, schema: GraphQLSchema, document: DocumentNode): boolean {
  const nodes = error.nodes ?? [];
  // A field named twice in one literal is the document's fault, not the input's: left as it is.
  if (nodes.length === 0 || error.message.startsWith("There can be only one")) return false;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || definition.operation === OperationTypeNode.SUBSCRIPTION) continue;
    const rootType = schema.getRootType(definition.operation);
    for (const field of rootFields(definition.selectionSet, fragmentsOf(document))) {
      if (!checkOf(rootType?.getFields()[field.name.value])) continue;
      const argument = field.arguments?.find((candidate) => candidate.name.value === INPUT);
      // A literal inside `input`, or the field itself when `input` is missing.
      if (argument && argument.value.kind !== Kind.VARIABLE && nodes.every((node) => within(node, argument.value))) return true;
      if (!argument && nodes.length === 1 && nodes[0] === field && /argument "input" of type .* is required/.test(error.message)) return true;
    }
  }
  return false;
}

/** Input findings of graphql-js's validation for typed action and record inputs, left to the execution check. */
export function withoutInputFindings(errors: readonly GraphQLError[], schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
  if (errors.length === 0 || !errors.every((error) => isInputFinding(error, schema, document))) return errors;
  return [];
}

/** Yoga: validation leaves typed-input findings to the check before execution. */
export const useInputRefusals: Plugin = {
  onValidate({ params }) {
    return ({ result, setResult }) => {
      if (result.length === 0 || !result.every((error) => error instanceof GraphQLError)) return;
      const kept = withoutInputFindings(result, params.schema, params.documentAST);
      if (kept.length !== result.length) setResult([...kept]);
    };
  },
};
