// Helpers of the action tests that call generation actions over REST: a funded fixture, the
// balance, an answer expected to succeed or be refused, and reference images served on loopback
// (the URL guard allows 127.0.0.1 in tests).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, expect } from "vitest";
import { addCredits } from "../../src/credits/ledger.js";
import { createFixture, type ApiResponse, type Fixture, type TestService } from "./service.js";

type Row = Record<string, any>;

/** A new workspace and key with `amount` credits granted. */
export async function funded(service: TestService, amount: number): Promise<Fixture> {
  const fixture = await createFixture(service);
  const prisma = service.service.database.prisma;
  if (amount > 0) await prisma.$transaction((tx) => addCredits(tx, { workspaceId: fixture.workspaceId, amount, actionType: "grant" }));
  return fixture;
}

/** The workspace's credit balance as stored. */
export async function balanceOf(service: TestService, workspaceId: string): Promise<number> {
  return (await service.service.database.prisma.workspace.findUniqueOrThrow({ where: { workspace_id: workspaceId } })).credit_balance;
}

/** The workspace's ledger, oldest movement first. */
export function ledgerOf(service: TestService, workspaceId: string) {
  return service.service.database.prisma.creditTransaction.findMany({ where: { workspace_id: workspaceId }, orderBy: [{ created_at: "asc" }, { transaction_id: "asc" }] });
}

/** The body of a 200 answer. */
export function ok(response: ApiResponse): Row {
  expect(response.status, response.text).toBe(200);
  return response.body as Row;
}

/** The error of a refused answer, checked for its status and code. */
export function refused(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code });
  return response.body.error as Row;
}

/** A loopback server answering a small PNG on every path but `/notes.txt` (plain text); its base URL. */
export function useLoopbackImages(size: { width: number; height: number } = { width: 64, height: 48 }): { readonly base: string } {
  let server: Server | undefined;
  let base = "";
  beforeAll(async () => {
    const png = await sharp({ create: { ...size, channels: 3, background: "#3366cc" } }).png().toBuffer();
    server = createServer((request, response) => {
      if (request.url === "/notes.txt") return void response.writeHead(200, { "content-type": "text/plain" }).end("not an image");
      response.writeHead(200, { "content-type": "image/png" }).end(png);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return {
    get base() {
      return base;
    },
  };
}
