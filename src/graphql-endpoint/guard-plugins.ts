// The guards every GraphQL operation passes on /graphql (docs/security.md): values PostgreSQL can
// store; the document's size limits (tokens, depth, aliases, directives, by graphql-armor); then
// its cost (src/graphql-endpoint/cost.ts), refused past GRAPHQL_LIMITS.maxCost and otherwise charged
// against the key's rate windows before anything runs. Every refusal is the service's envelope
// with a stable code (`invalid_request` + `details.limit`, or `rate_limit_exceeded`), and every
// executed operation reports its cost in `extensions.cost`.
import { GraphQLError, Lexer, Source, TokenKind, type ExecutionResult, type ValidationContext } from "graphql";
import type { Plugin } from "graphql-yoga";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { ApiError } from "../errors/api-error.js";
import { currentRequestContext } from "../context/request-context.js";
import { chargeWeight } from "../guards/weights.js";
import { useStorableInput } from "./storable-input.js";
import { actualCost, estimateCost, UNIT_POINTS, type OperationCost } from "./cost.js";

/** Limits of one GraphQL document (docs/security.md). */
export const GRAPHQL_LIMITS = {
  /** Lexical tokens: bounds parsing before anything else (an introspection query has ~200). */
  maxTokens: 2_000,
  /**
   * Open brackets ({, [, () at once: graphql-js parses recursively, and a few thousand nested list
   * literals overflow its stack well within the token limit. Selections and literals stay far below.
   */
  maxNesting: 100,
  /** Nested selection sets; introspection (`__schema`) is exempt. The schema's deepest real query is 4. */
  maxDepth: 10,
  /** Aliased fields (`__typename` aside): aliases repeat a field without repeating its cost otherwise. */
  maxAliases: 30,
  /** Directives in the whole document. */
  maxDirectives: 20,
  /** Cost points (src/graphql-endpoint/cost.ts): 50 pages of 100 records. */
  maxCost: 5_000,
} as const;

type LimitName = "tokens" | "nesting" | "depth" | "aliases" | "directives" | "cost";

function limitRefusal(limit: LimitName, maximum: number, message: string, found?: number): ApiError {
  return new ApiError("invalid_request", message, {
    param: "query",
    details: { limit, maximum, ...(found !== undefined && { found }) },
    hint: limit === "cost" ? "Ask for smaller pages (limit) or fewer fields per request." : undefined,
  });
}

/** The number armor's message names ("…, found 12."), when it names one. */
function foundIn(message: string): number | undefined {
  const match = /found (\d+)/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** Armor reports through these: a validation rule reports the service's error; the parser throws it. */
function armorRefusal(limit: LimitName, maximum: number) {
  const refusal = (error: GraphQLError) => limitRefusal(limit, maximum, `The document exceeds the ${limit} limit of ${maximum}.`, foundIn(error.message));
  return {
    n: maximum,
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) => {
        const apiError = refusal(error);
        const wrapped = new GraphQLError(apiError.message, { originalError: apiError });
        if (context) context.reportError(wrapped);
        else throw wrapped;
      },
    ],
  };
}

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Refuses a document nested deeper than maxNesting before the recursive parser sees it. The scan
 * lexes iteratively and stops at maxTokens (past it, the token limit refuses the document anyway).
 */
function useNestingLimit(): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        const lexer = new Lexer(typeof source === "string" ? new Source(source) : source);
        let depth = 0;
        try {
          for (let count = 0; count <= GRAPHQL_LIMITS.maxTokens; count++) {
            const token = lexer.advance();
            if (token.kind === TokenKind.EOF) break;
            if (OPENING.has(token.kind)) depth += 1;
            else if (CLOSING.has(token.kind)) depth -= 1;
            if (depth > GRAPHQL_LIMITS.maxNesting) {
              const refusal = limitRefusal("nesting", GRAPHQL_LIMITS.maxNesting, `The document nests brackets deeper than ${GRAPHQL_LIMITS.maxNesting}.`);
              throw new GraphQLError(refusal.message, { originalError: refusal });
            }
          }
        } catch (error) {
          // A lexical error is the parser's to report, with its position.
          if (!(error instanceof GraphQLError) || !(error.originalError instanceof ApiError)) return parseFn(source, options);
          throw error;
        }
        return parseFn(source, options);
      });
    },
  };
}

/** What `extensions.cost` says: points asked for and used, units counted, and the window left. */
function costReport(requested: OperationCost, actual: OperationCost | undefined, units: number) {
  const window = currentRequestContext()?.meter?.tightestWindow();
  return {
    requestedQueryCost: requested.points,
    actualQueryCost: actual?.points ?? 0,
    /** Rate-window units this operation counted, its request's own unit included (actions charge their weight beyond it). */
    chargedUnits: units,
    unitPoints: UNIT_POINTS,
    ...(window && {
      throttleStatus: { window: window.window, maximumAvailable: window.limit, currentlyAvailable: window.remaining, resetAt: window.reset },
    }),
  };
}

function refusedResult(error: ApiError, extensions: Record<string, unknown>): ExecutionResult {
  // A spent window is the request's 429 with Retry-After, as at the door.
  const http = error.code === "rate_limit_exceeded" ? { http: { status: error.status, headers: error.headers } } : {};
  return { errors: [new GraphQLError(error.message, { originalError: error })], extensions: { ...extensions, ...http } };
}

/** Refuses an operation costing more than maxCost; charges the rest against the rate windows. */
function useOperationCost(): Plugin {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const requested = estimateCost(args.schema, args.document, args.operationName, args.variableValues ?? undefined);
      if (!requested) return;
      if (requested.points > GRAPHQL_LIMITS.maxCost) {
        const refusal = limitRefusal("cost", GRAPHQL_LIMITS.maxCost, `The operation would cost ${requested.points} points; at most ${GRAPHQL_LIMITS.maxCost} are allowed.`, requested.points);
        setResultAndStopExecution(refusedResult(refusal, { cost: costReport(requested, undefined, 0) }));
        return;
      }
      // The request already counted one unit at the door; each action field's weight (charged by
      // the action runner) assumes that unit as its own, so each gets one here.
      const units = Math.max(1, requested.units + requested.actions);
      try {
        await chargeWeight(units);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        setResultAndStopExecution(refusedResult(error, { cost: costReport(requested, undefined, 0) }));
        return;
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const actual = actualCost(args.schema, args.document, args.operationName, args.variableValues ?? undefined, result.data);
          setResult({ ...result, extensions: { ...result.extensions, cost: costReport(requested, actual, units) } });
        },
      };
    },
  };
}

export function graphqlGuardPlugins(): Plugin[] {
  return [
    useStorableInput(),
    maxTokensPlugin(armorRefusal("tokens", GRAPHQL_LIMITS.maxTokens)),
    // After the token limit's parser, so it wraps that one.
    useNestingLimit(),
    maxDepthPlugin({ ...armorRefusal("depth", GRAPHQL_LIMITS.maxDepth), ignoreIntrospection: true }),
    maxAliasesPlugin(armorRefusal("aliases", GRAPHQL_LIMITS.maxAliases)),
    maxDirectivesPlugin(armorRefusal("directives", GRAPHQL_LIMITS.maxDirectives)),
    useOperationCost(),
  ];
}
