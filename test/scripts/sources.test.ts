// scripts.add_source: a page read through the URL guard by the page reader, attached to the script
// with its snippet; a page that cannot be read is a 400 naming `url` (never a 5xx) and writes
// nothing; a test key's call is quoted and fetches nothing. Pages are served on loopback, which
// this file's service allows (as tests do: outboundAllow).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixture, useService, type Client } from "../support/service.js";
import { EXAMPLE_PAGE_HTML, EXAMPLE_PAGE_PASSAGE } from "../support/example-page.js";
import { ok } from "../support/action-calls.js";

const service = useService({ outboundAllow: ["127.0.0.1"] });
const prisma = () => service.service.database.prisma;


let server: Server;
let base = "";
let closedPort = 0;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? "");
    const html = (status: number, body: string) => response.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(body);
    switch (request.url) {
      case "/article.html":
        return html(200, EXAMPLE_PAGE_HTML);
      case "/moved":
        return response.writeHead(302, { location: "/article.html" }).end();
      case "/broken":
        return html(500, "<h1>Oops</h1>");
      case "/image.png":
        return response.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      case "/blank.html":
        return html(200, "<!doctype html><html><head><title></title></head><body></body></html>");
      default:
        return html(404, "<h1>Not found</h1>");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port nothing listens on: bound, then released.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const post = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);

async function newScript(client: Client): Promise<string> {
  return ok(await post(client, "create", { title: "Sourced" })).script_id;
}

describe("scripts.add_source", () => {
  it("reads the page and attaches it with its title, readable text and the snippet the script relies on", async () => {
    const { client } = await createFixture(service);
    const scriptId = await newScript(client);
    const added = ok(await post(client, "add_source", { script_id: scriptId, url: `${base}/article.html`, snippet: "cats PURR at a frequency   between 25 and 150 hertz", request: { from: "test" } }));
    expect(added).toMatchObject({
      object: "script_source",
      created: true,
      snippet_found: true,
      read_url: `${base}/article.html`,
      revision: 1,
      request: { from: "test" },
      source: { kind: "source", url: `${base}/article.html`, title: "Why cats purr", snippet: "cats PURR at a frequency   between 25 and 150 hertz", status: "confirmed" },
    });
    const row = await prisma().scriptSource.findUniqueOrThrow({ where: { source_id: added.source.source_id } });
    expect(row.excerpt).toContain(EXAMPLE_PAGE_PASSAGE);
    expect(row.excerpt).toContain("Mother cats purr to guide their kittens");
    expect(row.excerpt).not.toContain("Home");
    // A write to the script: its restore point and its log entry.
    expect(await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: added.edit_id } })).toMatchObject({ action: "scripts.add_source", kind: "source.add" });
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId, action: "scripts.add_source" } })).toBe(1);
    const document = ok(await client.get(`/api/v1/actions/scripts.open?script_id=${scriptId}`));
    expect(document.sources).toEqual([expect.objectContaining({ source_id: added.source.source_id, title: "Why cats purr" })]);
  });

  it("takes the page's own opening as the snippet when none is sent, says when a sent one is not on the page, and refreshes a source attached again", async () => {
    const { client } = await createFixture(service);
    const scriptId = await newScript(client);
    const first = ok(await post(client, "add_source", { script_id: scriptId, url: `${base}/moved` }));
    expect(first).toMatchObject({ created: true, snippet_found: null, read_url: `${base}/article.html`, source: { url: `${base}/moved` } });
    expect(first.source.snippet).toMatch(/^Cats purr at a frequency between 25 and 150 hertz\./);
    const again = ok(await post(client, "add_source", { script_id: scriptId, url: `${base}/moved`, snippet: "Dogs bark at the moon." }));
    expect(again).toMatchObject({ created: false, snippet_found: false, source: { source_id: first.source.source_id, snippet: "Dogs bark at the moon." } });
    expect(await prisma().scriptSource.count({ where: { script_id: scriptId } })).toBe(1);
    expect(await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: again.edit_id } })).toMatchObject({ kind: "source.refresh" });
  });

  it("answers a page that cannot be read with 400 naming url (502 when its server fails), and writes nothing", async () => {
    const { client } = await createFixture(service);
    const scriptId = await newScript(client);
    const cases: [string, RegExp][] = [
      [`${base}/missing`, /HTTP 404/],
      [`${base}/image.png`, /not a web page/],
      [`${base}/blank.html`, /no readable text/],
      [`http://127.0.0.1:${closedPort}/gone`, /could not be reached/],
      ["http://10.0.0.1/private", /cannot be read/],
    ];
    for (const [url, message] of cases) {
      const refused = await post(client, "add_source", { script_id: scriptId, url });
      expect(refused.status, `${url}: ${refused.text}`).toBe(400);
      expect(refused.body.error, url).toMatchObject({ code: "invalid_request", param: "url" });
      expect(refused.body.error.message, url).toMatch(message);
    }
    // The page's server failing is upstream, as in every action that reads a page: 502, retryable.
    const broken = await post(client, "add_source", { script_id: scriptId, url: `${base}/broken` });
    expect(broken.body.error, broken.text).toMatchObject({ code: "upstream_error", status: 502, param: "url", retryable: true });
    expect(broken.body.error.message).toMatch(/HTTP 500/);
    expect(await prisma().scriptSource.count({ where: { script_id: scriptId } })).toBe(0);
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId } })).toBe(0);
    const invalid = await post(client, "add_source", { script_id: scriptId, url: "ftp://example.com/file" });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details.issues[0]).toMatchObject({ path: "url" });
  });

  it("quotes a test key's call without fetching, and refuses another workspace's script before fetching", async () => {
    const fixture = await createFixture(service);
    const scriptId = await newScript(fixture.client);
    const seen = hits.length;
    const test = await fixture.newKey({ mode: "test" });
    const quoted = ok(await post(test.client, "add_source", { script_id: scriptId, url: `${base}/article.html` }));
    expect(quoted).toMatchObject({ object: "action_quote", action: "scripts.add_source", livemode: false, capabilities: ["page"], credits: { cost: 0, charged: 0 } });
    const stranger = await createFixture(service);
    const refused = await post(stranger.client, "add_source", { script_id: scriptId, url: `${base}/article.html` });
    expect(refused.body.error.code).toBe("workspace_mismatch");
    const missing = await post(fixture.client, "add_source", { script_id: "scr_missing", url: `${base}/article.html` });
    expect(missing.status).toBe(404);
    expect(hits.length).toBe(seen);
    expect(await prisma().scriptSource.count({ where: { script_id: scriptId } })).toBe(0);
  });
});
