// An action's input: the catalog's strict schema (or, for `<video fields>`, the videos resource's
// own), from a JSON body (POST) or from query parameters decoded by each field's type (GET).
import { z } from "zod";
import type { ActionDefinition } from "../catalog.js";
import { VIDEO_FIELDS } from "../catalog.js";
import { inputSchema } from "../../resources/input-schema.js";
import { videos } from "../../videos/resource.js";
import { ApiError } from "../../errors/api-error.js";
import { parseOrThrow } from "../../validation/issues.js";

/** The schema an action's input is validated with. */
export function actionSchema(action: ActionDefinition): z.ZodObject {
  if (action.input !== VIDEO_FIELDS) return action.input;
  const fields = inputSchema(videos, action.name === "videos.create" ? "create" : "update");
  // videos.update names the video it changes; videos.create gets a new id.
  return action.name === "videos.update" ? fields.extend({ video_id: z.string().min(1).max(64) }) : fields;
}

export function parseActionInput(action: ActionDefinition, raw: unknown): Record<string, unknown> {
  if (action.input === VIDEO_FIELDS) {
    // The record fields are validated by the videos resource itself (same rules as REST).
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return parseOrThrow(z.strictObject({}), raw);
    if (action.name === "videos.update") parseOrThrow(z.object({ video_id: z.string().min(1).max(64) }), raw);
    return raw as Record<string, unknown>;
  }
  return parseOrThrow(action.input, raw ?? {}) as Record<string, unknown>;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < 10; depth++) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    else return current;
  }
  return current;
}

/**
 * GET actions carry their input in the query string: numbers and booleans as text, arrays as
 * comma-separated values, objects as JSON text. Each value is decoded by its field's type.
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
    if (base instanceof z.ZodNumber) input[name] = raw.trim() === "" ? raw : Number(raw);
    else if (base instanceof z.ZodBoolean) input[name] = raw === "true" ? true : raw === "false" ? false : raw;
    else if (base instanceof z.ZodArray) input[name] = raw === "" ? [] : raw.split(",").map((item) => item.trim());
    else if (base instanceof z.ZodRecord || base instanceof z.ZodObject) {
      try {
        input[name] = JSON.parse(raw);
      } catch {
        throw new ApiError("invalid_request", `${name} takes a JSON object.`, { param: name });
      }
    } else input[name] = raw;
  }
  return input;
}
