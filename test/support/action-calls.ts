// Helpers of the action tests that call actions over REST: a funded fixture, the balance and the
// ledger, an answer expected to succeed or be refused, a render waited for until it ends, and
// reference images served on loopback (the URL guard allows 127.0.0.1 in tests).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, expect } from "vitest";
import { addCredits } from "../../src/credits/ledger.js";
import { createFixture, type ApiResponse, type Client, type Fixture, type TestService } from "./service.js";
import { waitForStatus } from "./wait.js";

type Row = Record<string, any>;

/** A new workspace and key (created with `options`) with `amount` credits granted through the ledger. */
export async function funded(service: TestService, amount: number, options: Parameters<typeof createFixture>[1] = {}): Promise<Fixture> {
  const fixture = await createFixture(service, options);
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

/** The render once it completed or failed, as renders.list shows it to the client. */
export async function renderEnded(client: Client, videoId: string, renderId: string, timeoutMs = 90_000): Promise<Row> {
  const listed = async () => (ok(await client.get(`/api/v1/actions/renders.list?video_id=${videoId}&all_renders=true`)).data as Row[]).find((row) => row.render_id === renderId);
  return (await waitForStatus(`render ${renderId}`, listed, (render) => render?.render_status as string | undefined, ["completed", "failed"], timeoutMs, 250))!;
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
