// The action catalog (src/actions/catalog.ts) against the contract's own tables: the catalog
// document is kept verbatim in test/fixtures/action-catalog.md, parsed here, and every one of its
// 151 actions is compared with allActions() (name, method, scopes, credits, emits, input field names,
// purpose). Then the catalog's own rules: prices, weights, test modes, strict inputs that answer
// 422 object.unknown with `allowed`, the bounds the contract states, and the docs tables.
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  allActions, actionNames, VIDEO_FIELDS, actionByName, actionInputFields, oneOfInputFields, requiredInputFields,
  type ActionDefinition, type ActionPrice,
} from "../src/actions/catalog.js";
import "../src/platform/catalogs.js";
import { ApiError } from "../src/errors/api-error.js";
import { isLiveAction } from "../src/actions/framework/action.js";
import { generatedDocs, withGenerated } from "../src/actions/docs-tables.js";
import { parseOrThrow, type ValidationIssue } from "../src/validation/issues.js";

// ---------------------------------------------------------------------------------------------
// The contract's tables

interface SpecAction {
  name: string;
  method: string;
  scopes: string[];
  credits: boolean;
  emits: string[];
  /** Field names, or the `<video fields>` marker. */
  input: string[] | typeof VIDEO_FIELDS;
  purpose: string;
}

function splitList(cell: string): string[] {
  return cell.split(",").map((item) => item.trim()).filter(Boolean);
}

/** Rows starting with `| ` under a header starting `| Action`, in document order. */
function parseCatalog(markdown: string): SpecAction[] {
  const actions: SpecAction[] = [];
  let header: string[] | undefined;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("| Action")) {
      header = line.trim().slice(1, -1).split("|").map((cell) => cell.trim());
      continue;
    }
    if (!header) continue;
    if (!line.startsWith("|")) {
      header = undefined;
      continue;
    }
    if (!line.startsWith("| ")) continue; // the |---| separator
    const cells = line.trim().slice(1, -1).split("|").map((cell) => cell.trim());
    expect(cells.length, line).toBe(header.length);
    const row = Object.fromEntries(header.map((column, index) => [column, cells[index]!]));
    const inputCell = row["Input fields"]!;
    let input: SpecAction["input"];
    if (inputCell === "none") input = [];
    else if (inputCell === "<video fields>") input = VIDEO_FIELDS;
    else if (inputCell === "same fields as create") {
      const family = row.Action!.split(".")[0]!;
      const create = actions.find((action) => action.name === `${family}.create`);
      expect(create, `${row.Action} refers to ${family}.create`).toBeDefined();
      input = create!.input;
    } else input = splitList(inputCell);
    actions.push({
      name: row.Action!,
      method: row.Method!,
      scopes: splitList(row.Scopes!),
      credits: row.Credits === "yes",
      emits: splitList(row.Emits ?? ""),
      input,
      purpose: row.Purpose ?? row.Notes ?? "",
    });
  }
  return actions;
}

const SPEC = parseCatalog(readFileSync(new URL("./fixtures/action-catalog.md", import.meta.url), "utf8"));

/** Catalog rows whose Notes cell is empty; the declarations give them a purpose of their own. */
const EMPTY_NOTES = ["scripts.insert_paragraph", "scripts.delete_paragraphs"];

const CREDIT_ACTIONS = 67;

function schemaOf(action: ActionDefinition): z.ZodObject {
  if (action.input === VIDEO_FIELDS) throw new Error(`${action.name} takes the video fields`);
  return action.input;
}

function objectInputs(): ActionDefinition[] {
  return allActions().filter((action) => action.input !== VIDEO_FIELDS);
}

/** Runs parseOrThrow and returns the 422 it must throw. */
function rejection(schema: z.ZodType, input: unknown): ApiError {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

function issuesOf(error: ApiError): ValidationIssue[] {
  expect(error.status).toBe(422);
  expect(error.code).toBe("validation_failed");
  expect(error.type).toBe("validation_error");
  expect(error.retryable).toBe(false);
  return (error.details as { issues: ValidationIssue[] }).issues;
}

function accepts(action: string, input: Record<string, unknown>): Record<string, unknown> {
  return parseOrThrow(schemaOf(actionByName(action)!), input);
}

function rejects(action: string, input: Record<string, unknown>): ValidationIssue[] {
  return issuesOf(rejection(schemaOf(actionByName(action)!), input));
}

// ---------------------------------------------------------------------------------------------
// A valid value for every field, built from the JSON schema the framework will publish.

type JsonSchema = {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  minimum?: number;
  minLength?: number;
  minItems?: number;
  items?: JsonSchema;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  $ref?: string;
};

/** A value of the schema: every field at the top (the action's own fields), only the required ones below. */
function sampleOf(schema: JsonSchema, depth = 0): unknown {
  if (schema.$ref) return {}; // z.json(): any JSON value
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sampleOf(schema.anyOf.find((branch) => branch.type !== "null")!, depth);
  switch (schema.type) {
    case "string":
      if (schema.format === "uri") return "https://example.com/page";
      if (schema.format === "date-time") return "2026-11-01T09:00:00Z";
      if (schema.format === "date") return "2026-11-01";
      if (schema.pattern) return "image/png";
      return "x".repeat(Math.max(1, schema.minLength ?? 0));
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sampleOf(schema.items ?? {}, depth + 1));
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([key]) => depth === 0 || (schema.required ?? []).includes(key))
          .map(([key, value]) => [key, sampleOf(value, depth + 1)]),
      );
    default:
      return {};
  }
}

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input" }) as JsonSchema;
}

// ---------------------------------------------------------------------------------------------

describe("the contract's tables (test/fixtures/action-catalog.md)", () => {
  it("hold 151 actions, each named once, 67 of them spending credits", () => {
    expect(SPEC).toHaveLength(151);
    expect(new Set(SPEC.map((action) => action.name)).size).toBe(151);
    expect(SPEC.filter((action) => action.credits)).toHaveLength(CREDIT_ACTIONS);
  });

  it("are the contract's catalog, verbatim (the fixture is pinned by its SHA-256)", () => {
    // The fixture is a copy of contract document 2 (action-catalog.md); a changed contract is copied
    // in whole and this digest updated with it, never edited in place.
    const digest = createHash("sha256").update(readFileSync(new URL("./fixtures/action-catalog.md", import.meta.url))).digest("hex");
    expect(digest).toBe("ae9ecdadaa32fe946626b9d1a22f800a20fbd99e8eb5b7f76a52a275d64d5338");
  });
});

/** A live action whose output is a list page. */
function answersList(action: ActionDefinition): boolean {
  return isLiveAction(action) && "next_cursor" in action.output.shape;
}

/** Inputs beyond the catalog's, each a documented extension (docs/renders.md, "Outputs" and "Merge fields"). */
const INPUT_EXTENSIONS: Readonly<Record<string, readonly string[]>> = { "renders.create": ["merge", "output"], "scripts.set_paragraph_visual": ["src"] };

describe("allActions() matches the contract", () => {
  it("declares the same 151 names, no more and no fewer: families in the catalog's order, names alphabetical within one", () => {
    expect(allActions()).toHaveLength(151);
    expect([...actionNames()].sort()).toEqual(SPEC.map((action) => action.name).sort());
    expect(allActions().filter((action) => action.credits)).toHaveLength(CREDIT_ACTIONS);
    const familyOrder = [...new Set(SPEC.map((action) => action.name.split(".")[0]!))];
    const expected = [...SPEC.map((action) => action.name)].sort((a, b) => familyOrder.indexOf(a.split(".")[0]!) - familyOrder.indexOf(b.split(".")[0]!) || a.localeCompare(b));
    expect(actionNames()).toEqual(expected);
  });

  it.each(SPEC.map((spec) => [spec.name, spec] as const))("%s: method, scopes, credits, emits, input fields, purpose", (name, spec) => {
    const action = actionByName(name);
    expect(action, name).toBeDefined();
    expect(action!.family).toBe(name.split(".")[0]);
    expect(action!.method).toBe(spec.method);
    expect([...action!.scopes]).toEqual(spec.scopes);
    expect(action!.credits).toBe(spec.credits);
    expect([...action!.emits]).toEqual(spec.emits);
    const fields = actionInputFields(action!);
    // The framework adds `cursor` to every action that answers a list (docs/actions.md, "Lists").
    const listed = spec.input !== VIDEO_FIELDS && answersList(action!) ? [...spec.input, "cursor"] : spec.input;
    const expected = INPUT_EXTENSIONS[name] && listed !== VIDEO_FIELDS ? [...listed, ...INPUT_EXTENSIONS[name]] : listed;
    expect(fields === VIDEO_FIELDS ? fields : [...fields]).toEqual(expected);
    if (EMPTY_NOTES.includes(name)) {
      expect(spec.purpose).toBe("");
      expect(action!.purpose.length).toBeGreaterThan(0);
    } else {
      expect(action!.purpose).toBe(spec.purpose);
    }
  });

  it("marks videos.create and videos.update, and only those, with the video fields", () => {
    expect(allActions().filter((action) => action.input === VIDEO_FIELDS).map((action) => action.name)).toEqual([
      "videos.create",
      "videos.update",
    ]);
  });

  it("requires script_id on every script action except list, create, models, voices and ideas", () => {
    const exempt = ["scripts.list", "scripts.create", "scripts.models", "scripts.voices", "scripts.ideas"];
    for (const action of allActions().filter((candidate) => candidate.family === "scripts")) {
      const required = requiredInputFields(action);
      if (exempt.includes(action.name)) expect(required, action.name).not.toContain("script_id");
      else expect(required, action.name).toContain("script_id");
    }
  });

  it("requires what the examples name: renders.create video_id, tools.generate_from_prompt prompt", () => {
    expect(requiredInputFields(actionByName("renders.create")!)).toEqual(["video_id"]);
    expect(requiredInputFields(actionByName("tools.generate_from_prompt")!)).toEqual(["prompt"]);
  });
});

describe("prices, weights and test modes", () => {
  it("gives every credit action a whole positive price and no other action a price", () => {
    for (const action of allActions()) {
      if (action.credits) {
        expect(Number.isInteger(action.price.credits), action.name).toBe(true);
        expect(action.price.credits, action.name).toBeGreaterThanOrEqual(1);
        const fields = actionInputFields(action);
        for (const field of [action.price.unit_field, action.price.times_field]) {
          if (field !== undefined) expect(fields, action.name).toContain(field);
        }
      } else {
        expect(action.price, action.name).toBeUndefined();
      }
    }
  });

  it("puts an execute scope on every action that spends credits", () => {
    for (const action of allActions().filter((candidate) => candidate.credits)) {
      expect(action.scopes.some((scope) => scope.endsWith(":execute")), action.name).toBe(true);
    }
  });

  it("prices the brief's anchors", () => {
    expect(actionByName("renders.create")!.price).toEqual({ credits: 10, per: "call" });
    expect(actionByName("scripts.voice")!.price).toMatchObject({ credits: 2, per: "paragraph", times_field: "takes" });
    expect(actionByName("scripts.film")!.price).toMatchObject({ credits: 3, per: "second" });
    expect(actionByName("images.generate")!.price).toEqual({ credits: 4, per: "item", unit_field: "count" });
    expect(actionByName("scripts.write_from_link")!.price).toEqual({ credits: 2, per: "url", unit_field: "urls" });
    expect(actionByName("scripts.research_all")!.price).toMatchObject({ credits: 2, per: "subject", max_units: 4 });
  });

  it("defaults every count that prices a call, so the units are known before anything runs", () => {
    for (const action of allActions()) {
      if (!action.credits) continue;
      for (const field of [action.price.unit_field, action.price.times_field]) {
        if (field === undefined) continue;
        const schema = schemaOf(action).shape[field] as z.ZodType;
        const parsed = schema.safeParse(undefined);
        // Either required (an array such as urls or paragraph_ids) or defaulted to a number.
        if (parsed.success) expect(typeof parsed.data, `${action.name}.${field}`).toBe("number");
      }
    }
  });

  it("weighs free actions 1 and credit actions 1, 2 or 5", () => {
    for (const action of allActions()) {
      if (action.credits) expect([1, 2, 5], action.name).toContain(action.weight);
      else expect(action.weight, action.name).toBe(1);
    }
    expect(allActions().filter((action) => action.credits && action.weight === 1).map((action) => action.name)).toEqual([
      "publishing.schedule_post",
    ]);
    for (const name of ["renders.create", "images.generate", "scripts.voice", "scripts.film", "music.generate", "timeline.whisper_analyze"]) {
      expect(actionByName(name)!.weight, name).toBe(5);
    }
    for (const name of ["scripts.polish", "scripts.ideas", "faceless.generate_story", "tools.image_to_prompt"]) {
      expect(actionByName(name)!.weight, name).toBe(2);
    }
  });

  it("simulates every action in test mode except flows.execute", () => {
    expect(allActions().filter((action) => action.testMode === "unsupported").map((action) => action.name)).toEqual(["flows.execute"]);
    for (const action of allActions()) expect(["simulate", "unsupported"]).toContain(action.testMode);
  });
});

describe("inputs are strict", () => {
  it.each(objectInputs().map((action) => [action.name, action] as const))(
    "%s rejects an unknown field with 422 object.unknown and allowed",
    (_name, action) => {
      const schema = schemaOf(action);
      const issues = issuesOf(rejection(schema, { zz_not_a_field: 1 }));
      expect(issues).toContainEqual({
        path: "zz_not_a_field",
        message: "Unknown field 'zz_not_a_field'.",
        type: "object.unknown",
        allowed: Object.keys(schema.shape),
      });
    },
  );

  it("answers the catalog's example: tools.generate_from_prompt with `format`", () => {
    const error = rejection(schemaOf(actionByName("tools.generate_from_prompt")!), { prompt: "a red fox at dawn", format: "png" });
    expect(issuesOf(error)).toEqual([
      {
        path: "format",
        message: "Unknown field 'format'.",
        type: "object.unknown",
        allowed: ["prompt", "model", "size", "quality"],
      },
    ]);
    expect(error.param).toBe("format");
  });

  it.each(objectInputs().map((action) => [action.name, action] as const))(
    "%s accepts a value for every field and reports each missing required field",
    (_name, action) => {
      const schema = schemaOf(action);
      const sample = sampleOf(jsonSchemaOf(schema)) as Record<string, unknown>;
      expect(Object.keys(sample)).toEqual(Object.keys(schema.shape));
      expect(() => parseOrThrow(schema, sample)).not.toThrow();
      const required = requiredInputFields(action);
      if (required.length === 0) return;
      const issues = issuesOf(rejection(schema, {}));
      for (const field of required) {
        // A missing field is any.required, whatever rule (type, enum) it would have broken.
        expect(issues, field).toContainEqual(expect.objectContaining({ path: field, type: "any.required" }));
      }
    },
  );

  it("rejects a body that is not an object", () => {
    expect(issuesOf(rejection(schemaOf(actionByName("renders.create")!), ["video_1"]))[0]).toMatchObject({ type: "object.base" });
  });

  it("suggests the field meant, across case and separators", () => {
    const [issue] = rejects("renders.create", { video_id: "video_1", videoFormat: "portrait" });
    expect(issue).toMatchObject({ path: "videoFormat", type: "object.unknown", did_you_mean: "video_format" });
    const issues = rejects("videos.generate_layer_audio", { video_id: "video_1", layer_name: "voice" });
    expect(issues).toContainEqual(expect.objectContaining({ path: "videoId", type: "any.required" }));
    expect(issues).toContainEqual(expect.objectContaining({ path: "video_id", type: "object.unknown", did_you_mean: "videoId" }));
  });
});

describe("bounds the contract states", () => {
  it("scripts.voice: takes 1 to 3, default 1", () => {
    expect(accepts("scripts.voice", { script_id: "s" }).takes).toBe(1);
    expect(accepts("scripts.voice", { script_id: "s", takes: 3 }).takes).toBe(3);
    expect(rejects("scripts.voice", { script_id: "s", takes: 4 })[0]).toMatchObject({ path: "takes", type: "number.max" });
    expect(rejects("scripts.voice", { script_id: "s", takes: 0 })[0]).toMatchObject({ path: "takes", type: "number.min" });
    expect(rejects("scripts.voice", { script_id: "s", takes: 1.5 })[0]).toMatchObject({ path: "takes" });
  });

  it("scripts.pace: rate 0.75 to 3 or null", () => {
    expect(accepts("scripts.pace", { script_id: "s", rate: 0.75 }).rate).toBe(0.75);
    expect(accepts("scripts.pace", { script_id: "s", rate: null }).rate).toBeNull();
    expect(accepts("scripts.pace", { script_id: "s", rate: 3 }).rate).toBe(3);
    expect(rejects("scripts.pace", { script_id: "s", rate: 0.5 })[0]).toMatchObject({ path: "rate", type: "number.min" });
    expect(rejects("scripts.pace", { script_id: "s", rate: 3.5 })[0]).toMatchObject({ path: "rate", type: "number.max" });
  });

  it("scripts.write_from_link: 1 to 4 http(s) URLs", () => {
    const url = "https://example.com/a";
    expect(accepts("scripts.write_from_link", { script_id: "s", urls: [url, url, url, url] }).urls).toHaveLength(4);
    expect(rejects("scripts.write_from_link", { script_id: "s", urls: [] })[0]).toMatchObject({ path: "urls", type: "array.min" });
    expect(rejects("scripts.write_from_link", { script_id: "s", urls: [url, url, url, url, url] })[0]).toMatchObject({ path: "urls", type: "array.max" });
    expect(rejects("scripts.write_from_link", { script_id: "s", urls: ["ftp://example.com/a"] })[0]).toMatchObject({ path: "urls.0", type: "string.url" });
  });

  it("scripts.listen: up to 4 paragraphs; other paragraph lists up to 200", () => {
    expect(accepts("scripts.listen", { script_id: "s", paragraph_ids: ["a", "b", "c", "d"] }).paragraph_ids).toHaveLength(4);
    expect(rejects("scripts.listen", { script_id: "s", paragraph_ids: ["a", "b", "c", "d", "e"] })[0]).toMatchObject({ path: "paragraph_ids", type: "array.max" });
    const many = Array.from({ length: 201 }, (_, index) => `p${index}`);
    expect(rejects("scripts.delete_paragraphs", { script_id: "s", paragraph_ids: many })[0]).toMatchObject({ type: "array.max" });
    expect(accepts("scripts.delete_paragraphs", { script_id: "s", paragraph_ids: many.slice(0, 200) }).paragraph_ids).toHaveLength(200);
  });

  it("enums the notes give: export format, paragraph role, fidelity, style rule kind, video format", () => {
    for (const format of ["txt", "markdown", "srt", "vtt", "teleprompter", "csv", "shotlist", "json"]) {
      accepts("scripts.export", { script_id: "s", format });
    }
    expect(rejects("scripts.export", { script_id: "s", format: "pdf" })[0]).toMatchObject({ path: "format", type: "any.only" });
    for (const role of ["hook", "intro", "body", "transition", "example", "punchline", "cta", "outro"]) {
      accepts("scripts.set_paragraph_role", { script_id: "s", paragraph_ids: ["p"], role });
    }
    expect(rejects("scripts.set_paragraph_role", { script_id: "s", paragraph_ids: ["p"], role: "verse" })[0]).toMatchObject({ type: "any.only" });
    accepts("scripts.write_from_source", { script_id: "s", source_text: "t", fidelity: "close" });
    expect(rejects("scripts.write_from_source", { script_id: "s", source_text: "t", fidelity: "exact" })[0]).toMatchObject({ type: "any.only" });
    expect(rejects("scripts.add_style_rule", { script_id: "s", kind: "required", term: "t" })[0]).toMatchObject({ path: "kind", type: "any.only" });
    accepts("renders.create", { video_id: "v", video_format: "square" });
    expect(rejects("renders.create", { video_id: "v", video_format: "wide" })[0]).toMatchObject({ path: "video_format", type: "any.only" });
  });

  it("counts, limits and pages: count 1 to 10, limit 1 to 100, page 1 or more", () => {
    expect(accepts("images.generate", { agent_id: "a" }).count).toBe(1);
    expect(rejects("images.generate", { agent_id: "a", count: 11 })[0]).toMatchObject({ path: "count", type: "number.max" });
    expect(rejects("renders.list", { limit: 101 })[0]).toMatchObject({ path: "limit", type: "number.max" });
    expect(rejects("renders.list", { limit: 0 })[0]).toMatchObject({ path: "limit", type: "number.min" });
    expect(rejects("account.credit_history", { page: 0 })[0]).toMatchObject({ path: "page", type: "number.min" });
  });

  it("ids are at most 64 characters, URLs at most 4096 and http(s), prompts at most 20,000", () => {
    expect(rejects("renders.delete", { render_id: "r".repeat(65) })[0]).toMatchObject({ path: "render_id", type: "string.max" });
    expect(rejects("renders.delete", { render_id: "" })[0]).toMatchObject({ path: "render_id", type: "string.min" });
    expect(rejects("timeline.whisper_analyze", { audio_url: `https://example.com/${"a".repeat(4096)}` })[0]).toMatchObject({ type: "string.max" });
    expect(rejects("timeline.whisper_analyze", { audio_url: "javascript:alert(1)" })[0]).toMatchObject({ path: "audio_url" });
    accepts("tools.generate_from_prompt", { prompt: "p".repeat(20_000) });
    expect(rejects("tools.generate_from_prompt", { prompt: "p".repeat(20_001) })[0]).toMatchObject({ path: "prompt", type: "string.max" });
  });

  it("at least one of several fields, reported like a missing field", () => {
    expect(rejects("music.generate", { title: "t" })[0]).toMatchObject({ path: "prompt", type: "any.required" });
    accepts("music.generate", { style: "lo-fi" });
    expect(rejects("tools.image_to_prompt", { media_type: "image/png" })[0]).toMatchObject({ path: "image_base64", type: "any.required" });
    accepts("scripts.resolve_note", { script_id: "s", note_id: "n", resolved: false });
  });

  it("every one-of group is enforced", () => {
    for (const action of objectInputs()) {
      const oneOf = oneOfInputFields(action);
      if (oneOf.length === 0) continue;
      const schema = schemaOf(action);
      const sample = sampleOf(jsonSchemaOf(schema)) as Record<string, unknown>;
      const without = Object.fromEntries(Object.entries(sample).filter(([key]) => !oneOf.includes(key)));
      expect(issuesOf(rejection(schema, without)), action.name).toEqual([
        expect.objectContaining({ path: oneOf[0], type: "any.required" }),
      ]);
      for (const field of oneOf) {
        expect(() => parseOrThrow(schema, { ...without, [field]: sample[field] }), `${action.name} ${field}`).not.toThrow();
      }
    }
  });

  it("scripts.set_speaker_voice takes voice_ref null", () => {
    expect(accepts("scripts.set_speaker_voice", { script_id: "s", voice_ref: null }).voice_ref).toBeNull();
  });
});

describe("docs", () => {
  const doc = (name: string) => readFileSync(new URL(`../docs/${name}`, import.meta.url), "utf8");

  /** Table rows whose first cell is a code-quoted action name. */
  function rows(markdown: string): Map<string, string[]> {
    const found = new Map<string, string[]>();
    for (const line of markdown.split("\n")) {
      const match = /^\| `([a-z_]+\.[a-z_]+)` \|/.exec(line);
      if (!match) continue;
      expect(found.has(match[1]!), `${match[1]} listed twice`).toBe(false);
      found.set(match[1]!, line.trim().slice(1, -1).split("|").map((cell) => cell.trim()));
    }
    return found;
  }

  function requiredCell(action: ActionDefinition): string {
    if (action.input === VIDEO_FIELDS) return "video fields";
    const parts = requiredInputFields(action).map((field) => `\`${field}\``);
    const oneOf = oneOfInputFields(action);
    if (oneOf.length) parts.push(`one of ${oneOf.map((field) => `\`${field}\``).join(" / ")}`);
    return parts.join(", ") || "—";
  }

  /** Where the units come from: an input field, "counted" by the service, or "—" for a per-call price. */
  function unitsCell(price: ActionPrice): string {
    const per = price.per ?? "call";
    const base = price.unit_field ? `\`${price.unit_field}\`` : per === "call" ? "—" : "counted";
    return price.times_field ? `${base} × \`${price.times_field}\`` : base;
  }

  it("docs/actions.md and docs/credits.md hold the tables the catalog generates (npm run generate)", () => {
    for (const [file, generated] of Object.entries(generatedDocs())) {
      const current = doc(file);
      expect(withGenerated(current, generated) === current, `docs/${file} is stale: run npm run generate`).toBe(true);
    }
  });

  it("the generated tables list every action once, and every credit action's price", () => {
    const table = rows(doc("actions.md"));
    expect([...table.keys()]).toEqual([...actionNames()]);
    for (const action of allActions()) {
      const [, method, scopes, spends, weight, testMode, required] = table.get(action.name)!;
      expect([method, scopes, spends, Number(weight), testMode], action.name).toEqual([
        action.method, action.scopes.join(", "), action.credits ? "yes" : "no", action.weight, action.testMode,
      ]);
      expect(required, action.name).toBe(requiredCell(action));
    }
    const prices = rows(doc("credits.md"));
    expect([...prices.keys()].sort()).toEqual(allActions().filter((action) => action.credits).map((action) => action.name).sort());
    for (const action of allActions()) {
      if (!action.credits) continue;
      const [, amount, per, unitField] = prices.get(action.name)!;
      expect([Number(amount), per, unitField], action.name).toEqual([action.price.credits, action.price.per ?? "call", unitsCell(action.price)]);
    }
  });
});
