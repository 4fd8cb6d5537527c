// Building blocks of the action catalog (contract document 2): the definition type, the price,
// weight and test-mode vocabulary, and the field types every action input is made of. The rules
// behind each choice are written down in docs/actions.md and docs/credits.md.
import { z } from "zod";
import type { Scope } from "../../auth/scopes.js";
import { VIDEO_FORMATS } from "../../contract.js";

type ActionMethod = "GET" | "POST";

/** What one unit of a price is. `call` is the default. */
type PriceUnit = "call" | "second" | "item" | "paragraph" | "take" | "url" | "subject";

export const PRICE_UNITS: readonly PriceUnit[] = ["call", "second", "item", "paragraph", "take", "url", "subject"];

/**
 * Price of a credit-spending action: `credits` (a whole number) per unit. Units of one call:
 * - `per` "call" (or absent): 1.
 * - otherwise, with `unit_field`: the parsed value of that input (a number, or an array's length);
 *   without it the service counts the units from the records before it spends (paragraphs voiced,
 *   seconds of recording, pending slides) and that count is what a test key is quoted.
 * - `times_field` multiplies the units by another input number (takes, clips).
 * - `max_units` bounds the units of a call whose count is only known once a model has run; the
 *   balance check and the test-mode quote use the bound, the spend is what ran.
 */
export interface ActionPrice {
  readonly credits: number;
  readonly per?: PriceUnit;
  readonly unit_field?: string;
  readonly times_field?: string;
  readonly max_units?: number;
  /** A pricing rule the fields above cannot carry (shown in docs/credits.md and OpenAPI). */
  readonly note?: string;
}

/**
 * Rate-limit units of one call (docs/guards.md, "Weights"): 5 when the action renders or generates
 * media (image, audio, video, music, lip-sync clip) or runs speech recognition over media; 2 when
 * it runs a text or vision model that returns text, or reads a third-party page; 1 otherwise.
 */
type ActionWeight = 1 | 2 | 5;

/**
 * With an `sk_test_` key: "simulate" runs authentication, scopes, limits, validation and the reads
 * the call depends on, reports the cost, and writes, spends and calls no provider; "unsupported"
 * answers 400 `test_mode_unsupported` after validation (docs/actions.md, "Test mode").
 */
type ActionTestMode = "simulate" | "unsupported";

/** `<video fields>` of the catalog: the framework resolves it to the videos resource's own schema. */
export const VIDEO_FIELDS = "video_fields" as const;
type VideoFieldsMarker = typeof VIDEO_FIELDS;

type ActionInput = z.ZodObject | VideoFieldsMarker;

interface ActionCommon {
  /** `<family>.<name>`, the path segment after /api/v1/actions/. */
  readonly name: string;
  /** The text before the dot. */
  readonly family: string;
  readonly method: ActionMethod;
  /** Every listed scope is required (docs/auth.md). */
  readonly scopes: readonly Scope[];
  /** Events emitted besides `action.completed` / `action.failed`. */
  readonly emits: readonly string[];
  /** Purpose / Notes text of the catalog. */
  readonly purpose: string;
  /** A strict zod object (unknown fields give 422 object.unknown with `allowed`), or the video marker. */
  readonly input: ActionInput;
  readonly weight: ActionWeight;
  readonly testMode: ActionTestMode;
}

export type ActionDefinition = ActionCommon &
  ({ readonly credits: true; readonly price: ActionPrice } | { readonly credits: false; readonly price?: undefined });

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What a family file writes: `family` is derived, `emits` defaults to none, `testMode` to simulate. */
type ActionDeclaration = DistributiveOmit<ActionDefinition, "family" | "emits" | "testMode"> & {
  readonly emits?: readonly string[];
  readonly testMode?: ActionTestMode;
};

export function defineFamily(family: string, declarations: readonly ActionDeclaration[]): readonly ActionDefinition[] {
  return declarations.map((declaration) => {
    const [prefix] = declaration.name.split(".");
    if (prefix !== family) throw new Error(`Action ${declaration.name} is declared in the ${family} family`);
    return Object.freeze({
      ...declaration,
      family,
      emits: Object.freeze([...(declaration.emits ?? [])]),
      testMode: declaration.testMode ?? "simulate",
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Field types (docs/actions.md, "Input types"). Each returns a fresh schema; callers add
// `.optional()` (or `.default(n)` for counts that price a call) where the field is not required.

/** Longest free text of a whole document (a script, a source) — the house plain-text limit. */
export const LONG_TEXT = 100_000;
/** Longest prompt or instruction. */
export const PROMPT_TEXT = 20_000;
/** Longest inline base64 payload; the 5 MiB body limit applies first. */
export const BASE64_TEXT = 7_000_000;

const PARAGRAPH_ROLES = ["hook", "intro", "body", "transition", "example", "punchline", "cta", "outro"] as const;
export const EXPORT_FORMATS = ["txt", "markdown", "srt", "vtt", "teleprompter", "csv", "shotlist", "json"] as const;
export const STYLE_RULE_KINDS = ["banned", "preferred", "spoken"] as const;
export const SOURCE_FIDELITIES = ["close", "loose"] as const;

/** A record or provider identifier. */
export const id = () => z.string().min(1).max(64);
/** An http(s) address. */
export const url = () => z.url({ protocol: /^https?$/ }).max(4096);
/** Free text up to `max` characters (may be empty). */
export const text = (max: number) => z.string().max(max);
/** A prompt, instruction or brief. */
export const prompt = () => z.string().max(PROMPT_TEXT);
/** A name or title. */
export const name = () => z.string().min(1).max(200);
/** A short token whose values the catalog does not list (a preset, a size, a provider). */
export const label = () => z.string().min(1).max(64);
/** A language tag or name (`fr`, `en-US`, `French`). */
export const language = () => z.string().min(1).max(35);
/** A priced model reference (`model_ref`, `model`, `ai_model_id`). */
export const modelRef = () => z.string().min(1).max(128);
export const flag = () => z.boolean();
/** Any JSON value. */
export const json = () => z.json();
/** A JSON object (variables, metadata, settings). */
export const jsonObject = () => z.record(z.string(), z.json());
/** A whole number in [min, max]. */
export const integer = (min: number, max: number) => z.number().int().min(min).max(max);
/** `count` of outputs: 1 to 10. */
export const count = () => integer(1, 10);
/** `limit` of a listing: 1 to 100. */
export const limit = () => integer(1, 100);
/** `page` of a listing: 1 or more. */
export const page = () => z.number().int().min(1).max(1_000_000);
/** `cursor` of a listing: the opaque `next_cursor` of the page before. */
export const cursor = () => z.string().min(1).max(500);
/** `skip` of a listing. */
export const skip = () => z.number().int().min(0).max(1_000_000);
/** An ISO 8601 timestamp with an offset (`2026-11-01T09:00:00Z`). */
export const timestamp = () => z.iso.datetime({ offset: true });
/** An ISO 8601 date or timestamp. */
export const dateOrTimestamp = () => z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
/** Ids of several records, 1 to `max`. */
export const ids = (max: number) => z.array(id()).min(1).max(max);
/** Paragraph ids of a script: 1 to 200 (4 for scripts.listen). */
export const paragraphIds = (max = 200) => ids(max);
export const videoFormat = () => z.enum(VIDEO_FORMATS);
export const paragraphRole = () => z.enum(PARAGRAPH_ROLES);
/** The scripts actions' `request` (meaning not given by the catalog): any JSON value, passed through. */
export const request = () => z.json();
/** Caller-chosen de-duplication string of one model call (same bounds as the Idempotency-Key header). */
export const idempotencyKey = () => z.string().min(1).max(255);

const alternatives = new WeakMap<z.ZodObject, readonly string[]>();

/** The fields of which at least one must be sent (set by requireOneOf), for docs and OpenAPI. */
export function oneOfFields(schema: z.ZodObject): readonly string[] | undefined {
  return alternatives.get(schema);
}

/**
 * At least one of `fields` must be sent (present in the input). The issue is reported on the first
 * of them with type `any.required`, like a missing required field.
 */
export function requireOneOf<T extends z.ZodObject>(schema: T, fields: readonly (keyof z.infer<T> & string)[]): T {
  for (const field of fields) {
    if (!(field in schema.shape)) throw new Error(`requireOneOf: ${field} is not a field of the schema`);
  }
  const refined = schema.superRefine((value, ctx) => {
    const record = value as Record<string, unknown>;
    if (fields.some((field) => record[field] !== undefined)) return;
    ctx.addIssue({
      code: "custom",
      path: [fields[0]!],
      message: `Send at least one of: ${fields.join(", ")}.`,
      params: { type: "any.required" },
    });
  });
  alternatives.set(refined, Object.freeze([...fields]));
  return refined;
}
