// A client that hangs up mid-request (autocannon at the end of a run, a browser tab closed) is not
// a fault of the service: it is a debug-level line and a 499 in the request log, never an
// "unexpected fault" at error level.
import net from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFixture, useService } from "./support/service.js";
import { logger } from "../src/logger.js";
import { sleep, waitFor } from "./support/wait.js";

const service = useService();

afterEach(() => {
  vi.restoreAllMocks();
});

/** Sends the headers and part of a body, then closes the connection once the service is reading it. */
async function abandon(path: string, key: string): Promise<void> {
  const url = new URL(service.url);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(`POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"folder_name": `);
  // The request is past its key and guards, waiting for the rest of its body.
  await sleep(500);
  socket.destroy();
}

describe("a request its client abandons", () => {
  for (const path of ["/api/v1/folders", "/graphql"]) {
    it(`is logged at debug level with status 499 (${path})`, async () => {
      const fixture = await createFixture(service);
      const error = vi.spyOn(logger, "error");
      const debug = vi.spyOn(logger, "debug");
      await abandon(path, fixture.key);

      const prisma = service.service.database.prisma;
      const logged = await waitFor(
        "the abandoned request in the log",
        async () => {
          await service.service.guards.requestLog.flush();
          const rows = await prisma.requestLog.findMany({ where: { key_id: fixture.keyId }, select: { status: true } });
          return rows.length > 0 ? rows : undefined;
        },
        5_000,
        100,
      );
      expect(logged).toEqual([{ status: 499 }]);
      expect(debug).toHaveBeenCalledWith(expect.objectContaining({ status: 499 }), "client closed the request");
      expect(error).not.toHaveBeenCalled();
    });
  }
});
