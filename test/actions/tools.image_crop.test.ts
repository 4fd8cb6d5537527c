// tools.image_crop, and binary answers: REST sends the cropped image's bytes with their content
// type; GraphQL, REST with Accept: application/json and batch members get a signed link to them;
// a test key's link is a data: link, so it writes nothing. The image is checked with sharp's own
// reading of the bytes we get back.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse } from "../support/service.js";

const service = useService();

type Row = Record<string, any>;  

let png: Buffer;
beforeAll(async () => {
  // 200x100: left half red, right half blue.
  png = await sharp({ create: { width: 200, height: 100, channels: 3, background: "#ff0000" } })
    .composite([{ input: await sharp({ create: { width: 100, height: 100, channels: 3, background: "#0000ff" } }).png().toBuffer(), left: 100, top: 0 }])
    .png()
    .toBuffer();
});

async function bytesOf(response: Response) {
  return Buffer.from(await response.arrayBuffer());
}

async function crop(key: string, body: unknown, accept?: string) {
  return fetch(`${service.url}/api/v1/actions/tools.image_crop`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(accept && { accept }) },
    body: JSON.stringify(body),
  });
}

function refused(response: ApiResponse, code: string): Row {
  expect(response.status, response.text).toBe(422);
  expect(response.body.error.code).toBe(code);
  return response.body.error as Row;
}

describe("tools.image_crop", () => {
  it("answers REST with the cropped image's bytes: a box of the right half is blue and 100x100", async () => {
    const { key } = await createFixture(service);
    const response = await crop(key, { image_base64: png.toString("base64"), content_type: "image/png", metadata: { x: 100, y: 0, width: 100, height: 100 } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toBe('inline; filename="crop.png"');
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const bytes = await bytesOf(response);
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
    const { width, height } = await sharp(bytes).metadata();
    expect([width, height]).toEqual([100, 100]);
    const { dominant } = await sharp(bytes).stats();
    expect(dominant).toMatchObject({ r: expect.any(Number), b: expect.any(Number) });
    expect(dominant.b).toBeGreaterThan(200);
    expect(dominant.r).toBeLessThan(50);
  });

  it("cuts an aspect from the centre, resizes and re-encodes as asked", async () => {
    const { key } = await createFixture(service);
    const response = await crop(key, { image_base64: png.toString("base64"), metadata: { aspect: "1:1", resize_width: 50, format: "jpeg" } });
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const info = await sharp(await bytesOf(response)).metadata();
    expect(info).toMatchObject({ format: "jpeg", width: 50, height: 50 });
  });

  it("answers a signed link to the same bytes on GraphQL and to Accept: application/json; the link lasts an hour", async () => {
    const { client, key } = await createFixture(service);
    const input = { image_base64: png.toString("base64"), metadata: { x: 0, y: 0, width: 100, height: 100 } };
    const graphql = await client.graphql(`mutation($input: ToolsImageCropInput!) { tools_image_crop(input: $input) { object content_type width height size_bytes url expires_at } }`, { input });
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    const file = graphql.body.data.tools_image_crop;
    expect(file).toMatchObject({ object: "file", content_type: "image/png", width: 100, height: 100 });
    expect(file.url).toMatch(/\/files\/answers\/\d{4}-\d{2}-\d{2}\/.+\/crop\.png\?expires=\d+&signature=/);
    expect(Date.parse(file.expires_at) - Date.now()).toBeLessThanOrEqual(3600 * 1000);
    const linked = await fetch(file.url);
    expect(linked.headers.get("content-type")).toBe("image/png");
    expect(await sharp(await bytesOf(linked)).metadata()).toMatchObject({ width: 100, height: 100 });

    const json = await crop(key, input, "application/json");
    expect(json.headers.get("content-type")).toMatch(/application\/json/);
    const record = (await json.json()) as Row;
    expect(record).toMatchObject({ object: "file", url: expect.stringContaining("/files/answers/"), livemode: true });
    expect((await fetch(record.url)).status).toBe(200);
  });

  it("gives a batch member the link, embedded in the batch's JSON", async () => {
    const { client } = await createFixture(service);
    const batch = await client.post("/api/v1/batch", { requests: [{ id: "c", method: "POST", path: "/v1/actions/tools.image_crop", body: { image_base64: png.toString("base64") } }] });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.body.data[0]).toMatchObject({ id: "c", status: 200, body: { object: "file", width: 200, height: 100, url: expect.stringContaining("/files/answers/") } });
  });

  it("gives a test key the bytes on REST and a data: link on GraphQL, storing nothing", async () => {
    const fixture = await createFixture(service);
    const test = await fixture.newKey({ mode: "test" });
    const response = await crop(test.key, { image_base64: png.toString("base64") });
    expect(response.headers.get("x-test-mode")).toBe("true");
    expect(await sharp(await bytesOf(response)).metadata()).toMatchObject({ width: 200, height: 100 });
    const graphql = await test.client.graphql(`mutation($input: ToolsImageCropInput!) { tools_image_crop(input: $input) { url } }`, { input: { image_base64: png.toString("base64") } });
    expect(graphql.body.data.tools_image_crop.url).toMatch(/^data:image\/png;base64,/);
  });

  it("refuses what is not an image, a type that lies, and a box outside the image, with 422", async () => {
    const { client } = await createFixture(service);
    const call = (body: unknown) => client.post("/api/v1/actions/tools.image_crop", body);
    expect(refused(await call({ image_base64: Buffer.from("plain text").toString("base64") }), "validation_failed").param).toBe("image_base64");
    expect(refused(await call({ image_base64: png.toString("base64"), content_type: "image/jpeg" }), "validation_failed").param).toBe("content_type");
    expect(refused(await call({ image_base64: png.toString("base64"), metadata: { x: 150, width: 100 } }), "validation_failed").param).toBe("metadata");
    const unknown = refused(await call({ image_base64: png.toString("base64"), metadata: { rotate: 90 } }), "validation_failed");
    expect(unknown.details.issues[0]).toMatchObject({ path: "metadata.rotate", type: "object.unknown", allowed: expect.arrayContaining(["aspect", "format"]) });
  });
});
