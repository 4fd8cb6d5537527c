// An action's input: the catalog's strict schema (or, for `<video fields>`, the videos resource's
// own), from a JSON body (POST) or from query parameters decoded by each field's type (GET).
import { z } from "zod";
import type { ActionDefinition } from "../catalog.js";
import { VIDEO_FIELDS } from "../catalog.js";
import { id } from "../catalog/define.js";
import { inputSchema, parseRecordInput } from "../../resources/input-schema.js";
import { resourceByName } from "../../registry/resources.js";
import type { ResourceDefinition } from "../../registry/resource.js";
import { ApiError } from "../../errors/api-error.js";
import { parseOrThrow, unwrap } from "../../validation/issues.js";
import { pageSize } from "../../resources/list.js";

/** What an action's input is checked against, resolved once per action. */
interface ResolvedInput {
  /** The full schema (GraphQL, OpenAPI, query-string decoding). */
  schema: z.ZodObject;
  /** What the runner checks before the handler runs. */
  parse(raw: unknown): Record<string, unknown>;
  /** Every check the input meets before the action runs, its handler's included (throws the 422). */
  check(raw: unknown): void;
}

const ANY_OBJECT = z.strictObject({});

/**
 * Accepted though the catalog does not list it: a listing's `cursor` (the opaque `next_cursor`
 * of the page before). An unknown field's `allowed` names the catalog's fields only.
 */
const UNLISTED_FIELDS = ["cursor"];
const NAMES_A_VIDEO = z.object({ video_id: id() });

function catalogInput(schema: z.ZodObject): ResolvedInput {
  const paged = "limit" in schema.shape;
  return {
    schema,
    parse(raw) {
      // A list's page size follows the one rule of every list, with its error (docs/lists.md).
      if (paged && raw !== null && typeof raw === "object" && "limit" in raw && raw.limit !== undefined) {
        pageSize(raw.limit);
      }
      return parseOrThrow(schema, raw ?? {}, { hidden: UNLISTED_FIELDS });
    },
    check(raw) {
      this.parse(raw);
    },
  };
}

/**
 * videos.create / videos.update: the record fields are validated by the videos resource itself
 * (same rules as REST), so the runner only checks the body is an object naming its video.
 */
function videoFieldsInput(action: ActionDefinition): ResolvedInput {
  const updates = action.name === "videos.update";
  // From the catalog, not an import: the framework knows no domain.
  const videos = resourceByName("videos");
  if (!videos) throw new Error(`${action.name} takes the videos resource's fields, and no videos resource is served.`);
  const fields = inputSchema(videos, updates ? "update" : "create");
  return {
    // videos.update names the video it changes; videos.create gets a new id.
    schema: updates ? fields.extend(NAMES_A_VIDEO.shape) : fields,
    parse(raw) {
      if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return parseOrThrow(ANY_OBJECT, raw);
      if (updates) parseOrThrow(NAMES_A_VIDEO, raw);
      return raw as Record<string, unknown>;
    },
    check(raw) {
      parseRecordInput(videos, updates ? "update" : "create", this.parse(raw));
    },
  };
}

const resolved = new WeakMap<ActionDefinition, ResolvedInput>();

function resolveInput(action: ActionDefinition): ResolvedInput {
  let input = resolved.get(action);
  if (!input) {
    input = action.input === VIDEO_FIELDS ? videoFieldsInput(action) : catalogInput(action.input);
    resolved.set(action, input);
  }
  return input;
}

/** The schema an action's input is validated with. */
export function actionSchema(action: ActionDefinition): z.ZodObject {
  return resolveInput(action).schema;
}

export function parseActionInput(action: ActionDefinition, raw: unknown): Record<string, unknown> {
  return resolveInput(action).parse(raw);
}

/**
 * Throws the 422 an input would get before the action does anything, the record rules of
 * videos.create / videos.update included (what a GraphQL-refused input is answered with).
 */
export function checkActionInput(action: ActionDefinition, raw: unknown): void {
  resolveInput(action).check(raw);
}

/** The record whose fields an action takes (videos.create / videos.update), if any. */
export function recordInputOf(action: ActionDefinition): { resource: ResourceDefinition; mode: "create" | "update" } | undefined {
  if (action.input !== VIDEO_FIELDS) return undefined;
  const resource = resourceByName("videos");
  return resource ? { resource, mode: action.name === "videos.update" ? "update" : "create" } : undefined;
}

/**
 * GET actions carry their input in the query string: numbers and booleans as text, arrays as
 * comma-separated values, objects and JSON values as JSON text (a JSON value that does not parse is
 * the string itself). Each value is decoded by its field's type.
 */
export function decodeQueryInput(action: ActionDefinition, query: URLSearchParams): Record<string, unknown> {
  const shape = actionSchema(action).shape as Record<string, z.ZodType>;
  const input: Record<string, unknown> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    if (values.length > 1) throw new ApiError("invalid_request", `${name} may be given once.`, { param: name });
    const raw = values[0]!;
    const field = shape[name];
    if (!field) {
      input[name] = raw; // the schema reports it as unknown, with `allowed`
      continue;
    }
    const base = unwrap(field);
    // Text that is not a number stays text, so the schema reports it (a NaN would travel as null).
    if (base instanceof z.ZodNumber) input[name] = raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    else if (base instanceof z.ZodBoolean) input[name] = raw === "true" ? true : raw === "false" ? false : raw;
    else if (base instanceof z.ZodArray) input[name] = raw === "" ? [] : raw.split(",").map((item) => item.trim());
    else if (base instanceof z.ZodRecord || base instanceof z.ZodObject) {
      try {
        input[name] = JSON.parse(raw);
      } catch {
        throw new ApiError("invalid_request", `${name} takes a JSON object.`, { param: name });
      }
    } else if (base instanceof z.ZodLazy) {
      // A JSON value (`request`, `blocks`, …) as JSON text; text that is not JSON is that string.
      try {
        input[name] = JSON.parse(raw);
      } catch {
        input[name] = raw;
      }
    } else input[name] = raw;
  }
  return input;
}
