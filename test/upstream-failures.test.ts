// A provider that is too slow or answers a malformed 200 during a long operation is the
// provider's failure, not ours (issue "Reliability and security, round two", 5): the operation
// fails with upstream_error naming the provider, retryable, and the credits come back.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, funded, ok } from "./support/action-calls.js";
import { isolatedEnvironment, useService, useStandIn } from "./support/service.js";
import { waitFor } from "./support/wait.js";

const environment = isolatedEnvironment("upstream_failures", { runWorkers: true, dispatchIntervalMs: 60_000, outboundAllow: ["127.0.0.1"] });
const providers = useStandIn(environment.overrides, {
  CUTROOM_PROVIDER_MAX_RETRIES: "0",
  CUTROOM_PROVIDER_TIMEOUT_MS: "800",
  CUTROOM_PROVIDER_LONG_TIMEOUT_MS: "3000",
  CUTROOM_PROVIDER_POLL_INTERVAL_MS: "50",
});
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

async function failedMusic(client: Awaited<ReturnType<typeof funded>>["client"]) {
  const started = ok(await client.post("/api/v1/actions/music.generate", { prompt: "a slow song", title: "Slow" }));
  const generationId = started.generation_id as string;
  const row = await waitFor("the music to end", async () => {
    const found = await prisma().musicGeneration.findUniqueOrThrow({ where: { generation_id: generationId } });
    return found.status === "failed" || found.status === "completed" ? found : undefined;
  }, 60_000, 100);
  const operation = await prisma().operation.findFirstOrThrow({ where: { subject_id: generationId } });
  return { row, operation };
}

describe("a long operation's provider failures", () => {
  it.each([
    ["a status poll slower than the per-request limit", () => providers.standIn.slowNext("fal.status", 5_000)],
    ["a malformed 200 result", () => providers.standIn.answerNext("fal.result", "<html>maintenance</html>")],
  ])("%s fails the operation with upstream_error naming fal, and refunds", async (_name, arrange) => {
    const { client, workspaceId } = await funded(service, 100);
    arrange();
    const { row, operation } = await failedMusic(client);
    expect(row.status).toBe("failed");
    expect(operation.error_code, operation.error_message ?? "").toBe("upstream_error");
    expect(operation.error_message).toMatch(/fal/);
    expect(await balanceOf(service, workspaceId)).toBe(100);
  });
});

/** Pages on loopback: /down answers 503, /gone 404. */
let pages: Server;
let base = "";
beforeAll(async () => {
  pages = createServer((request, response) => {
    response.writeHead(request.url === "/down" ? 503 : 404, { "content-type": "text/html" }).end("<h1>no</h1>");
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});
afterAll(async () => {
  pages.closeAllConnections();
  await new Promise((resolve) => pages.close(resolve));
});

describe("the same page failure, the same code in every action that reads a page", () => {
  it.each([
    ["/down", 502, "upstream_error"],
    ["/gone", 400, "invalid_request"],
  ])("a page at %s is %i %s in faceless.analyze_url and scripts.write_from_link alike", async (path, status, code) => {
    const { client, workspaceId } = await funded(service, 100);
    const script = ok(await client.post("/api/v1/actions/scripts.create", { title: "Pages" }));
    const analyzed = await client.post("/api/v1/actions/faceless.analyze_url", { url: `${base}${path}` });
    const written = await client.post("/api/v1/actions/scripts.write_from_link", { script_id: script.script_id, urls: [`${base}${path}`] });
    expect(analyzed.body.error, analyzed.text).toMatchObject({ code, status, param: "url" });
    expect(written.body.error, written.text).toMatchObject({ code, status, param: "urls.0" });
    expect(analyzed.body.error.retryable).toBe(status === 502);
    expect(await balanceOf(service, workspaceId)).toBe(100);
  });
});
