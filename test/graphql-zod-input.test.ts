// The zod → GraphQL input mapping (src/graphql/zod-input.ts) on inputs whose schemas are known,
// and GraphQL's own findings in the contract's words (src/graphql/input-check.ts).
import { getNamedType, GraphQLEnumType, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLString, isEnumType, isInputObjectType, isNonNullType, type GraphQLInputType } from "graphql";
import { describe, expect, it } from "vitest";
import { getSchema } from "../src/platform/schema.js";
import { inputIssues } from "../src/graphql/input-check.js";

const schema = getSchema();

function inputType(name: string): GraphQLInputObjectType {
  const type = schema.getType(name);
  if (!isInputObjectType(type)) throw new Error(`${name} is not an input object type`);
  return type;
}

describe("zod → GraphQL inputs", () => {
  it("maps an API key's create schema field by field", () => {
    const fields = inputType("ApiKeyCreateInput").getFields();
    // Nothing is required: every field is optional in the schema.
    expect(Object.values(fields).some((field) => isNonNullType(field.type))).toBe(false);
    expect(String(fields.name!.type)).toBe("String");
    // A positive integer without an upper bound is beyond 32 bits: Float, said to be an integer.
    expect(String(fields.quota_limit!.type)).toBe("Float");
    expect(fields.quota_limit!.description).toMatch(/integer/i);
    // An ISO date-time stays a String (the DateTime scalar would hand the schema a Date).
    expect(String(fields.expires_at!.type)).toBe("String");
    expect(fields.expires_at!.description).toMatch(/ISO 8601/);
    const preset = getNamedType(fields.preset!.type);
    expect(isEnumType(preset) && preset.getValues().map((value) => value.name).sort()).toEqual(["automation", "content_editor", "full_access", "read_only"]);
    expect(String(fields.ip_allowlist!.type)).toBe("[String!]");
    const limits = getNamedType(fields.rate_limits!.type);
    expect(isInputObjectType(limits) && Object.keys(limits.getFields())).toEqual(expect.arrayContaining(["minute", "hour", "day"]));
  });

  it("makes a field required only when the schema requires it without a default", () => {
    const recover = inputType("WebhookRecoverInput").getFields();
    expect(String(recover.since!.type)).toBe("String!");
    const create = inputType("WebhookEndpointCreateInput").getFields();
    expect(String(create.url!.type)).toBe("String!");
    expect(String(create.events!.type)).toBe("[String!]!");
    expect(String(create.description!.type)).toBe("String");
    // A default makes a field optional; the description gives the default.
    const output = inputType("RendersCreateOutputInput").getFields();
    expect(isNonNullType(output.resolution!.type)).toBe(false);
    expect(output.resolution!.description).toMatch(/Defaults to "1080"/);
  });

  it("keeps JSON values (records, unions, z.json()) as the JSON scalar, saying what they hold", () => {
    const video = inputType("VideoCreateInput").getFields();
    expect(String(video.video_json!.type)).toBe("JSON");
    expect(video.video_json!.description).toMatch(/JSON/);
    expect(String(inputType("RendersCreateInput").getFields().merge!.type)).toBe("JSON");
  });
});

describe("inputIssues", () => {
  const color = new GraphQLEnumType({ name: "Colour", values: { red: { value: "red" }, green: { value: "green" } } });
  const type: GraphQLInputType = new GraphQLNonNull(
    new GraphQLInputObjectType({
      name: "Paint",
      fields: { name: { type: new GraphQLNonNull(GraphQLString) }, coats: { type: GraphQLInt }, colour: { type: color }, tags: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) } },
    }),
  );

  it("finds nothing in a value GraphQL takes", () => {
    expect(inputIssues({ name: "x", coats: 2, colour: "red", tags: ["a"] }, type)).toEqual([]);
    // A single value for a list is a list of one, as GraphQL coerces it.
    expect(inputIssues({ name: "x", tags: "a" }, type)).toEqual([]);
  });

  it("says what GraphQL refuses in the contract's words", () => {
    expect(inputIssues({ nme: "x" }, type)).toEqual([
      { path: "nme", message: "Unknown field 'nme'. Did you mean 'name'?", type: "object.unknown", allowed: ["name", "coats", "colour", "tags"], did_you_mean: "name" },
      { path: "name", message: "This field is required.", type: "any.required" },
    ]);
    expect(inputIssues({ name: 5, coats: "two", colour: "rde", tags: [1] }, type)).toEqual([
      { path: "name", message: "Expected string.", type: "string.base" },
      { path: "coats", message: "Expected number.", type: "number.base" },
      { path: "colour", message: "Must be one of: red, green. Did you mean 'red'?", type: "any.only", allowed: ["red", "green"], did_you_mean: "red" },
      { path: "tags.0", message: "Expected string.", type: "string.base" },
    ]);
    expect(inputIssues(undefined, type)).toEqual([{ path: "", message: "This field is required.", type: "any.required" }]);
    expect(inputIssues("text", type)).toEqual([{ path: "", message: "The body must be a JSON object.", type: "object.base" }]);
  });
});
