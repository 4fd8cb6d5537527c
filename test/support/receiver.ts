// A webhook receiver on loopback for tests: records every request, answers as told, and checks
// signatures the way a receiver would, with its own HMAC (never the service's code).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac, timingSafeEqual } from "node:crypto";
import { afterEach } from "vitest";

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Answers one request; `index` is its position among the requests this receiver got. */
export type Responder = (request: Received, response: http.ServerResponse, index: number) => void;

export interface Receiver {
  url: string;
  received: Received[];
  respond: Responder;
  close(): Promise<void>;
}

const receivers: Receiver[] = [];

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

export const answer = (status: number, body = "ok"): Responder => (_request, response) => {
  response.writeHead(status, { "content-type": "text/plain" });
  response.end(body);
};

/** Starts a receiver at http://127.0.0.1:<port>/hook; it is closed after the test. */
export async function startReceiver(respond: Responder = answer(200)): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(entry);
      receiver.respond(entry, response, received.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    respond,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(receiver);
  return receiver;
}

/** `t=<unix>,v1=<hex>[,v1=<hex>]` taken apart; undefined when t is missing or not a number. */
export function parseSignatureHeader(header: string | string[] | undefined): { t: string; v1: string[] } | undefined {
  if (typeof header !== "string") return undefined;
  const parts = header.split(",").map((part) => part.trim());
  const t = parts.filter((part) => part.startsWith("t=")).map((part) => part.slice(2));
  if (t.length !== 1 || !/^\d+$/.test(t[0]!)) return undefined;
  return { t: t[0]!, v1: parts.filter((part) => part.startsWith("v1=")).map((part) => part.slice(3)) };
}

/** For each v1 signature: does it sign `${t}.${rawBody}` under `secret`? */
export function signedWith(header: string | string[] | undefined, rawBody: string, secret: string): boolean[] {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return [];
  const expected = createHmac("sha256", secret).update(`${parsed.t}.${rawBody}`).digest();
  return parsed.v1.map((hex) => /^[0-9a-f]{64}$/.test(hex) && timingSafeEqual(Buffer.from(hex, "hex"), expected));
}

/** What a receiver does (contract 6.2): a valid v1 and a t no more than five minutes off. */
export function verifySignature(header: string | string[] | undefined, rawBody: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const parsed = parseSignatureHeader(header);
  if (!parsed || Math.abs(nowSeconds - Number(parsed.t)) > 300) return false;
  return signedWith(header, rawBody, secret).some(Boolean);
}
