// GraphQL's share of the input rule in src/validation/storable.ts: the values of an operation —
// its variables and the literals written in the document — hold nothing PostgreSQL refuses and
// nest no deeper than JSON bodies may. REST bodies are checked when read (rest/body.ts); this
// covers /graphql, where the same values arrive inside the document or its variables.
import { GraphQLError, Kind, visit, type ASTNode, type DocumentNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import { ApiError } from "../errors/api-error.js";
import { validationFailed } from "../validation/issues.js";
import { assertStorableJson, MAX_JSON_DEPTH, TEXT_PROBLEM_MESSAGES, textProblem } from "../validation/storable.js";

type Ancestors = readonly (ASTNode | readonly ASTNode[])[];

/** A readable path to a literal: field, argument and object field names. */
function literalPath(ancestors: Ancestors, parent: ASTNode | readonly ASTNode[] | undefined, node: ASTNode): string {
  const names: string[] = [];
  for (const ancestor of [...ancestors, parent ?? [], node]) {
    if (Array.isArray(ancestor)) continue;
    const current = ancestor as ASTNode;
    if (current.kind === Kind.FIELD) names.push((current.alias ?? current.name).value);
    if (current.kind === Kind.ARGUMENT || current.kind === Kind.OBJECT_FIELD) names.push(current.name.value);
  }
  return names.join(".");
}

/** Throws the 422 for the first literal PostgreSQL could not store, or one nested too deep. */
function assertStorableLiterals(document: DocumentNode): void {
  let nesting = 0;
  const enterValue = (node: ASTNode, parent: ASTNode | readonly ASTNode[] | undefined, ancestors: Ancestors) => {
    nesting += 1;
    if (nesting > MAX_JSON_DEPTH) {
      throw validationFailed([{ path: literalPath(ancestors, parent, node), message: `Values may nest at most ${MAX_JSON_DEPTH} objects or arrays deep.`, type: "object.depth" }]);
    }
  };
  const leaveValue = () => {
    nesting -= 1;
  };
  visit(document, {
    ObjectValue: { enter: (node, _key, parent, _path, ancestors) => enterValue(node, parent, ancestors), leave: leaveValue },
    ListValue: { enter: (node, _key, parent, _path, ancestors) => enterValue(node, parent, ancestors), leave: leaveValue },
    ObjectField(node, _key, parent, _path, ancestors) {
      const kind = textProblem(node.name.value);
      if (kind) throw validationFailed([{ path: literalPath(ancestors, parent, node), message: TEXT_PROBLEM_MESSAGES[kind], type: kind === "nul" ? "string.nul" : "string.surrogate" }]);
    },
    StringValue(node, _key, parent, _path, ancestors) {
      const kind = textProblem(node.value);
      if (kind) throw validationFailed([{ path: literalPath(ancestors, parent, node), message: TEXT_PROBLEM_MESSAGES[kind], type: kind === "nul" ? "string.nul" : "string.surrogate" }]);
    },
  });
}

/** Documents whose literals passed: yoga hands the same parsed document back for the same text. */
const storableDocuments = new WeakSet<DocumentNode>();

/** Checks an operation's values before it runs; a failure is the operation's only error. */
export function useStorableInput(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      try {
        if (!storableDocuments.has(args.document)) {
          assertStorableLiterals(args.document);
          storableDocuments.add(args.document);
        }
        assertStorableJson(args.variableValues ?? {}, ["variables"]);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        setResultAndStopExecution({ errors: [new GraphQLError(error.message, { originalError: error })] });
      }
    },
  };
}
