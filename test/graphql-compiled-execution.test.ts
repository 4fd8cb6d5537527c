// /graphql runs compiled (graphql-jit, src/graphql-endpoint/compiled-execution.ts), with two guards:
// resolvers see one path object per response path (src/graphql/response-path-plugin.ts), and a
// document with a variable inside a scalar's literal runs on graphql-js, which passes the variables
// to the scalar. The nested-list statement budgets under compiled execution are asserted in
// test/graphql-relations.test.ts.
import SchemaBuilder from "@pothos/core";
import { execute, parse, type GraphQLResolveInfo } from "graphql";
import { compileQuery, isCompiledQuery } from "graphql-jit";
import { describe, expect, it, vi } from "vitest";
import InternedPathsPlugin, { internedPath } from "../src/graphql/response-path-plugin.js";
import { hasVariableInScalarLiteral } from "../src/graphql-endpoint/compiled-execution.js";
import { getSchema } from "../src/platform/schema.js";
import { createFixture, useService } from "./support/service.js";

type Path = GraphQLResolveInfo["path"];

describe("interned response paths", () => {
  const literal = (...keys: (string | number)[]): Path =>
    keys.reduce<Path | undefined>((prev, key) => ({ prev, key, typename: undefined }), undefined) as Path;

  it("gives equal paths built apart one object per request, with shared parents", () => {
    const context = {};
    const first = internedPath(context, literal("folders", "data", 0, "videos"));
    const again = internedPath(context, literal("folders", "data", 0, "videos"));
    const sibling = internedPath(context, literal("folders", "data", 1, "videos"));
    expect(again).toBe(first);
    expect(sibling).not.toBe(first);
    expect(sibling.prev!.prev).toBe(first.prev!.prev);
    expect(internedPath(context, literal("folders", "data"))).toBe(first.prev!.prev);
    // Another request interns its own.
    expect(internedPath({}, literal("folders", "data", 0, "videos"))).not.toBe(first);
  });

  it("hands resolvers under graphql-jit the same parent link graphql-js would, and leaves leaf fields alone", async () => {
    const builder = new SchemaBuilder<{ Context: object }>({ plugins: [InternedPathsPlugin] } as never);
    const seen: Path[] = [];
    const leafPaths: Path[] = [];
    const Child = builder.objectRef<{ n: number }>("Child").implement({
      fields: (t) => ({ n: t.int({ resolve: (row, _args, _context, info) => (leafPaths.push(info.path), row.n) }) }),
    });
    const Item = builder.objectRef<{ n: number }>("Item").implement({
      fields: (t) => ({
        a: t.field({ type: Child, resolve: (row, _args, _context, info) => (seen.push(info.path), row) }),
        b: t.field({ type: Child, resolve: (row, _args, _context, info) => (seen.push(info.path), row) }),
      }),
    });
    builder.queryType({ fields: (t) => ({ items: t.field({ type: [Item], resolve: () => [{ n: 1 }, { n: 2 }] }) }) });
    const schema = builder.toSchema();
    const query = compileQuery(schema, parse("{ items { a { n } b { n } } }"));
    if (!isCompiledQuery(query)) throw new Error("not compiled");
    const result = await query.query(undefined, {}, {});
    expect(result).toEqual({ data: { items: [{ a: { n: 1 }, b: { n: 1 } }, { a: { n: 2 }, b: { n: 2 } }] } });
    const [a0, b0, a1, b1] = seen;
    expect(a0!.prev).toBe(b0!.prev);
    expect(a1!.prev).toBe(b1!.prev);
    expect(a0!.prev).not.toBe(a1!.prev);
    expect(a0!.prev!.prev).toBe(a1!.prev!.prev);
    // A leaf's resolver is not wrapped: its path stays graphql-jit's own literal.
    expect(leafPaths[0]!.prev).not.toBe(a0);
    // graphql-js shares the links already; interning keeps them equal there too.
    seen.length = 0;
    await execute({ schema, document: parse("{ items { a { n } b { n } } }"), contextValue: {} });
    expect(seen[0]!.prev).toBe(seen[1]!.prev);
  });
});

describe("variables inside scalar literals", () => {
  const schema = getSchema();
  const check = (source: string) => hasVariableInScalarLiteral(schema, parse(source));

  it("are found inside a JSON field's literal, not in input objects or whole arguments", () => {
    expect(check(`mutation($f: String!) { create_video(input: { video_name: "x", video_json: { a: [$f] } }) { video_id } }`)).toBe(true);
    expect(check(`mutation($f: String!) { create_video(input: { video_name: "x", folder_ids: [$f] }) { video_id } }`)).toBe(false);
    expect(check(`mutation($i: VideoCreateInput!) { create_video(input: $i) { video_id } }`)).toBe(false);
    expect(check(`query($f: String) { videos(filter: { video_format: { eq: $f } }) { has_more } }`)).toBe(false);
    expect(check(`{ videos(filter: { video_format: { eq: "portrait" } }) { has_more } }`)).toBe(false);
  });
});

describe("/graphql compiled", () => {
  const service = useService();

  it("applies a variable given inside a filter input object", async () => {
    const fixture = await createFixture(service);
    for (const [video_name, video_format] of [["Tall", "portrait"], ["Wide", "landscape"]]) {
      const created = await fixture.client.post("/api/v1/videos", { video_name, video_format });
      expect(created.status).toBe(201);
    }
    const query = `query($format: String) { videos(filter: { video_format: { eq: $format } }) { data { video_name video_format } } }`;
    for (const [format, name] of [["portrait", "Tall"], ["landscape", "Wide"]]) {
      const response = await fixture.client.graphql(query, { format });
      expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
      expect(response.body.data.videos.data).toEqual([{ video_name: name, video_format: format }]);
    }
  });

  it("passes a variable inside a JSON input literal to the input", async () => {
    const fixture = await createFixture(service);
    const folder = await fixture.client.post("/api/v1/folders", { folder_name: "Inbox" });
    expect(folder.status).toBe(201);
    const response = await fixture.client.graphql(
      `mutation($folder: String!) { create_video(input: { video_name: "Filed", folder_ids: [$folder] }) { video_name folder_ids } }`,
      { folder: folder.body.folder_id },
    );
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    expect(response.body.data.create_video).toEqual({ video_name: "Filed", folder_ids: [folder.body.folder_id] });
  });

  it("compiles input literals without graphql-jit's warning about scalars that read variables", async () => {
    const fixture = await createFixture(service);
    const errors = vi.spyOn(console, "error");
    try {
      const response = await fixture.client.graphql(`mutation { create_folder(input: { folder_name: "Literal ${Date.now()}", folder_color: "#ffcc00" }) { folder_name folder_color } }`);
      expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
      expect(response.body.data.create_folder).toMatchObject({ folder_color: "#ffcc00" });
      expect(errors.mock.calls.filter((call) => String(call[0]).includes("Scalar with variable inputs"))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });

  it("reports a failing field with its path and the service envelope", async () => {
    const fixture = await createFixture(service);
    const response = await fixture.client.graphql(`{ video(video_id: "vid_missing") { video_id } }`);
    expect(response.body.data).toBeNull();
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]).toMatchObject({ path: ["video"], extensions: { code: "not_found" } });
    expect(response.body.error).toMatchObject({ code: "not_found" });
  });
});
