// The one way the service fetches a URL a user handed it (webhooks, pages to read, media to
// fetch). Only https to public addresses on allowed ports, unless the target is on the explicit
// allow-list (CUTROOM_OUTBOUND_ALLOW: hosts or CIDRs, e.g. 127.0.0.1,::1 in tests). The address
// check runs inside the connection's own DNS lookup, so the address checked is the address
// connected to (no DNS rebinding). Redirects are never followed; time and size are capped.
// "Public" is an allow rule, not a deny list of ranges (docs/security.md): IPv4 outside the
// special-purpose blocks, IPv6 in global unicast outside its special blocks, and IPv6 forms that
// carry an IPv4 address (mapped, compatible, SIIT, NAT64, 6to4, Teredo) judged by that address.
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

/** Every address a host name resolves to, in the resolver's order; rejects when it does not resolve. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** The system resolver (getaddrinfo), every address in its own order. */
const systemResolver: ResolveHost = async (hostname) => (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface OutboundOptions {
  /** Hostnames, addresses or CIDR ranges reachable even when private, loopback or plain http. */
  allow: readonly string[];
  /** Ports reachable on non-allow-listed targets besides 443 (and 80 for allow-listed http). */
  allowedPorts?: readonly number[];
  /** How host names are resolved; the system resolver unless given (tests hand in their own answers). */
  resolve?: ResolveHost;
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

type Address = ipaddr.IPv4 | ipaddr.IPv6;

interface AllowEntry {
  host?: string;
  range?: [Address, number];
}

/**
 * IPv4 blocks that are not the public internet (IANA special-purpose registry): this host,
 * private, shared (CGNAT), loopback, link-local (cloud metadata), protocol assignments,
 * documentation, benchmarking, 6to4 relays, multicast, reserved and broadcast.
 */
const NON_PUBLIC_V4 = [
  "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24",
  "192.31.196.0/24", "192.52.193.0/24", "192.88.99.0/24", "192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15", "198.51.100.0/24",
  "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

/** Only global unicast (2000::/3) can be public IPv6 ... */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
/** ... minus IETF protocol assignments (2001::/23, Teredo aside), documentation and SRv6 SIDs. */
const NON_PUBLIC_V6 = ["2001::/23", "2001:db8::/32", "3fff::/20", "5f00::/16"].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

const V6 = (cidr: string) => ipaddr.IPv6.parseCIDR(cidr);
/** IPv6 forms that carry an IPv4 address in their last 32 bits and reach that address. */
const LAST_32_BITS_V4 = [V6("::ffff:0:0/96") /* mapped */, V6("::/96") /* compatible */, V6("::ffff:0:0:0/96") /* SIIT */, V6("64:ff9b::/96") /* NAT64 */];
/** Local-use NAT64 (RFC 8215): translated inside someone's network, to an address whose place in it depends on the prefix length. */
const LOCAL_NAT64 = V6("64:ff9b:1::/48");
const SIX_TO_FOUR = V6("2002::/16");
const TEREDO = V6("2001::/32");

function ipv4FromBytes(bytes: readonly number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4([bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!]);
}

/**
 * The IPv4 addresses an IPv6 address embeds, by the form it is written in: IPv4-mapped,
 * IPv4-compatible, SIIT and NAT64 (last 32 bits), 6to4 (bits 16-47) and Teredo (the server in
 * bits 32-63 and the client, inverted, in the last 32). Undefined when it embeds none.
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const bytes = address.toByteArray();
  if (LAST_32_BITS_V4.some(([range, bits]) => address.match(range, bits))) return [ipv4FromBytes(bytes.slice(12))];
  if (address.match(...SIX_TO_FOUR)) return [ipv4FromBytes(bytes.slice(2, 6))];
  if (address.match(...TEREDO)) return [ipv4FromBytes(bytes.slice(4, 8)), ipv4FromBytes(bytes.slice(12).map((byte) => byte ^ 0xff))];
  return undefined;
}

function isPublicIPv4(address: ipaddr.IPv4): boolean {
  return !NON_PUBLIC_V4.some(([range, bits]) => address.match(range, bits));
}

function parseAddress(address: string): Address | undefined {
  try {
    return ipaddr.parse(address);
  } catch {
    return undefined;
  }
}

/**
 * Is this address on the public internet? IPv4 outside the special-purpose blocks; IPv6 that
 * embeds IPv4 only if every embedded address is public; other IPv6 only in global unicast outside
 * its special blocks. Anything unparsable, or scoped to an interface (a zone id), is not.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  if (parsed.kind() === "ipv4") return isPublicIPv4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (v6.zoneId) return false;
  if (v6.match(...LOCAL_NAT64)) return false;
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.every(isPublicIPv4);
  return v6.match(...GLOBAL_UNICAST_V6) && !NON_PUBLIC_V6.some(([range, bits]) => v6.match(range, bits));
}

/**
 * The address a connection to `address` really reaches, for allow-list matching: an IPv6 form
 * that reaches an IPv4 address directly (mapped, compatible, SIIT, NAT64) is that IPv4 address.
 */
function reachedAddress(address: Address): Address {
  if (address.kind() === "ipv4") return address;
  const v6 = address as ipaddr.IPv6;
  return LAST_32_BITS_V4.some(([range, bits]) => v6.match(range, bits)) ? ipv4FromBytes(v6.toByteArray().slice(12)) : v6;
}

/** An allow-list CIDR in an IPv4-carrying IPv6 form is the IPv4 range it covers (when it covers only such addresses). */
function reachedRange([range, bits]: [Address, number]): [Address, number] {
  const reached = reachedAddress(range);
  if (reached === range) return [range, bits];
  return bits >= 96 ? [reached, bits - 96] : [range, bits];
}

/** A host name as the allow-list compares it: lower case, without brackets or a trailing dot. */
function hostKey(host: string): string {
  return host.trim().toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
}

function parseAllow(entries: readonly string[]): AllowEntry[] {
  return entries.map(hostKey).filter(Boolean).map((entry) => {
    try {
      if (entry.includes("/")) return { range: reachedRange(ipaddr.parseCIDR(entry)) };
      const address = reachedAddress(ipaddr.parse(entry));
      return { range: [address, address.kind() === "ipv4" ? 32 : 128] as [Address, number] };
    } catch {
      return { host: entry };
    }
  });
}

/** A host as written in a URL, without IPv6 brackets. */
function unbracket(host: string): string {
  return host.replace(/^\[|\]$/g, "");
}

/** Milliseconds since `started`, to two decimals. */
function elapsedSince(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

export class OutboundGuard {
  private readonly allow: AllowEntry[];
  private readonly ports: Set<number>;
  private readonly resolve: ResolveHost;

  constructor(options: OutboundOptions) {
    this.allow = parseAllow(options.allow);
    this.ports = new Set([...DEFAULT_PORTS, ...(options.allowedPorts ?? [])]);
    this.resolve = options.resolve ?? systemResolver;
  }

  /** Is the host named on the allow-list (as a name, not as an address)? */
  private hostListed(host: string): boolean {
    const key = hostKey(host);
    return this.allow.some((entry) => entry.host === key);
  }

  private hostAllowed(host: string): boolean {
    return this.hostListed(host) || this.addressAllowed(unbracket(host));
  }

  /** Is the address on the allow-list, compared by the address a connection to it reaches? */
  private addressAllowed(address: string): boolean {
    const parsed = parseAddress(address);
    if (!parsed || (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).zoneId)) return false;
    const reached = reachedAddress(parsed);
    return this.allow.some((entry) => {
      if (!entry.range) return false;
      const [range, bits] = entry.range;
      return range.kind() === reached.kind() && reached.match(range, bits);
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

  /**
   * The addresses a host resolves to, every one of which must be allowed: a connection may be made
   * to any of them (node tries each in turn), so one private address among public ones refuses
   * the host, wherever it stands in the answer.
   */
  async resolveAllowed(hostname: string): Promise<string[]> {
    const bare = unbracket(hostname);
    let addresses: string[];
    if (ipaddr.isValid(bare)) {
      addresses = [bare];
    } else {
      try {
        addresses = await this.resolve(bare);
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
