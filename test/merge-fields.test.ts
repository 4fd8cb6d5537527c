// Merge fields ({{name}}) of a composition: listed, filled, and refused by name when a value is
// missing; a colour holding a placeholder is accepted at save and checked once filled.
import { describe, expect, it } from "vitest";
import { ApiError } from "../src/errors/api-error.js";
import { parseComposition } from "../src/renders/composition.js";
import { compositionShape } from "../src/video-model/timeline/composition.js";
import { fillMergeFields, mergeFieldNames, mergeFieldUses, substituteMergeFields } from "../src/video-model/timeline/merge-fields.js";

const template = {
  duration: 1,
  layers: [
    { type: "color", color: "{{brand}}" },
    { type: "text", text: "Hello {{ name }}, welcome to {{city}}!", color: "{{brand}}" },
  ],
};

function issuesOf(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return ((error as ApiError).details as { issues: { path: string; message: string }[] }).issues;
  }
  throw new Error("expected a 422");
}

describe("merge fields", () => {
  it("lists each placeholder with its path, and the distinct names in order", () => {
    expect(mergeFieldNames(template)).toEqual(["brand", "name", "city"]);
    expect(mergeFieldUses(template, "composition")).toContainEqual({ name: "brand", path: "composition.layers.1.color" });
  });

  it("substitutes every string, keeps what has no value, and does not read substituted text again", () => {
    const { value, missing } = substituteMergeFields(template, { brand: "#FF0000", name: "{{city}}" });
    expect((value as typeof template).layers[1]!.text).toBe("Hello {{city}}, welcome to {{city}}!");
    expect(missing).toEqual([{ name: "city", path: "layers.1.text" }]);
    expect(substituteMergeFields({ n: 3, s: "{{v}}" }, { v: 2.5 }).value).toEqual({ n: 3, s: "2.5" });
  });

  it("saves a composition whose colour is a placeholder, and renders it only once filled", () => {
    expect(compositionShape.safeParse(template).success).toBe(true);
    const parsed = parseComposition(template, { merge: { brand: "red", name: "Ada", city: "Paris" } });
    expect(parsed.layers[0]).toMatchObject({ color: "#FF0000FF" });
    expect(parsed.layers[1]).toMatchObject({ text: "Hello Ada, welcome to Paris!", color: "#FF0000FF" });
  });

  it("is a 422 naming each missing name once, at merge.<name>, with where it is used", () => {
    const issues = issuesOf(() => parseComposition(template, { merge: { name: "Ada" } }));
    expect(issues.map((issue) => issue.path)).toEqual(["merge.brand", "merge.city"]);
    expect(issues[0]!.message).toContain("composition.layers.0.color");
    expect(issues[0]!.message).toContain("composition.layers.1.color");
  });

  it("checks a filled colour as a colour", () => {
    const issues = issuesOf(() => parseComposition(template, { merge: { brand: "not-a-colour", name: "Ada", city: "Paris" } }));
    expect(issues[0]!.path).toBe("composition.layers.0.color");
  });

  it("leaves a composition without placeholders as it is", () => {
    const plain = { duration: 1, layers: [{ type: "text", text: "{not a field} {{ 1bad }}" }] };
    expect(fillMergeFields(plain)).toEqual(plain);
  });
});
