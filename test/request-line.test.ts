// The request line's target in each form RFC 9112 allows (issue "Reliability and security, round
// two", 1), sent over a raw socket because fetch only ever sends origin-form: absolute-form is
// served as its origin-form, `OPTIONS *` lists the server's methods, and every other shape gets
// the contract's 400 envelope with a request id — never a 500, a stack trace or a file path.
import { describe, expect, it } from "vitest";
import { createFixture, useService } from "./support/service.js";
import { sendRaw } from "./support/raw-http.js";

const service = useService();

function requestLine(method: string, target: string, headers: Record<string, string>): string {
  const lines = Object.entries({ connection: "close", ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${target} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`;
}

function expectEnvelope(answer: { status: number; body: string; headers: Record<string, string> }, status: number, code = "invalid_request") {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.body).not.toMatch(/at new URL|\.ts:\d+|TypeError/);
  const body = JSON.parse(answer.body) as { error: Record<string, unknown> };
  expect(body.error).toMatchObject({ code, status, type: "invalid_request_error", request_id: answer.headers["x-request-id"] });
  expect(answer.headers["x-request-id"]).toMatch(/^req_/);
}

describe("request-line targets", () => {
  it("serves an absolute-form target as its origin-form equivalent", async () => {
    const { client, key } = await createFixture(service);
    await client.post("/api/v1/videos", { video_name: "absolute" });
    const { host } = new URL(service.url);
    const answer = await sendRaw(service.url, requestLine("GET", `http://${host}/api/v1/videos?limit=5`, { host, authorization: `Bearer ${key}` }));
    expect(answer.status, answer.body).toBe(200);
    expect((JSON.parse(answer.body) as { data: { video_name: string }[] }).data.map((video) => video.video_name)).toEqual(["absolute"]);
  });

  it("writes through an absolute-form target as through its path", async () => {
    const { client, key } = await createFixture(service);
    const { host } = new URL(service.url);
    const body = JSON.stringify({ folder_name: "by absolute-form" });
    const answer = await sendRaw(
      service.url,
      requestLine("POST", `http://${host}/api/v1/folders`, { host, authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": String(body.length) }).replace(/\r\n\r\n$/, `\r\n\r\n${body}`),
    );
    expect(answer.status, answer.body).toBe(201);
    expect((await client.get("/api/v1/folders")).body.data.map((folder: { folder_name: string }) => folder.folder_name)).toEqual(["by absolute-form"]);
  });

  it("answers OPTIONS * with 204 and the server's methods in Allow", async () => {
    const answer = await sendRaw(service.url, requestLine("OPTIONS", "*", { host: "localhost" }));
    expect(answer.status).toBe(204);
    expect(answer.headers.allow?.split(", ")).toEqual(expect.arrayContaining(["GET", "POST", "PATCH", "DELETE", "OPTIONS"]));
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
  });

  it.each(["GET", "POST", "DELETE", "HEAD", "PUT", "PATCH", "TRACE", "PROPFIND"])("answers %s * with the envelope's 400", async (method) => {
    const answer = await sendRaw(service.url, requestLine(method, "*", { host: "localhost" }));
    if (method === "HEAD") {
      expect(answer.status).toBe(400);
      return;
    }
    expectEnvelope(answer, 400);
  });

  it.each(["*", "localhost:80", "/api/v1/videos"])("answers CONNECT %s with the envelope's 405: the service is not a proxy", async (target) => {
    const answer = await sendRaw(service.url, requestLine("CONNECT", target, { host: "localhost" }));
    expectEnvelope(answer, 405, "method_not_allowed");
    expect(answer.headers.allow).toContain("GET");
  });

  it.each(["api/v1/videos", "ftp://localhost/api/v1/videos", "http://[::1/api", "mailto:x@example.com", "?x=1", "http://"])("answers the target %s with the envelope's 400", async (target) => {
    const { key } = await createFixture(service);
    expectEnvelope(await sendRaw(service.url, requestLine("GET", target, { host: "localhost", authorization: `Bearer ${key}` })), 400);
  });

  it("answers a Host header that is not a host with the envelope's 400", async () => {
    const { key } = await createFixture(service);
    expectEnvelope(await sendRaw(service.url, requestLine("GET", "/api/v1/videos", { host: "a/b@c", authorization: `Bearer ${key}` })), 400);
  });
});
