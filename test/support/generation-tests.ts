// Shared by the AI generation tests (videos-ai, generations-launch, characters): an environment of
// its own with workers and the provider stand-in, funded fixtures, a loopback server of real
// images, and waits on the records the operations move.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll } from "vitest";
import { FFMPEG_PATH } from "../../src/media/binaries.js";
import { balanceOf, funded, ledgerOf } from "./action-calls.js";
import { isolatedEnvironment, useService, useStandIn } from "./service.js";
import { waitFor } from "./wait.js";

const run = promisify(execFile);
 
export type Row = Record<string, any>;

/** A service with workers, the stand-in, and a loopback server of two PNGs (`/a.png` 96x64, `/b.png` 64x64). */
export function useGenerationService(name: string) {
  const environment = isolatedEnvironment(name, { runWorkers: true, dispatchIntervalMs: 60_000 });
  const providers = useStandIn(environment.overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
  const service = useService(environment.overrides);
  const prisma = () => service.service.database.prisma;
  let server: Server | undefined;
  const images = { a: "", b: "", text: "" };
  beforeAll(async () => {
    const png = async (source: string) => (await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", source, "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "-"], { encoding: "buffer", maxBuffer: 1 << 20 })).stdout;
    const files: Record<string, Buffer> = { "/a.png": await png("testsrc=s=96x64"), "/b.png": await png("color=c=blue:s=64x64") };
    server = createServer((request, response) => {
      const file = files[request.url ?? ""];
      if (file) return void response.writeHead(200, { "content-type": "image/png" }).end(file);
      response.writeHead(200, { "content-type": "text/plain" }).end("not an image");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(images, { a: `${base}/a.png`, b: `${base}/b.png`, text: `${base}/notes.txt` });
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  return {
    service,
    prisma,
    standIn: () => providers.standIn,
    images,
    funded: (amount: number) => funded(service, amount),
    balanceOf: (workspaceId: string) => balanceOf(service, workspaceId),
    ledger: (workspaceId: string) => ledgerOf(service, workspaceId),
    eventsOf: (workspaceId: string, prefix: string) => prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: { startsWith: prefix } }, orderBy: { seq: "asc" } }),
    /** The generation once it completed or failed. */
    finished: (generationId: string) =>
      waitFor("the generation to finish", async () => {
        const row = await prisma().generation.findUniqueOrThrow({ where: { generation_id: generationId } });
        return row.status === "completed" || row.status === "failed" ? row : undefined;
      }, 30_000, 100),
  };
}

export { ok, refused } from "./action-calls.js";

export async function download(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) };
}
