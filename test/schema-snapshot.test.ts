// The checked-in contracts (schema/schema.graphql, schema/openapi.json) are what the code
// produces, byte for byte, so a change to the API never lands unseen; and the OpenAPI document
// is a valid OpenAPI 3 document describing the routes clients rely on.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { printedContracts } from "../src/platform/contracts.js";
import { API_VERSION } from "../src/config.js";

const SCHEMA_DIR = fileURLToPath(new URL("../schema/", import.meta.url));
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const contracts = printedContracts();

/** Where two texts first differ, for a failure message a person can act on. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split("\n");
  const have = actual.split("\n");
  for (let line = 0; line < Math.max(want.length, have.length); line++) {
    if (want[line] !== have[line]) {
      return `first difference at line ${line + 1}:\n  code produces: ${JSON.stringify(want[line]?.slice(0, 200))}\n  file has:      ${JSON.stringify(have[line]?.slice(0, 200))}`;
    }
  }
  return "the texts differ only in bytes a line split does not show";
}

async function expectUpToDate(file: string, printed: string): Promise<void> {
  const stale = `schema/${file} is stale: run \`npm run generate\` and commit the result`;
  let onDisk: Buffer;
  try {
    onDisk = await readFile(`${SCHEMA_DIR}${file}`);
  } catch {
    expect.fail(`schema/${file} is missing: run \`npm run generate\` and commit the result`);
  }
  const same = onDisk.equals(Buffer.from(printed, "utf8"));
  expect(same, same ? "" : `${stale} (${firstDifference(printed, onDisk.toString("utf8"))})`).toBe(true);
}

describe("checked-in contracts", () => {
  it("schema/schema.graphql is the SDL the code prints", async () => {
    await expectUpToDate("schema.graphql", contracts.sdl);
  });

  it("schema/openapi.json is the OpenAPI document the code prints", async () => {
    await expectUpToDate("openapi.json", contracts.openapi);
  });
});

describe("the OpenAPI document", () => {
  // A fresh parse per use: the validator dereferences the document it is given in place.
  const document = () => JSON.parse(contracts.openapi);

  it("is valid OpenAPI 3", async () => {
    const result = await validate(document());
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(document().openapi).toMatch(/^3\./);
  });

  it("is versioned with the API's date-like version label", () => {
    expect(API_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(document().info.version).toBe(API_VERSION);
  });

  it("does not expose Sofa's own webhook routes", () => {
    const paths = Object.keys(document().paths);
    expect(paths.length).toBeGreaterThan(0);
    // Sofa's own subscription routes are /webhook and /webhook/{id}; our endpoints live under /webhooks.
    expect(paths.filter((path) => /^\/webhook(\/|$)/.test(path))).toEqual([]);
  });

  it("offers exactly list/create on /videos and get/update/POST alias/delete on /videos/{video_id}", () => {
    const { paths } = document();
    const verbs = (path: string) => Object.keys(paths[path] ?? {}).filter((key) => HTTP_METHODS.includes(key)).sort();
    expect(verbs("/videos")).toEqual(["get", "post"]);
    expect(verbs("/videos/{video_id}")).toEqual(["delete", "get", "patch", "post"]);
  });

  it("takes records on create and update as the JSON body, not as an `input` parameter", () => {
    const { paths } = document();
    for (const [path, method] of [["/videos", "post"], ["/videos/{video_id}", "patch"], ["/videos/{video_id}", "post"]] as const) {
      const operation = paths[path][method];
      expect(operation.requestBody?.content?.["application/json"]?.schema, `${method.toUpperCase()} ${path} body`).toBeDefined();
      const names = (operation.parameters ?? []).map((parameter: { name: string; in: string }) => `${parameter.in}:${parameter.name}`);
      expect(names, `${method.toUpperCase()} ${path} parameters`).not.toContain("query:input");
    }
  });

  it("requires a key everywhere except GET /health", () => {
    const doc = document();
    expect(doc.security?.length).toBeGreaterThan(0);
    expect(doc.paths["/health"]?.get).toBeDefined();
    expect(doc.paths["/health"].get.security).toEqual([]);
    for (const [path, item] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (path === "/health" || !HTTP_METHODS.includes(method)) continue;
        expect(operation.security, `${method.toUpperCase()} ${path} must not opt out of security`).not.toEqual([]);
      }
    }
  });
});
