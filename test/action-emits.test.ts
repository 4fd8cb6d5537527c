// Declared events are emitted: every live action that lists events besides action.completed /
// action.failed (renders.create → render.started, images.generate → generation.completed, ...) runs
// its declared example with real workers and the provider stand-in, and each listed event must
// reach the outbox, naming what the call made. Derived from the catalog: a new action is covered.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../src/platform/catalogs.js";
import { allActions } from "../src/actions/catalog.js";
import type { ExampleSetup, LiveAction } from "../src/actions/framework/action.js";
import { addCredits } from "../src/credits/ledger.js";
import { EXAMPLE_PAGE_HTML, EXAMPLE_PAGE_PASSAGE, EXAMPLE_PAGE_PATH } from "./support/example-page.js";
import { siteUrls } from "./support/provider-standin/site-routes.js";
import { createFixture, isolatedEnvironment, useService, useStandIn, type Client } from "./support/service.js";

const environment = isolatedEnvironment("action-emits", { runWorkers: true, renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const overrides = environment.overrides;
const providers = useStandIn(overrides);
const service = useService(overrides);
const prisma = () => service.service.database.prisma;

// A 1x1 PNG (and an article page) served on loopback for examples that take an image (or read a page).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
let server: Server;
let imageUrl = "";
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === EXAMPLE_PAGE_PATH) response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(EXAMPLE_PAGE_HTML);
    else response.writeHead(200, { "content-type": "image/png" }).end(PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  imageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pixel.png`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

function call(client: Client, action: LiveAction, input: Record<string, unknown>) {
  if (action.method === "POST") return client.post(`/api/v1/actions/${action.name}`, input);
  const query = new URLSearchParams(Object.entries(input).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]));
  return client.get(`/api/v1/actions/${action.name}?${query}`);
}

const emitting = allActions().filter((action) => action.emits.length > 0);

describe("declared events", () => {
  it("are declared by the actions the contract says emit them", () => {
    expect(Object.fromEntries(emitting.map((action) => [action.name, [...action.emits]]))).toMatchObject({
      "renders.create": ["render.started"],
      "images.generate": ["generation.completed"],
    });
  });

  for (const action of emitting) {
    it(`${action.name} emits ${action.emits.join(", ")}`, async () => {
      const fixture = await createFixture(service);
      await prisma().$transaction((tx) => addCredits(tx, { workspaceId: fixture.workspaceId, amount: 500, actionType: "grant" }));
      const setup: ExampleSetup = {
        create: async (resource, body) => (await fixture.client.post(`/api/v1/${resource}`, body)).body,
        action: async (name, input) => (await call(fixture.client, allActions().find((candidate) => candidate.name === name)!, input)).body,
        image: async () => ({ base64: PNG.toString("base64"), url: imageUrl }),
        page: async () => ({ url: new URL(EXAMPLE_PAGE_PATH, imageUrl).toString(), passage: EXAMPLE_PAGE_PASSAGE }),
        site: async () => siteUrls(providers.standIn.url),
      };
      const answer = await call(fixture.client, action, (await action.example?.(setup)) ?? {});
      expect(answer.status, answer.text).toBe(200);
      const made = JSON.stringify(answer.body);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const events = await prisma().outboxEvent.findMany({ where: { workspace_id: fixture.workspaceId, type: { in: [...action.emits] } } });
        const seen = new Set(events.map((event) => event.type));
        if (action.emits.every((type) => seen.has(type))) {
          // Each event is about what the call made (its id appears in the answer).
          for (const event of events) {
            const subject = (event.data as { object: Record<string, unknown> }).object;
            const id = Object.entries(subject).find(([key, value]) => key.endsWith("_id") && typeof value === "string" && made.includes(value));
            expect(id, `${event.type} names a record of the call`).toBeDefined();
          }
          break;
        }
        if (Date.now() > deadline) throw new Error(`${action.name}: saw ${[...seen].join(", ") || "nothing"} of ${action.emits.join(", ")}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }, 90_000);
  }
});
