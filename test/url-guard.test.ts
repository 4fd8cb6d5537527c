// The outbound URL guard (src/outbound/url-guard.ts), the one way the service fetches a URL a user
// handed it: unit-level against OutboundGuard with real loopback receivers, and at webhook
// registration (POST /api/v1/webhooks) on a service with no allow-list, where every refused URL is
// a 422 naming the reason. The service runs no workers, so it shares the suite's database and Redis.
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { OutboundFetchError, OutboundGuard, UrlBlockedError, isPublicAddress } from "../src/outbound/url-guard.js";
import { createFixture, useService, type ApiResponse } from "./support/service.js";
import { newId } from "../src/ids.js";
import { sleep } from "./support/wait.js";

const service = useService({ outboundAllow: [] });

// ---- loopback receivers ------------------------------------------------------------------------

interface Receiver {
  port: number;
  url: string;
  hits: { method: string; path: string; body: string }[];
  close(): Promise<void>;
}

const receivers: Receiver[] = [];

async function startReceiver(handler: (request: http.IncomingMessage, response: http.ServerResponse) => void): Promise<Receiver> {
  const hits: Receiver["hits"] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      hits.push({ method: request.method ?? "", path: request.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(receiver);
  return receiver;
}

const listeners: net.Server[] = [];

/**
 * A TCP listener on every loopback address (dual stack: 127.0.0.1, ::1 and ::ffff:127.0.0.1 all
 * land here) that counts the connections made to it and drops them; closed after each test.
 */
async function startCountingListener(): Promise<{ port: number; readonly connections: number }> {
  let connections = 0;
  const listener = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "::", resolve));
  listeners.push(listener);
  return {
    port: (listener.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
  };
}

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  await Promise.all(listeners.splice(0).map((listener) => new Promise<void>((resolve) => listener.close(() => resolve()))));
});

const ok = (_request: http.IncomingMessage, response: http.ServerResponse) => {
  response.writeHead(200, { "content-type": "text/plain" });
  response.end("received");
};

/** The reason a guarded fetch was refused (fails the test if it was not). */
async function fetchFailure(guard: OutboundGuard, url: string, options: Parameters<OutboundGuard["fetch"]>[1] = {}): Promise<string> {
  try {
    const result = await guard.fetch(url, options);
    throw new Error(`expected ${url} to be refused, got status ${result.status}`);
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(OutboundFetchError);
    return (error as OutboundFetchError).reason;
  }
}

/** The reason a registration-time check refused a URL (fails the test if it did not). */
async function blockReason(guard: OutboundGuard, url: string): Promise<string> {
  try {
    await guard.assertAllowed(url);
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(UrlBlockedError);
    return (error as UrlBlockedError).reason;
  }
  throw new Error(`expected ${url} to be refused`);
}

// ---- unit level --------------------------------------------------------------------------------

describe("OutboundGuard without an allow-list", () => {
  const guard = new OutboundGuard({ allow: [] });

  it.each([
    ["plain http", "http://example.com/hook", "scheme_not_allowed"],
    ["another scheme", "ftp://example.com/hook", "scheme_not_allowed"],
    ["a loopback address (127.0.0.1)", "https://127.0.0.1/hook", "address_not_public"],
    ["a private address (10.0.0.1, 10/8)", "https://10.0.0.1/hook", "address_not_public"],
    ["a private address (192.168.1.1)", "https://192.168.1.1/hook", "address_not_public"],
    ["the metadata address (169.254.169.254)", "https://169.254.169.254/latest/meta-data/", "address_not_public"],
    ["IPv6 loopback ([::1])", "https://[::1]/hook", "address_not_public"],
    ["an IPv4-mapped loopback ([::ffff:127.0.0.1])", "https://[::ffff:127.0.0.1]/hook", "address_not_public"],
    ["0.0.0.0", "https://0.0.0.0/hook", "address_not_public"],
    ["a loopback address written as a number", "https://2130706433/hook", "address_not_public"],
    ["a port that is not allowed", "https://example.com:8080/hook", "port_not_allowed"],
    ["credentials in the URL", "https://user:secret@example.com/hook", "credentials_in_url"],
    ["a user name alone in the URL", "https://user@example.com/hook", "credentials_in_url"],
    ["a host name that resolves to a private address (localhost)", "https://localhost/hook", "address_not_public"],
    ["something that is not a URL", "not a url", "invalid_url"],
  ])("refuses %s", async (_label, url, reason) => {
    expect(await blockReason(guard, url)).toBe(reason);
  });

  it("accepts an https URL on a public address (no network needed for an address literal)", async () => {
    const url = await guard.assertAllowed("https://93.184.215.14/hook");
    expect(url.hostname).toBe("93.184.215.14");
    expect((await guard.assertAllowed("https://93.184.215.14:8443/hook")).port).toBe("8443");
  });

  it("counts only plain public unicast addresses as public", () => {
    for (const address of ["8.8.8.8", "93.184.215.14", "2606:4700:4700::1111"]) expect(isPublicAddress(address), address).toBe(true);
    for (const address of ["127.0.0.1", "10.0.0.1", "172.16.0.1", "192.168.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fc00::1", "fe80::1", "::ffff:10.0.0.1", "224.0.0.1", "nonsense"]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("refuses loopback receivers at fetch time without ever connecting to them", async () => {
    const receiver = await startReceiver(ok);
    // Plain http to an address that is not allow-listed.
    expect(await fetchFailure(guard, receiver.url)).toBe("scheme_not_allowed");
    // Even with the port allowed and https, the address is checked before connecting...
    const portOpen = new OutboundGuard({ allow: [], allowedPorts: [receiver.port] });
    expect(await fetchFailure(portOpen, `https://127.0.0.1:${receiver.port}/hook`)).toBe("address_not_public");
    expect(await fetchFailure(portOpen, `https://[::ffff:127.0.0.1]:${receiver.port}/hook`)).toBe("address_not_public");
    // ...and a host name is checked inside the connection's own lookup.
    expect(await fetchFailure(portOpen, `https://localhost:${receiver.port}/hook`)).toBe("address_not_public");
    expect(receiver.hits).toHaveLength(0);
  });
});

describe("OutboundGuard with allow ['127.0.0.1']", () => {
  const guard = new OutboundGuard({ allow: ["127.0.0.1"] });

  it("reaches a plain-http receiver on 127.0.0.1 on any port, sending method, headers and body", async () => {
    let seenHeaders: http.IncomingHttpHeaders = {};
    const receiver = await startReceiver((request, response) => {
      seenHeaders = request.headers;
      response.writeHead(201, { "content-type": "text/plain", "x-answer": "yes" });
      response.end("created here");
    });
    const result = await guard.fetch(receiver.url, { method: "POST", body: '{"hello":"world"}', headers: { "content-type": "application/json", "x-extra": "1" } });
    expect(result.status).toBe(201);
    expect(result.body.toString("utf8")).toBe("created here");
    expect(result.truncated).toBe(false);
    expect(result.headers["x-answer"]).toBe("yes");
    expect(result.remoteAddress).toBe("127.0.0.1");
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(receiver.hits).toEqual([{ method: "POST", path: "/hook", body: '{"hello":"world"}' }]);
    expect(seenHeaders["x-extra"]).toBe("1");
    expect(seenHeaders["content-length"]).toBe(String('{"hello":"world"}'.length));
  });

  it("still refuses what the allow-list does not cover", async () => {
    const receiver = await startReceiver(ok);
    expect(await blockReason(guard, "https://10.0.0.1/hook")).toBe("address_not_public");
    expect(await blockReason(guard, `http://[::1]:${receiver.port}/hook`)).toBe("scheme_not_allowed");
    expect(await blockReason(guard, `http://user:pw@127.0.0.1:${receiver.port}/hook`)).toBe("credentials_in_url");
    expect(await fetchFailure(guard, `http://localhost:${receiver.port}/hook`)).toBe("scheme_not_allowed");
    expect(receiver.hits).toHaveLength(0);
  });

  it("accepts CIDR ranges in the allow-list", async () => {
    const receiver = await startReceiver(ok);
    const ranged = new OutboundGuard({ allow: ["127.0.0.0/8"] });
    expect((await ranged.fetch(receiver.url)).status).toBe(200);
    expect(await blockReason(ranged, "https://10.0.0.1/hook")).toBe("address_not_public");
  });

  it("never follows a redirect: a 302 comes back as 302 and its Location is never requested", async () => {
    const target = await startReceiver(ok);
    const redirecting = await startReceiver((_request, response) => {
      response.writeHead(302, { location: target.url });
      response.end();
    });
    const result = await guard.fetch(redirecting.url, { method: "POST", body: "{}" });
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe(target.url);
    expect(redirecting.hits).toHaveLength(1);
    // Give a (wrongly) followed redirect every chance to land before looking.
    await sleep(200);
    expect(target.hits).toHaveLength(0);
  });

  it("gives up on a slow receiver after timeoutMs", async () => {
    const held: http.ServerResponse[] = [];
    const slow = await startReceiver((_request, response) => {
      held.push(response); // never answered; closed by afterEach
    });
    const reason = await fetchFailure(guard, slow.url, { method: "POST", body: "{}", timeoutMs: 300 });
    expect(reason).toBe("timeout");
    expect(slow.hits).toHaveLength(1);
  });

  it("gives up on a receiver that starts answering but never finishes within timeoutMs", async () => {
    const trickle = await startReceiver((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("partial");
      // never ended
    });
    expect(await fetchFailure(guard, trickle.url, { timeoutMs: 300 })).toBe("timeout");
  });

  it("cuts an oversized answer at maxResponseBytes", async () => {
    const big = "x".repeat(200_000);
    const receiver = await startReceiver((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(big);
    });
    const cut = await guard.fetch(receiver.url, { maxResponseBytes: 1000 });
    expect(cut.status).toBe(200);
    expect(cut.body.length).toBe(1000);
    expect(cut.truncated).toBe(true);
    expect(cut.body.toString("utf8")).toBe("x".repeat(1000));

    const whole = await guard.fetch(receiver.url, { maxResponseBytes: 200_000 });
    expect(whole.body.length).toBe(200_000);
    expect(whole.truncated).toBe(false);
  });

  it("reports a refused connection as connection_failed", async () => {
    const receiver = await startReceiver(ok);
    const url = receiver.url;
    await receiver.close();
    receivers.splice(receivers.indexOf(receiver), 1);
    expect(await fetchFailure(guard, url, { timeoutMs: 2000 })).toBe("connection_failed");
  });
});

// ---- addresses in disguise ----------------------------------------------------------------------

/** Every form that reaches (or embeds) a loopback, metadata or otherwise private address. */
const DISGUISED = [
  // IPv6 forms embedding an IPv4 address, classified by that address.
  ["IPv4-compatible loopback", "https://[::127.0.0.1]/hook"],
  ["IPv4-compatible loopback, hex", "https://[::7f00:1]/hook"],
  ["IPv4-compatible metadata address", "https://[::169.254.169.254]/latest/meta-data/"],
  ["IPv4-mapped metadata address", "https://[::ffff:169.254.169.254]/latest/meta-data/"],
  ["SIIT (IPv4-translated) loopback", "https://[::ffff:0:127.0.0.1]/hook"],
  ["NAT64 loopback (64:ff9b::/96)", "https://[64:ff9b::127.0.0.1]/hook"],
  ["NAT64 metadata address", "https://[64:ff9b::a9fe:a9fe]/hook"],
  ["local-use NAT64 (64:ff9b:1::/48)", "https://[64:ff9b:1::808:808]/hook"],
  ["6to4 of loopback (2002::/16)", "https://[2002:7f00:1::1]/hook"],
  ["6to4 of a private address", "https://[2002:a00:1::1]/hook"],
  ["Teredo with a loopback client (2001::/32)", "https://[2001:0:808:808:0:0:80ff:fffe]/hook"],
  ["Teredo with a private server", "https://[2001:0:a00:1:0:0:f7f7:f7f7]/hook"],
  // Other IPv6 space that is not the public internet.
  ["the unspecified address", "https://[::]/hook"],
  ["site-local (fec0::/10)", "https://[fec0::1]/hook"],
  ["unique-local (fc00::/7)", "https://[fd00::1]/hook"],
  ["multicast (ff00::/8)", "https://[ff02::1]/hook"],
  ["documentation (2001:db8::/32)", "https://[2001:db8::1]/hook"],
  ["discard-only (100::/64)", "https://[100::1]/hook"],
  // IPv4 spellings the URL parser turns into loopback or this host.
  ["loopback in octal", "https://0177.0.0.1/hook"],
  ["loopback in hex", "https://0x7f.0.0.1/hook"],
  ["loopback in two parts", "https://127.1/hook"],
  ["loopback with a trailing dot", "https://127.0.0.1./hook"],
  ["0.0.0.0 written as 0", "https://0/hook"],
  ["the metadata address in decimal", "https://2852039166/latest/meta-data/"],
  // IPv4 blocks that are not public.
  ["shared address space (100.64/10)", "https://100.64.0.1/hook"],
  ["documentation (192.0.2/24)", "https://192.0.2.1/hook"],
  ["benchmarking (198.18/15)", "https://198.18.0.1/hook"],
  ["multicast (224/4)", "https://224.0.0.1/hook"],
  ["broadcast", "https://255.255.255.255/hook"],
] as const;

describe("addresses in disguise", () => {
  const guard = new OutboundGuard({ allow: [] });

  it.each(DISGUISED)("refuses %s", async (_label, url) => {
    expect(await blockReason(guard, url)).toBe("address_not_public");
  });

  it("refuses an IPv6 zone id, which only link-local addresses take", async () => {
    expect(await blockReason(guard, "https://[fe80::1%25eth0]/hook")).toBe("invalid_url");
    expect(isPublicAddress("fe80::1%eth0")).toBe(false);
    expect(isPublicAddress("2606:4700:4700::1111%eth0")).toBe(false);
  });

  it("classifies embedded forms by the IPv4 address they carry: public ones stay public", () => {
    for (const address of ["::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2001:0:808:808:0:0:f7f7:f7f7"]) expect(isPublicAddress(address), address).toBe(true);
    for (const address of ["::7f00:1", "::a9fe:a9fe", "64:ff9b::7f00:1", "2002:7f00:1::", "2001:0:808:808:0:0:80ff:fffe", "2001:0:7f00:1:0:0:f7f7:f7f7"]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("never connects to a disguised loopback address at fetch time, even with its port allowed", async () => {
    const listener = await startCountingListener();
    const portOpen = new OutboundGuard({ allow: [], allowedPorts: [listener.port] });
    for (const host of ["[::127.0.0.1]", "[::ffff:127.0.0.1]", "[::ffff:0:127.0.0.1]", "[64:ff9b::127.0.0.1]", "[2002:7f00:1::1]", "0177.0.0.1", "127.1", "[::1]"]) {
      expect(await fetchFailure(portOpen, `https://${host}:${listener.port}/hook`), host).toBe("address_not_public");
    }
    expect(listener.connections).toBe(0);
  });
});

describe("a host name resolving to several addresses (the resolver handed in)", () => {
  const PUBLIC_V4 = "93.184.215.14";
  const PUBLIC_V6 = "2606:4700:4700::1111";

  /** A resolver answering `addresses` for every host, remembering what it was asked. */
  function resolverOf(addresses: string[]) {
    const asked: string[] = [];
    return { asked, resolve: async (hostname: string) => (asked.push(hostname), [...addresses]) };
  }

  it.each([
    ["public first, loopback second", [PUBLIC_V4, "127.0.0.1"]],
    ["loopback first, public second", ["127.0.0.1", PUBLIC_V4]],
    ["public IPv4 and IPv6 first, IPv6 loopback last", [PUBLIC_V4, PUBLIC_V6, "::1"]],
    ["public first, the metadata address second", [PUBLIC_V4, "169.254.169.254"]],
  ])("refuses a host resolving to %s, when registered and when fetched, connecting nowhere", async (_label, addresses) => {
    const listener = await startCountingListener();
    const resolver = resolverOf(addresses);
    const guard = new OutboundGuard({ allow: [], allowedPorts: [listener.port], resolve: resolver.resolve });
    const url = `https://mixed.example:${listener.port}/hook`;
    expect(await blockReason(guard, url)).toBe("address_not_public");
    expect(await fetchFailure(guard, url, { timeoutMs: 3000 })).toBe("address_not_public");
    expect(listener.connections).toBe(0);
    // Both checks asked the resolver handed in, not the system's.
    expect(resolver.asked).toEqual(["mixed.example", "mixed.example"]);
  });

  it("accepts a host whose every address is public, answering them all in the resolver's order", async () => {
    const resolver = resolverOf([PUBLIC_V6, PUBLIC_V4]);
    const guard = new OutboundGuard({ allow: [], resolve: resolver.resolve });
    expect((await guard.assertAllowed("https://two-public.example/hook")).hostname).toBe("two-public.example");
    expect(await guard.resolveAllowed("two-public.example")).toEqual([PUBLIC_V6, PUBLIC_V4]);
    expect(resolver.asked).toEqual(["two-public.example", "two-public.example"]);
  });

  it("refuses a host the resolver cannot resolve as dns_failed, and never asks it about an address literal", async () => {
    const asked: string[] = [];
    const guard = new OutboundGuard({
      allow: [],
      resolve: async (hostname) => {
        asked.push(hostname);
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      },
    });
    expect(await blockReason(guard, "https://nowhere.example/hook")).toBe("dns_failed");
    await guard.assertAllowed(`https://${PUBLIC_V4}/hook`);
    expect(asked).toEqual(["nowhere.example"]);
  });
});

describe("allow-list matching", () => {
  it("matches an address by what it reaches, whichever form the URL or the entry writes it in", async () => {
    const receiver = await startReceiver(ok);
    for (const entry of ["127.0.0.1", "::ffff:127.0.0.1", "::ffff:127.0.0.0/104", "127.0.0.0/8"]) {
      const guard = new OutboundGuard({ allow: [entry] });
      expect((await guard.fetch(`http://127.0.0.1:${receiver.port}/hook`)).status, entry).toBe(200);
      expect((await guard.fetch(`http://[::ffff:127.0.0.1]:${receiver.port}/hook`)).status, entry).toBe(200);
      // Neither form reaches beyond what the entry covers.
      expect(await blockReason(guard, "https://[::ffff:169.254.169.254]/"), entry).toBe("address_not_public");
      expect(await blockReason(guard, "https://10.0.0.1/"), entry).toBe("address_not_public");
    }
  });

  it("does not let a broad IPv6 entry stand for all of IPv4", async () => {
    const guard = new OutboundGuard({ allow: ["::ffff:0:0/95"] });
    expect(await blockReason(guard, "https://169.254.169.254/")).toBe("address_not_public");
  });

  it("compares host names without case or a trailing dot", async () => {
    const receiver = await startReceiver(ok);
    const guard = new OutboundGuard({ allow: ["LocalHost."] });
    expect(guard.checkUrl(`http://localhost:${receiver.port}/hook`).hostname).toBe("localhost");
    expect(guard.checkUrl(`http://localhost.:${receiver.port}/hook`).hostname).toBe("localhost.");
    // Another name that resolves to the same address is not on the list.
    expect(await blockReason(guard, "http://127.0.0.1/hook")).toBe("scheme_not_allowed");
  });
});

// ---- at registration ---------------------------------------------------------------------------

function expectUrlRefused(response: ApiResponse, reason: string) {
  expect(response.status, response.text).toBe(422);
  expect(response.body.error, response.text).toMatchObject({ code: "validation_failed", type: "validation_error", status: 422 });
  expect(response.body.error.details.issues, response.text).toEqual([expect.objectContaining({ path: "url", type: `url.${reason}` })]);
}

describe("POST /api/v1/webhooks on a service with no allow-list", () => {
  it.each([
    ["http://example.com/hook", "scheme_not_allowed"],
    ["https://127.0.0.1/hook", "address_not_public"],
    ["https://10.0.0.1/hook", "address_not_public"],
    ["https://169.254.169.254/latest/meta-data/", "address_not_public"],
    ["https://[::1]/hook", "address_not_public"],
    ["https://93.184.215.14:8080/hook", "port_not_allowed"],
    ["https://user:secret@93.184.215.14/hook", "credentials_in_url"],
    ["https://localhost/hook", "address_not_public"],
  ])("refuses %s (url.%s) and registers nothing", async (url, reason) => {
    const { client, workspaceId } = await createFixture(service);
    expectUrlRefused(await client.post("/api/v1/webhooks", { url, events: ["*"] }), reason);
    expect(await service.service.database.prisma.webhookEndpoint.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("refuses a loopback receiver that would be reachable with an allow-list, on create and on update", async () => {
    const receiver = await startReceiver(ok);
    const { client } = await createFixture(service);
    expectUrlRefused(await client.post("/api/v1/webhooks", { url: receiver.url, events: ["*"] }), "scheme_not_allowed");
    expectUrlRefused(await client.post("/api/v1/webhooks", { url: `https://127.0.0.1:${receiver.port}/hook`, events: ["*"] }), "port_not_allowed");

    const created = await client.post("/api/v1/webhooks", { url: "https://93.184.215.14/hook", events: ["video.*"] });
    expect(created.status, created.text).toBe(201);
    expectUrlRefused(await client.patch(`/api/v1/webhooks/${created.body.endpoint_id}`, { url: "https://127.0.0.1/hook" }), "address_not_public");
    const unchanged = await client.get(`/api/v1/webhooks/${created.body.endpoint_id}`);
    expect(unchanged.body.url).toBe("https://93.184.215.14/hook");
    expect(receiver.hits).toHaveLength(0);
    // This database is shared with the suite: leave no endpoint at a real public address behind.
    expect((await client.delete(`/api/v1/webhooks/${created.body.endpoint_id}`)).status).toBe(200);
  });

  it.each(DISGUISED.filter(([label]) => /compatible|mapped|NAT64|6to4|Teredo|metadata|octal|hex|decimal/.test(label)))("refuses %s (url.address_not_public) and registers nothing", async (_label, url) => {
    const { client, workspaceId } = await createFixture(service);
    expectUrlRefused(await client.post("/api/v1/webhooks", { url, events: ["*"] }), "address_not_public");
    expect(await service.service.database.prisma.webhookEndpoint.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("refuses at send time an endpoint stored before its address was known to be private: POST /webhooks/{id}/test connects nowhere", async () => {
    const { client, workspaceId } = await createFixture(service);
    for (const url of ["https://[::127.0.0.1]/hook", "https://[::169.254.169.254]/latest/meta-data/", "https://[64:ff9b::a9fe:a9fe]/", "https://[2002:7f00:1::1]/hook"]) {
      const endpointId = newId("webhook_endpoint");
      // As if registered under the old guard: the row is written directly.
      await service.service.database.prisma.webhookEndpoint.create({ data: { endpoint_id: endpointId, workspace_id: workspaceId, url, events: ["*"], signing_secret: "whsec_test" } });
      const test = await client.post(`/api/v1/webhooks/${endpointId}/test`);
      expect(test.status, test.text).toBe(200);
      expect(test.body, url).toMatchObject({ object: "webhook_test", succeeded: false, status_code: null, error: "address_not_public" });
    }
  });

  it("accepts an https URL on a public address", async () => {
    const { client } = await createFixture(service);
    const created = await client.post("/api/v1/webhooks", { url: "https://93.184.215.14/hook", events: ["*"] });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ object: "webhook_endpoint", url: "https://93.184.215.14/hook", enabled: true });
    // This database is shared with the suite: leave no endpoint at a real public address behind.
    expect((await client.delete(`/api/v1/webhooks/${created.body.endpoint_id}`)).status).toBe(200);
  });
});
