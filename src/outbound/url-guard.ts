// The one way the service fetches a URL a user handed it (webhooks, pages to read, media to
// fetch). Only https to public addresses on allowed ports, unless the target is on the explicit
// allow-list (CUTROOM_OUTBOUND_ALLOW: hosts or CIDRs, e.g. 127.0.0.1,::1 in tests). The address
// check runs inside the connection's own DNS lookup, so the address checked is the address
// connected to (no DNS rebinding). Redirects are never followed; time and size are capped.
import http from "node:http";
import https from "node:https";
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

export type BlockReason = "invalid_url" | "scheme_not_allowed" | "port_not_allowed" | "address_not_public" | "dns_failed" | "credentials_in_url";

export class UrlBlockedError extends Error {
  constructor(readonly reason: BlockReason, message: string) {
    super(message);
    this.name = "UrlBlockedError";
  }
}

export type FetchFailure = "timeout" | "too_large" | "connection_failed" | BlockReason;

export class OutboundFetchError extends Error {
  constructor(readonly reason: FetchFailure, message: string, readonly durationMs: number) {
    super(message);
    this.name = "OutboundFetchError";
  }
}

export interface OutboundOptions {
  /** Hostnames, addresses or CIDR ranges reachable even when private, loopback or plain http. */
  allow: readonly string[];
  /** Ports reachable on non-allow-listed targets besides 443 (and 80 for allow-listed http). */
  allowedPorts?: readonly number[];
}

export interface FetchOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export interface FetchResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** At most maxResponseBytes of the body. */
  body: Buffer;
  /** The body was longer than maxResponseBytes and was cut. */
  truncated: boolean;
  durationMs: number;
  remoteAddress?: string;
}

const DEFAULT_PORTS = [443, 8443];
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
/** Callers name their purpose in their own user agent (webhooks, renders); this is the fallback. */
const DEFAULT_USER_AGENT = "Cutroom/1";

interface AllowEntry {
  host?: string;
  range?: [ipaddr.IPv4 | ipaddr.IPv6, number];
}

function parseAllow(entries: readonly string[]): AllowEntry[] {
  return entries.map((raw) => raw.trim().toLowerCase()).filter(Boolean).map((entry) => {
    try {
      if (entry.includes("/")) return { range: ipaddr.parseCIDR(entry) };
      const address = ipaddr.parse(entry.replace(/^\[|\]$/g, ""));
      return { range: [address, address.kind() === "ipv4" ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number] };
    } catch {
      return { host: entry };
    }
  });
}

function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  return ipaddr.process(address);
}

/** A host as written in a URL, without IPv6 brackets. */
function unbracket(host: string): string {
  return host.replace(/^\[|\]$/g, "");
}

/** Milliseconds since `started`, to two decimals. */
function elapsedSince(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

/** Only plain public unicast addresses count as public. */
export function isPublicAddress(address: string): boolean {
  try {
    return normalise(address).range() === "unicast";
  } catch {
    return false;
  }
}

export class OutboundGuard {
  private readonly allow: AllowEntry[];
  private readonly ports: Set<number>;

  constructor(options: OutboundOptions) {
    this.allow = parseAllow(options.allow);
    this.ports = new Set([...DEFAULT_PORTS, ...(options.allowedPorts ?? [])]);
  }

  /** Is the host named on the allow-list (as a name, not as an address)? */
  private hostListed(bare: string): boolean {
    const host = bare.toLowerCase();
    return this.allow.some((entry) => entry.host === host);
  }

  private hostAllowed(host: string): boolean {
    const bare = unbracket(host.toLowerCase());
    return this.hostListed(bare) || this.addressAllowed(bare);
  }

  private addressAllowed(address: string): boolean {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = normalise(address);
    } catch {
      return false;
    }
    return this.allow.some((entry) => {
      if (!entry.range) return false;
      const [range, bits] = entry.range;
      const comparable = range.kind() === "ipv6" && (range as ipaddr.IPv6).isIPv4MappedAddress() ? (range as ipaddr.IPv6).toIPv4Address() : range;
      return comparable.kind() === parsed.kind() && parsed.match(comparable, comparable === range ? bits : Math.max(0, bits - 96));
    });
  }

  /** Checks the URL's form (scheme, port, credentials); addresses are checked on connect. */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UrlBlockedError("invalid_url", "The URL is not valid.");
    }
    if (url.username || url.password) throw new UrlBlockedError("credentials_in_url", "URLs with credentials are not accepted.");
    const allowListed = this.hostAllowed(url.hostname);
    if (url.protocol !== "https:" && !(url.protocol === "http:" && allowListed)) {
      throw new UrlBlockedError("scheme_not_allowed", "Only https URLs are accepted.");
    }
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    if (!allowListed && !this.ports.has(port)) throw new UrlBlockedError("port_not_allowed", `Port ${port} is not allowed; use ${[...this.ports].join(", ")}.`);
    return url;
  }

  /** The addresses a host resolves to, every one of which must be allowed. */
  async resolveAllowed(hostname: string): Promise<string[]> {
    const bare = unbracket(hostname);
    let addresses: string[];
    if (ipaddr.isValid(bare)) {
      addresses = [bare];
    } else {
      try {
        addresses = (await dns.promises.lookup(bare, { all: true, verbatim: true })).map((entry) => entry.address);
      } catch {
        throw new UrlBlockedError("dns_failed", `The host ${bare} does not resolve.`);
      }
    }
    const hostListed = this.hostListed(bare);
    const blocked = addresses.find((address) => !hostListed && !isPublicAddress(address) && !this.addressAllowed(address));
    if (blocked) throw new UrlBlockedError("address_not_public", `The host ${bare} resolves to ${blocked}, which is not a public address.`);
    return addresses;
  }

  /** Registration-time check: the form, and what the host resolves to now. */
  async assertAllowed(raw: string): Promise<URL> {
    const url = this.checkUrl(raw);
    await this.resolveAllowed(url.hostname);
    return url;
  }

  /** A lookup for node's http that refuses to hand back an address the guard would refuse. */
  private lookup(): LookupFunction {
    return (hostname, options, callback) => {
      this.resolveAllowed(hostname).then(
        (addresses) => {
          const address = addresses[0]!;
          const family = address.includes(":") ? 6 : 4;
          if ((options as { all?: boolean }).all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, addresses.map((item) => ({ address: item, family: item.includes(":") ? 6 : 4 })));
          else callback(null, address, family);
        },
        (error: Error) => callback(error as NodeJS.ErrnoException, "", 4),
      );
    };
  }

  /** Fetches a URL under the guard: no redirects followed, time and size capped. */
  fetch(raw: string, options: FetchOptions = {}): Promise<FetchResult> {
    const started = performance.now();
    let url: URL;
    try {
      url = this.checkUrl(raw);
    } catch (error) {
      return Promise.reject(new OutboundFetchError((error as UrlBlockedError).reason, (error as Error).message, 0));
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_BYTES;
    const transport = url.protocol === "https:" ? https : http;
    // Node connects to an address literal without a lookup, so it is checked here instead.
    const literal = ipaddr.isValid(unbracket(url.hostname));
    const precheck = literal ? this.resolveAllowed(url.hostname) : Promise.resolve([]);

    return precheck.then(
      () => this.send(url, transport, options, timeoutMs, maxBytes, started),
      (error: UrlBlockedError) => Promise.reject(new OutboundFetchError(error.reason, error.message, elapsedSince(started))),
    );
  }

  private send(url: URL, transport: typeof http | typeof https, options: FetchOptions, timeoutMs: number, maxBytes: number, started: number): Promise<FetchResult> {
    return new Promise<FetchResult>((resolve, reject) => {
      let settled = false;
      const fail = (reason: FetchFailure, message: string) => {
        if (settled) return;
        settled = true;
        reject(new OutboundFetchError(reason, message, elapsedSince(started)));
      };
      const request = transport.request(
        url,
        {
          method: options.method ?? "GET",
          headers: { "user-agent": DEFAULT_USER_AGENT, ...options.headers, ...(options.body !== undefined && { "content-length": String(Buffer.byteLength(options.body)) }) },
          lookup: this.lookup(),
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          let truncated = false;
          response.on("data", (chunk: Buffer) => {
            if (truncated) return;
            size += chunk.length;
            if (size > maxBytes) {
              chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
              truncated = true;
              response.destroy();
              finish();
              return;
            }
            chunks.push(chunk);
          });
          const finish = () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), truncated, durationMs: elapsedSince(started), remoteAddress: request.socket?.remoteAddress });
          };
          response.on("end", finish);
          response.on("error", () => (truncated ? undefined : fail("connection_failed", "The connection broke while reading the answer.")));
        },
      );
      const timer = setTimeout(() => {
        fail("timeout", `No complete answer within ${timeoutMs} ms.`);
        request.destroy();
      }, timeoutMs);
      request.on("error", (error) => {
        clearTimeout(timer);
        if (error instanceof UrlBlockedError) fail(error.reason, error.message);
        else fail("connection_failed", `Could not connect: ${(error as NodeJS.ErrnoException).code ?? error.message}`);
      });
      if (options.body !== undefined) request.write(options.body);
      request.end();
    });
  }
}
