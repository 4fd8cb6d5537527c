// Request size and connection limits (issue "Reliability and security", 2; docs/security.md): the
// 5 MiB body cap holds on both surfaces whether or not Content-Length is sent — bytes are counted
// as they stream and reading stops at the cap — and what Node's HTTP server refuses on its own
// (oversized headers, clients too slow to send a request) still gets the contract's envelope.
// The server's timeouts and connection limit are set from the configuration.
import { describe, expect, it } from "vitest";
import { createFixture, useService } from "./support/service.js";
import { connect, postChunked, readUntilClosed, sendRaw } from "./support/raw-http.js";

const MiB = 1024 * 1024;

const service = useService({
  // Short enough that a test can wait for them; headers must come first, the whole request next.
  http: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, keepAliveTimeoutMs: 5_000, maxConnections: 1_000 },
});
const crowded = useService({ http: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 30_000, maxConnections: 2 } });

function expectEnvelope(body: string, status: number, code: string) {
  const parsed = JSON.parse(body) as { error: Record<string, unknown> };
  expect(parsed.error, body).toMatchObject({ code, status, type: "invalid_request_error", request_id: expect.stringMatching(/^req_/) });
  return parsed;
}

describe("the body cap without Content-Length (chunked bodies)", () => {
  it("refuses a 100 MB chunked REST body with 413 payload_too_large, reading no more than the cap and the socket's buffers", async () => {
    const { key, workspaceId } = await createFixture(service);
    const answer = await postChunked(service.url, "/api/v1/folders", { authorization: `Bearer ${key}`, "content-type": "application/json" }, 100 * MiB);
    expect(answer.status, answer.body).toBe(413);
    expectEnvelope(answer.body, 413, "payload_too_large");
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
    // The server stopped reading and closed the connection long before the client was done.
    expect(answer.bodyBytesSent).toBeLessThan(50 * MiB);
    expect(await service.service.database.prisma.folder.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it.each([12, 28])("refuses a %i MB chunked GraphQL body with 413 in the GraphQL envelope", async (megabytes) => {
    const { key } = await createFixture(service);
    const answer = await postChunked(service.url, "/graphql", { authorization: `Bearer ${key}`, "content-type": "application/json" }, megabytes * MiB, " ");
    expect(answer.status, answer.body).toBe(413);
    const body = expectEnvelope(answer.body, 413, "payload_too_large") as { errors?: { extensions: Record<string, unknown> }[] };
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "payload_too_large", status: 413 });
    expect(answer.bodyBytesSent).toBeLessThan(megabytes * MiB);
  });

  it("accepts a chunked body within the cap", async () => {
    const { client, key } = await createFixture(service);
    const socket = await connect(service.url);
    const closed = readUntilClosed(socket);
    const body = JSON.stringify({ video_name: "chunked", video_comment: "x".repeat(50_000) });
    socket.write(`POST /api/v1/videos HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n`);
    for (let offset = 0; offset < body.length; offset += 1000) {
      const piece = body.slice(offset, offset + 1000);
      socket.write(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
    }
    socket.write("0\r\n\r\n");
    const raw = await closed;
    expect(raw.split("\r\n")[0]).toContain("201");
    const listed = await client.get("/api/v1/videos?expand=video_json");
    expect(listed.body.data.map((video: { video_name: string; video_comment: string }) => [video.video_name, video.video_comment.length])).toEqual([["chunked", 50_000]]);
  });

  it("still refuses a declared Content-Length over the cap before reading anything", async () => {
    const { key } = await createFixture(service);
    const answer = await sendRaw(service.url, `POST /graphql HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: ${6 * MiB}\r\n\r\n{`);
    expect(answer.status).toBe(413);
    expectEnvelope(answer.body, 413, "payload_too_large");
    expect(answer.headers.connection).toBe("close");
  });
});

describe("what the HTTP server refuses before the app sees it", () => {
  it("answers headers over 16 KiB with 431 in the envelope", async () => {
    const { client } = await createFixture(service);
    const response = await client.get(`/api/v1/videos?q=${"x".repeat(20_000)}`);
    expect(response.status).toBe(431);
    expectEnvelope(response.text, 431, "request_header_fields_too_large");
    expect(response.headers.get("x-request-id")).toBe(response.body.error.request_id);
  });

  it("answers a client that never finishes its headers with 408 in the envelope, then closes", async () => {
    const socket = await connect(service.url);
    const closed = readUntilClosed(socket);
    socket.write("GET /api/v1/videos HTTP/1.1\r\nhost: x\r\nx-slow: ");
    const raw = await closed;
    expect(raw.split("\r\n")[0]).toContain("408");
    expectEnvelope(raw.slice(raw.indexOf("\r\n\r\n") + 4), 408, "request_timeout");
  });

  it("answers a client that never finishes its body with 408, then closes", async () => {
    const { key } = await createFixture(service);
    const socket = await connect(service.url);
    const closed = readUntilClosed(socket);
    socket.write(`POST /api/v1/folders HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"folder_name":`);
    const raw = await closed;
    expect(raw.split("\r\n")[0]).toContain("408");
    expectEnvelope(raw.slice(raw.indexOf("\r\n\r\n") + 4), 408, "request_timeout");
  });

  it("drops connections beyond maxConnections while the admitted ones keep working", async () => {
    const { key } = await createFixture(crowded);
    const request = `GET /api/v1/health HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\n\r\n`;
    const first = await connect(crowded.url);
    const second = await connect(crowded.url);
    const answered = (socket: Awaited<ReturnType<typeof connect>>) =>
      new Promise<string>((resolve) => {
        socket.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8")));
        socket.write(request);
      });
    expect(await answered(first)).toContain("200");
    expect(await answered(second)).toContain("200");

    const third = await connect(crowded.url);
    const thirdClosed = readUntilClosed(third);
    third.write(request);
    expect(await thirdClosed).toBe("");

    expect(await answered(first)).toContain("200");
    first.destroy();
    second.destroy();
  });
});
