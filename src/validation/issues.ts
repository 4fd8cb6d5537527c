// Turns zod's findings into the contract's `details.issues` (section 7): a dotted path, a
// message, and a stable Joi-style type code (documented in docs/errors.md).
import { z } from "zod";
import { ApiError } from "../errors/api-error.js";
import { didYouMean } from "./did-you-mean.js";

export interface ValidationIssue {
  path: string;
  message: string;
  type: string;
  allowed?: string[];
  did_you_mean?: string;
}

type PathKey = PropertyKey;

export function dotted(path: readonly PathKey[]): string {
  return path.map(String).join(".");
}

/** An unknown field at `path` (its parent's path plus the key), with what is allowed there. */
export function unknownFieldIssue(path: readonly PathKey[], key: string, allowed: string[]): ValidationIssue {
  const suggestion = didYouMean(key, allowed);
  return {
    path: dotted([...path, key]),
    message: suggestion ? `Unknown field '${key}'. Did you mean '${suggestion}'?` : `Unknown field '${key}'.`,
    type: "object.unknown",
    allowed,
    ...(suggestion && { did_you_mean: suggestion }),
  };
}

/** A value outside a closed set, with the set and the nearest member to what was sent. */
export function notOneOfIssue(path: readonly PathKey[], given: unknown, allowed: string[]): ValidationIssue {
  const suggestion = typeof given === "string" ? didYouMean(given, allowed) : undefined;
  return {
    path: dotted(path),
    message: `Must be one of: ${allowed.join(", ")}.${suggestion ? ` Did you mean '${suggestion}'?` : ""}`,
    type: "any.only",
    allowed,
    ...(suggestion && { did_you_mean: suggestion }),
  };
}

function valueAt(input: unknown, path: readonly PathKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Strips optional/nullable/default wrappers to reach the schema that does the work. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (let depth = 0; depth < 10; depth++) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
  return current;
}

/** The member of a discriminated union that the input's discriminator value picks. */
function unionMember(schema: z.ZodDiscriminatedUnion, value: unknown): z.ZodType | undefined {
  const discriminator = (schema._zod.def as { discriminator: string }).discriminator;
  const picked = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[discriminator] : undefined;
  return (schema.options as z.ZodType[]).find((option) => option instanceof z.ZodObject && (option.shape as Record<string, z.ZodType>)[discriminator]?._zod.values?.has(picked as never));
}

/** The keys an object schema accepts at a path, for `allowed` on unknown-field issues. */
function allowedKeysAt(schema: z.ZodType, path: readonly PathKey[], input?: unknown): string[] {
  let current = unwrap(schema);
  let value = input;
  for (const key of path) {
    if (current instanceof z.ZodDiscriminatedUnion) {
      const member = unionMember(current, value);
      if (!member) return [];
      current = unwrap(member);
    }
    value = value !== null && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[key] : undefined;
    if (current instanceof z.ZodObject) {
      const next = current.shape[String(key)] as z.ZodType | undefined;
      if (!next) return [];
      current = unwrap(next);
    } else if (current instanceof z.ZodArray) {
      current = unwrap(current.element as z.ZodType);
    } else {
      return [];
    }
  }
  if (current instanceof z.ZodDiscriminatedUnion) current = unwrap(unionMember(current, value) ?? current);
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function typeName(expected: string): string {
  if (expected === "int") return "number";
  return expected;
}

/**
 * What the top-level `allowed` lists besides the schema's own keys: `also` names fields the object
 * takes though the schema strips them first (a record's id and service-set fields, accepted and
 * ignored), `hidden` names keys the schema takes that its documented field list leaves out.
 */
export interface AllowedAdjustment {
  also?: readonly string[];
  hidden?: readonly string[];
}

export function toIssues(error: z.ZodError, schema: z.ZodType, input: unknown, adjust: AllowedAdjustment = {}): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const issue of error.issues) {
    // Whatever rule a missing field broke (a type, an enum, a union), it is reported as missing.
    if (issue.code !== "unrecognized_keys" && issue.code !== "custom" && issue.path.length > 0 && valueAt(input, issue.path) === undefined) {
      issues.push({ path: dotted(issue.path), message: "This field is required.", type: "any.required" });
      continue;
    }
    switch (issue.code) {
      case "unrecognized_keys": {
        const keys = allowedKeysAt(schema, issue.path, input);
        const allowed =
          issue.path.length === 0 ? [...new Set([...keys, ...(adjust.also ?? [])])].filter((key) => !adjust.hidden?.includes(key)) : keys;
        for (const key of issue.keys) issues.push(unknownFieldIssue(issue.path, key, allowed));
        break;
      }
      case "invalid_type": {
        const missing = valueAt(input, issue.path) === undefined;
        issues.push({
          path: dotted(issue.path),
          message: missing ? "This field is required." : `Expected ${issue.expected}.`,
          type: missing ? "any.required" : `${typeName(issue.expected)}.base`,
        });
        break;
      }
      case "invalid_value":
        issues.push({
          path: dotted(issue.path),
          message: `Must be one of: ${issue.values.map(String).join(", ")}.`,
          type: "any.only",
        });
        break;
      case "invalid_union": {
        // A discriminated union whose discriminator (a layer's `type`) names no member.
        const options = (issue as { options?: unknown[] }).options;
        if (!options) {
          issues.push({ path: dotted(issue.path), message: issue.message, type: "any.invalid" });
          break;
        }
        issues.push(notOneOfIssue(issue.path, valueAt(input, issue.path), options.map(String)));
        break;
      }
      case "too_big":
        issues.push({ path: dotted(issue.path), message: issue.message, type: `${issue.origin}.max` });
        break;
      case "too_small":
        issues.push({ path: dotted(issue.path), message: issue.message, type: `${issue.origin}.min` });
        break;
      case "invalid_format":
        issues.push({ path: dotted(issue.path), message: issue.message, type: `string.${issue.format}` });
        break;
      default: {
        // A custom rule may name what it accepts and a near miss (params.allowed, params.did_you_mean).
        const params = ("params" in issue ? issue.params : undefined) as { type?: string; allowed?: string[]; did_you_mean?: string } | undefined;
        issues.push({
          path: dotted(issue.path),
          message: issue.message,
          type: params?.type ?? "any.invalid",
          ...(params?.allowed && { allowed: params.allowed }),
          ...(params?.did_you_mean && { did_you_mean: params.did_you_mean }),
        });
      }
    }
  }
  return issues;
}

export function validationFailed(issues: ValidationIssue[], message?: string): ApiError {
  const first = issues[0];
  return new ApiError("validation_failed", message ?? `Validation failed: ${first ? `${first.path || "body"}: ${first.message}` : "invalid input"}`, {
    param: first?.path || undefined,
    details: { issues },
  });
}

/** Parses input with a schema, or throws a 422 validation_failed with every issue found. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, adjust?: AllowedAdjustment): z.output<S> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw validationFailed([{ path: "", message: "The body must be a JSON object.", type: "object.base" }]);
  }
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailed(toIssues(result.error, schema, input, adjust));
  return result.data;
}
