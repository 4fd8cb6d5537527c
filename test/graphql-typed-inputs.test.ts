// Typed GraphQL inputs (issue 28, part 2): every action and record input is an input object type
// generated from its zod schema, so GraphiQL completes it and codegen types its variables; and a
// wrong input GraphQL now refuses first is answered in the same words as REST's refusal of it.
import { buildClientSchema, getIntrospectionQuery, getNamedType, isEnumType, isInputObjectType, isNonNullType, parse, printSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";
import { getAutocompleteSuggestions, Position } from "graphql-language-service";
import { codegen } from "@graphql-codegen/core";
import * as typescriptPlugin from "@graphql-codegen/typescript";
import * as typescriptOperationsPlugin from "@graphql-codegen/typescript-operations";
import { beforeAll, describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Fixture } from "./support/service.js";

const service = useService();

let fixture: Fixture;
let schema: GraphQLSchema;

beforeAll(async () => {
  fixture = await createFixture(service);
  // The schema as a client sees it: introspected from the running service.
  const answer = await fixture.client.graphql(getIntrospectionQuery({ descriptions: true }));
  expect(answer.status, answer.text).toBe(200);
  schema = buildClientSchema(answer.body.data as IntrospectionQuery);
});

function rootField(rootType: "Query" | "Mutation", name: string) {
  const root = rootType === "Query" ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[name];
  if (!field) throw new Error(`no ${rootType}.${name}`);
  return field;
}

function inputArgument(rootType: "Query" | "Mutation", name: string) {
  const argument = rootField(rootType, name).args.find((candidate) => candidate.name === "input");
  if (!argument) throw new Error(`${name} has no input argument`);
  return argument;
}

describe("introspection", () => {
  it("types every action's input as an input object, required when the action has required fields", () => {
    const actionFields = [schema.getQueryType()!, schema.getMutationType()!].flatMap((root) =>
      Object.values(root.getFields()).filter((field) => field.args.some((argument) => argument.name === "input") && /^[a-z]+(_[a-z0-9]+)+$/.test(field.name)),
    );
    expect(actionFields.length).toBeGreaterThan(150);
    const untyped = actionFields
      .map((field) => ({ field: field.name, type: getNamedType(field.args.find((argument) => argument.name === "input")!.type) }))
      .filter(({ type }) => !isInputObjectType(type) && type.name !== "EmptyInput");
    expect(untyped).toEqual([]);
    // Every input object field says what it is.
    for (const field of actionFields) {
      const type = getNamedType(field.args.find((argument) => argument.name === "input")!.type);
      if (!isInputObjectType(type)) continue;
      const silent = Object.values(type.getFields()).filter((inputField) => !inputField.description);
      expect(silent.map((inputField) => `${type.name}.${inputField.name}`)).toEqual([]);
    }
  });

  it("gives renders.create a required input with a required video_id, enums for closed sets, and descriptions", () => {
    const argument = inputArgument("Mutation", "renders_create");
    expect(isNonNullType(argument.type)).toBe(true);
    const type = getNamedType(argument.type);
    expect(isInputObjectType(type) && type.name).toBe("RendersCreateInput");
    if (!isInputObjectType(type)) return;
    const fields = type.getFields();
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(["video_id", "video_type_id", "video_format", "merge", "output"]));
    expect(isNonNullType(fields.video_id!.type)).toBe(true);
    expect(isNonNullType(fields.video_format!.type)).toBe(false);
    const format = getNamedType(fields.video_format!.type);
    expect(isEnumType(format) && format.getValues().map((value) => value.name).sort()).toEqual(["landscape", "portrait", "square"]);
    // A nested object is an input object of its own, its enums typed, its descriptions kept.
    const output = getNamedType(fields.output!.type);
    expect(isInputObjectType(output)).toBe(true);
    if (!isInputObjectType(output)) return;
    expect(fields.output!.description).toContain("What the render makes");
    expect(isEnumType(getNamedType(output.getFields().format!.type))).toBe(true);
    // Values that are not GraphQL names ("1080", "4k") stay strings, the allowed values said.
    const resolution = output.getFields().resolution!;
    expect(getNamedType(resolution.type).name).toBe("String");
    expect(resolution.description).toMatch(/One of: [a-z0-9, ]*\b1080\b/);
    expect(resolution.description).toMatch(/One of: [a-z0-9, ]*\b4k\b/);
    expect(resolution.description).toMatch(/Defaults to "1080"/);
  });

  it("leaves input optional where the action has no required field", () => {
    expect(isNonNullType(inputArgument("Query", "assets_static_library").type)).toBe(false);
  });

  it("types record create/update inputs, an enum for a closed column, the service-set fields listed as ignored", () => {
    const create = getNamedType(inputArgument("Mutation", "create_video").type);
    const update = getNamedType(inputArgument("Mutation", "update_video").type);
    expect(isInputObjectType(create) && create.name).toBe("VideoCreateInput");
    expect(isInputObjectType(update) && update.name).toBe("VideoUpdateInput");
    if (!isInputObjectType(create) || !isInputObjectType(update)) return;
    const format = getNamedType(create.getFields().video_format!.type);
    expect(isEnumType(format)).toBe(true);
    expect(create.getFields().video_name!.description).toBeTruthy();
    expect(create.getFields().video_id!.description).toBe("Set by the service: ignored when sent.");
    expect(Object.values(update.getFields()).every((field) => !isNonNullType(field.type))).toBe(true);
    const folder = getNamedType(inputArgument("Mutation", "create_folder").type);
    expect(isInputObjectType(folder)).toBe(true);
  });

  it("types key and webhook endpoint inputs", () => {
    expect(getNamedType(inputArgument("Mutation", "create_api_key").type).name).toBe("ApiKeyCreateInput");
    expect(getNamedType(inputArgument("Mutation", "update_api_key").type).name).toBe("ApiKeyUpdateInput");
    const webhook = inputArgument("Mutation", "create_webhook_endpoint");
    expect(isNonNullType(webhook.type)).toBe(true);
    const type = getNamedType(webhook.type);
    expect(isInputObjectType(type) && Object.keys(type.getFields()).sort()).toEqual(["description", "enabled", "events", "url"]);
  });

  it("types status and format fields of results and records as enums", () => {
    const video = schema.getType("Video");
    expect(video && "getFields" in video && isEnumType(getNamedType(video.getFields().video_format!.type))).toBe(true);
  });
});

describe("GraphiQL completion", () => {
  it("suggests the fields of an action's input inside its object literal", () => {
    const text = "mutation { renders_create(input: {  }) { __typename } }";
    const cursor = new Position(0, text.indexOf("{  }") + 2);
    const labels = getAutocompleteSuggestions(schema, text, cursor).map((suggestion) => suggestion.label);
    expect(labels).toEqual(expect.arrayContaining(["video_id", "video_format", "merge", "output"]));
  });

  it("suggests an enum field's values", () => {
    const text = "mutation { renders_create(input: { video_format:  }) { __typename } }";
    const cursor = new Position(0, text.indexOf("video_format: ") + "video_format: ".length);
    const labels = getAutocompleteSuggestions(schema, text, cursor).map((suggestion) => suggestion.label);
    expect(labels).toEqual(expect.arrayContaining(["portrait", "landscape", "square"]));
  });
});

describe("codegen", () => {
  it("types an action's variables as an object with its fields", async () => {
    const output = await codegen({
      schema: parse(printSchema(schema)),
      documents: [{ document: parse("mutation QueueRender($input: RendersCreateInput!) { renders_create(input: $input) { __typename } }") }],
      filename: "types.ts",
      config: {},
      plugins: [{ typescript: {} }, { typescriptOperations: {} }],
      pluginMap: { typescript: typescriptPlugin, typescriptOperations: typescriptOperationsPlugin },
    });
    const variables = /export type QueueRenderMutationVariables = Exact<\{\s*input: (\w+);\s*\}>;/.exec(output);
    expect(variables?.[1], output.slice(-2000)).toBe("RendersCreateInput");
    const inputType = /export type RendersCreateInput = \{([\s\S]*?)\n\};/.exec(output)?.[1] ?? "";
    expect(inputType).toMatch(/video_id: Scalars\['String'\]\['input'\];/);
    expect(inputType).toMatch(/video_format\?: InputMaybe<\w+>;/);
    expect(output).not.toMatch(/RendersCreateInput: \{ input: any/);
  });
});

/** The error of a REST answer and of a GraphQL answer, side by side. */
function restError(answer: ApiResponse) {
  return { status: answer.status, code: answer.body?.error?.code, details: answer.body?.error?.details };
}

function graphqlError(answer: ApiResponse) {
  const extensions = answer.body?.errors?.[0]?.extensions ?? {};
  return { status: answer.status, code: extensions.code, details: extensions.details, topLevel: answer.body?.error?.code };
}

describe("one validation vocabulary", () => {
  const RENDER = "mutation($input: RendersCreateInput!) { renders_create(input: $input) { __typename } }";
  const VIDEO = "mutation($input: VideoCreateInput) { create_video(input: $input) { video_id } }";

  it("answers an unknown field as REST does: 422 validation_failed with path, allowed and did_you_mean", async () => {
    const input = { video_nmae: "typo" };
    const rest = restError(await fixture.client.post("/api/v1/videos", input));
    const graphql = graphqlError(await fixture.client.graphql(VIDEO, { input }));
    expect(rest.status).toBe(422);
    expect(rest.code).toBe("validation_failed");
    expect(rest.details.issues[0]).toMatchObject({ path: "video_nmae", type: "object.unknown", did_you_mean: "video_name" });
    expect(rest.details.issues[0].allowed).toContain("video_name");
    expect(graphql).toEqual({ ...rest, topLevel: "validation_failed" });
  });

  it("answers a value of the wrong type as REST does", async () => {
    const input = { video_name: 42 };
    const rest = restError(await fixture.client.post("/api/v1/videos", input));
    expect(rest.status).toBe(422);
    expect(rest.details.issues[0]).toMatchObject({ path: "video_name" });
    expect(graphqlError(await fixture.client.graphql(VIDEO, { input }))).toEqual({ ...rest, topLevel: "validation_failed" });
  });

  it("answers a missing required field and a missing input as REST answers an empty body", async () => {
    const rest = restError(await fixture.client.post("/api/v1/actions/renders.create", {}));
    expect(rest.status).toBe(422);
    expect(rest.details.issues).toEqual([expect.objectContaining({ path: "video_id", type: "any.required" })]);
    expect(graphqlError(await fixture.client.graphql(RENDER, { input: {} }))).toEqual({ ...rest, topLevel: "validation_failed" });
    expect(graphqlError(await fixture.client.graphql(RENDER))).toEqual({ ...rest, topLevel: "validation_failed" });
    expect(graphqlError(await fixture.client.graphql("mutation { renders_create { __typename } }"))).toEqual({ ...rest, topLevel: "validation_failed" });
  });

  it("records a refused action input as action.failed, once, on both surfaces", async () => {
    const own = await createFixture(service);
    const failures = async () =>
      (await service.service.database.prisma.outboxEvent.findMany({ where: { workspace_id: own.workspaceId, type: "action.failed" } })).map((event) => (event.data as any).object.error.code);
    await own.client.graphql(RENDER, { input: { video_id: "vid_x", nope: 1 } });
    expect(await failures()).toEqual(["validation_failed"]);
    await own.client.post("/api/v1/actions/renders.create", { video_id: "vid_x", nope: 1 });
    expect(await failures()).toEqual(["validation_failed", "validation_failed"]);
  });

  it("answers a wrong literal in the document as the same input in variables", async () => {
    const rest = restError(await fixture.client.post("/api/v1/actions/renders.create", { video_id: "vid_x", video_fromat: "portrait" }));
    expect(rest.details.issues[0]).toMatchObject({ path: "video_fromat", did_you_mean: "video_format" });
    const literal = await fixture.client.graphql('mutation { renders_create(input: { video_id: "vid_x", video_fromat: portrait }) { __typename } }');
    expect(graphqlError(literal)).toEqual({ ...rest, topLevel: "validation_failed" });
    const badEnum = restError(await fixture.client.post("/api/v1/actions/renders.create", { video_id: "vid_x", video_format: "portrai" }));
    expect(badEnum.status).toBe(422);
    expect(graphqlError(await fixture.client.graphql(RENDER, { input: { video_id: "vid_x", video_format: "portrai" } }))).toEqual({ ...badEnum, topLevel: "validation_failed" });
  });

  it("tells a quoted enum value in a document in the same vocabulary", async () => {
    const quoted = graphqlError(await fixture.client.graphql('mutation { create_video(input: { video_format: "portrait" }) { video_id } }'));
    expect(quoted.status).toBe(422);
    expect(quoted.code).toBe("validation_failed");
    expect(quoted.details.issues[0].message).toMatch(/without quotes/);
  });

  it("checks the scope before the input, on both surfaces", async () => {
    const reader = await fixture.newKey({ scopes: ["videos:read"] });
    const rest = restError(await reader.client.post("/api/v1/actions/renders.create", { nope: 1 }));
    expect(rest.status).toBe(403);
    expect(rest.code).toBe("insufficient_scope");
    expect(graphqlError(await reader.client.graphql(RENDER, { input: { nope: 1 } }))).toEqual({ ...rest, topLevel: "insufficient_scope" });
  });

  it("checks a record's ownership before its input on update, as REST does", async () => {
    const input = { video_nmae: "typo" };
    const rest = restError(await fixture.client.patch("/api/v1/videos/vid_doesnotexist000000000", input));
    expect(rest.status).toBe(404);
    const graphql = await fixture.client.graphql('mutation($input: VideoUpdateInput) { update_video(video_id: "vid_doesnotexist000000000", input: $input) { video_id } }', { input });
    expect(graphqlError(graphql)).toEqual({ ...rest, topLevel: "not_found" });
  });

  it("still runs a valid typed input", async () => {
    const created = await fixture.client.graphql('mutation { create_video(input: { video_name: "Typed", video_format: square }) { video_id video_name video_format } }');
    expect(created.body.errors, created.text).toBeUndefined();
    expect(created.body.data.create_video).toMatchObject({ video_name: "Typed", video_format: "square" });
    const rest = await fixture.client.get(`/api/v1/videos/${created.body.data.create_video.video_id}`);
    expect(rest.body.video_format).toBe("square");
  });
});
