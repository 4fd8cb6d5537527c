// The shared security suite: it walks every resource route and every live action (from the
// registries, so a new one is covered without new test code) with
// - too few scopes: 403 insufficient_scope naming the required and the granted scopes;
// - another workspace's ids: 403 workspace_mismatch or 404, and nothing of the owner changes;
// - an sk_test_ key: X-Test-Mode, livemode false, zero rows, zero credits, zero events, zero
//   provider calls;
// - an unknown field: 422 validation_failed with `allowed`.
// Actions run their declared example first with a full key: the runner checks every answer
// against the action's declared output here (CUTROOM_CHECK_OUTPUTS is on in tests).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../src/platform/catalogs.js";
import { servedResources } from "../src/registry/resources.js";
import type { ResourceDefinition } from "../src/registry/resource.js";
import { resourceOperations, requiredScope } from "../src/resources/operations.js";
import { allActions } from "../src/actions/catalog.js";
import { actionSchema } from "../src/actions/framework/input.js";
import { VIDEO_FIELDS } from "../src/actions/catalog.js";
import type { ExampleSetup, LiveAction } from "../src/actions/framework/action.js";
import { SCOPE_GROUPS } from "../src/auth/scopes.js";
import { datamodel } from "../src/graphql/datamodel.js";
import { addCredits } from "../src/credits/ledger.js";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { createFixture, useService, useStandIn, type ApiResponse, type Client, type Fixture } from "./support/service.js";
import { ROUND_TRIPS, createPayload, platformSeeds, seeds } from "./support/records.js";
import { newId } from "../src/ids.js";
import { EXAMPLE_PAGE_HTML, EXAMPLE_PAGE_PASSAGE, EXAMPLE_PAGE_PATH } from "./support/example-page.js";
import { siteUrls } from "./support/provider-standin/site-routes.js";

const run = promisify(execFile);

// Images and a page an action may fetch are served on loopback, which the URL guard allows here.
let imageServer: Server;
let imageUrl = "";
let imageBase64 = "";
let pageUrl = "";
let audioUrl = "";
const AUDIO_PATH = "/example-audio.wav";
beforeAll(async () => {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "-"], { encoding: "buffer", maxBuffer: 1 << 20 });
  const png = stdout as unknown as Buffer;
  imageBase64 = png.toString("base64");
  const { stdout: wavOut } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=300:duration=2", "-ac", "1", "-ar", "16000", "-f", "wav", "-"], { encoding: "buffer", maxBuffer: 1 << 20 });
  const wav = wavOut as unknown as Buffer;
  imageServer = createServer((request, response) => {
    if (request.url === AUDIO_PATH) response.writeHead(200, { "content-type": "audio/wav", "content-length": String(wav.length) }).end(wav);
    else if (request.url === EXAMPLE_PAGE_PATH) response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(EXAMPLE_PAGE_HTML);
    else response.writeHead(200, { "content-type": "image/png", "content-length": String(png.length) }).end(png);
  });
  await new Promise<void>((resolve) => imageServer.listen(0, "127.0.0.1", resolve));
  imageUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}/red.png`;
  pageUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}${EXAMPLE_PAGE_PATH}`;
  audioUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}${AUDIO_PATH}`;
});
afterAll(async () => {
  imageServer?.closeAllConnections();
  await new Promise((resolve) => imageServer?.close(resolve));
});

const overrides = { outboundAllow: ["127.0.0.1"] };
const providers = useStandIn(overrides);
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const SEEDS = { ...seeds(prisma), ...platformSeeds(prisma) };

type Row = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// What a workspace holds, to prove that nothing changed.

const WORKSPACE_MODELS = Object.entries(datamodel.datamodel.models)
  .filter(([, model]) => (model.fields as readonly { name: string }[]).some((field) => field.name === "workspace_id"))
  .map(([name]) => name.charAt(0).toLowerCase() + name.slice(1));

interface Holdings {
  rows: Record<string, number>;
  balance: number;
}

async function holdings(workspaceId: string): Promise<Holdings> {
  const client = prisma() as unknown as Record<string, { count(args: unknown): Promise<number> }>;
  const rows: Record<string, number> = {};
  // The request log records every call, test keys' included: it is not a write of the call.
  for (const model of WORKSPACE_MODELS.filter((name) => name !== "requestLog")) rows[model] = await client[model]!.count({ where: { workspace_id: workspaceId } });
  const { credit_balance: balance } = await prisma().workspace.findUniqueOrThrow({ where: { workspace_id: workspaceId } });
  return { rows, balance };
}

// ---------------------------------------------------------------------------------------------

function expectRefusal(response: ApiResponse, status: number, codes: string[]): Row {
  expect(response.status, response.text).toBe(status);
  expect(codes, response.text).toContain(response.body?.error?.code);
  expect(response.body.error.request_id).toBe(response.headers.get("x-request-id"));
  return response.body.error as Row;
}

/** Every scope of a group except one: "too few" by exactly the one the route needs. */
function allBut(required: readonly string[], missing: string): string[] {
  const group = missing.split(":")[0]!;
  const others = ((SCOPE_GROUPS[group as keyof typeof SCOPE_GROUPS] ?? []) as readonly string[]).map((action: string) => `${group}:${action}`).filter((scope: string) => scope !== missing);
  return [...new Set([...required.filter((scope) => scope !== missing), ...others])];
}

function idPath(resource: ResourceDefinition, id: string) {
  return `/api/v1/${resource.name}/${encodeURIComponent(id)}`;
}

/** One record of the resource in the fixture's workspace; its id. */
async function recordOf(resource: ResourceDefinition, fixture: Fixture): Promise<string> {
  const seed = SEEDS[resource.name];
  if (seed) return seed(fixture.workspaceId);
  const created = await fixture.client.post(`/api/v1/${resource.name}`, await createPayload(prisma(), resource.name, fixture.workspaceId));
  expect(created.status, created.text).toBe(201);
  return created.body[resource.idField] as string;
}

describe("every resource route", () => {
  for (const resource of servedResources()) {
    for (const operation of resourceOperations(resource)) {
      const required = requiredScope(resource, operation);
      const member = operation.path.includes(":");
      it(`${operation.method} /${resource.name}${member ? "/{id}" : ""}: scopes, another workspace, test key, unknown field`, async () => {
        const owner = await createFixture(service);
        const intruder = await createFixture(service);
        const id = await recordOf(resource, owner);
        const path = member ? idPath(resource, id) : `/api/v1/${resource.name}`;
        const body = operation.route === "create" ? await createPayload(prisma(), resource.name, owner.workspaceId) : operation.route === "update" ? (ROUND_TRIPS[resource.name]?.update ?? {}) : undefined;
        const call = (client: Client, payload = body) => client.request(operation.method, path, payload === undefined ? {} : { body: payload });

        // Too few scopes.
        const granted = allBut([required], required);
        const limited = await owner.newKey({ scopes: granted });
        const refused = expectRefusal(await call(limited.client), 403, ["insufficient_scope"]);
        expect(refused.details).toEqual({ required_scopes: [required], granted_scopes: granted });

        // Another workspace's record: refused, and the owner's record is untouched.
        const test = await owner.newKey({ mode: "test" });
        const before = await holdings(owner.workspaceId);
        if (member) expectRefusal(await call(intruder.client), 403, ["workspace_mismatch", "not_found"]);
        else if (operation.route === "list") expect(JSON.stringify((await intruder.client.get(path)).body.data)).not.toContain(id);
        expect(await holdings(owner.workspaceId)).toEqual(before);

        // A test key: the whole path runs, nothing is written or spent.
        const simulated = await call(test.client);
        expect(simulated.status, simulated.text).toBeLessThan(300);
        expect(simulated.headers.get("x-test-mode")).toBe("true");
        expect(simulated.body.livemode).toBe(false);
        expect(await holdings(owner.workspaceId)).toEqual(before);

        // An unknown field.
        if (body !== undefined) {
          const unknown = expectRefusal(await call(owner.client, { ...body, not_a_field: 1 }), 422, ["validation_failed"]);
          expect(unknown.details.issues).toContainEqual(expect.objectContaining({ path: "not_a_field", type: "object.unknown", allowed: expect.any(Array) }));
        }
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------

/** The example's set-up, as the owner; says whether it made any record the call refers to. */
function exampleSetup(fixture: Fixture): ExampleSetup & { referencesRecords: boolean } {
  const setup = {
    referencesRecords: false,
    async create(resource: string, body: Record<string, unknown>) {
      setup.referencesRecords = true;
      const created = await fixture.client.post(`/api/v1/${resource}`, body);
      expect(created.status, created.text).toBe(201);
      return created.body as Record<string, unknown>;
    },
    async action(name: string, input: Record<string, unknown>) {
      setup.referencesRecords = true;
      const answer = await callAction(fixture.client, allActions().find((action) => action.name === name)!, input);
      expect(answer.status, answer.text).toBe(200);
      return answer.body as Record<string, unknown>;
    },
    async image() {
      return { base64: imageBase64, url: imageUrl };
    },
    async page() {
      return { url: pageUrl, passage: EXAMPLE_PAGE_PASSAGE };
    },
    async audio() {
      return { url: audioUrl };
    },
    async site() {
      return siteUrls(providers.standIn.url);
    },
    async account(platform: string) {
      setup.referencesRecords = true;
      const row = await prisma().socialAccount.create({ data: { account_id: newId("social_account"), workspace_id: fixture.workspaceId, platform, account_name: "Example account" } });
      return { account_id: row.account_id };
    },
  };
  return setup;
}

function callAction(client: Client, action: LiveAction, input: Record<string, unknown>): Promise<ApiResponse> {
  if (action.method === "POST") return client.post(`/api/v1/actions/${action.name}`, input);
  const query = new URLSearchParams(Object.entries(input).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]));
  return client.get(`/api/v1/actions/${action.name}?${query}`);
}

const idFields = (action: LiveAction) => (action.input === VIDEO_FIELDS ? ["video_id"] : Object.keys(actionSchema(action).shape).filter((field) => /(^|_)id$|Id$/.test(field)));

describe("every live action", () => {
  for (const action of allActions()) {
    it(`${action.name}: example, scopes, another workspace, test key, unknown field`, async () => {
      const owner = await createFixture(service);
      await prisma().$transaction((tx) => addCredits(tx, { workspaceId: owner.workspaceId, amount: 500, actionType: "grant" }));
      const setup = exampleSetup(owner);
      const input = (await action.example?.(setup)) ?? {};

      // The example runs (and its answer matches the declared output, checked by the runner).
      const answered = await callAction(owner.client, action, input);
      expect(answered.status, answered.text).toBe(200);
      // A binary answer is the file's bytes; every other answer is the JSON envelope.
      if (action.binary) expect(answered.headers.get("content-type")).not.toMatch(/json/);
      else expect(answered.body.livemode).toBe(true);

      // Too few scopes: each required scope missing in turn.
      for (const missing of action.scopes) {
        const granted = allBut(action.scopes, missing);
        const limited = await owner.newKey({ scopes: granted });
        const refused = expectRefusal(await callAction(limited.client, action, input), 403, ["insufficient_scope"]);
        expect(refused.details).toEqual({ required_scopes: [...action.scopes], granted_scopes: granted });
      }

      // Another workspace's records: refused. An example that refers to no record belongs to an
      // action without id inputs.
      const intruder = await createFixture(service);
      await prisma().$transaction((tx) => addCredits(tx, { workspaceId: intruder.workspaceId, amount: 500, actionType: "grant" }));
      const fresh = exampleSetup(owner);
      const freshInput = (await action.example?.(fresh)) ?? {};
      const test = await owner.newKey({ mode: "test" });
      const before = await holdings(owner.workspaceId);
      const providerCalls = providers.standIn.calls().length;
      if (fresh.referencesRecords) expectRefusal(await callAction(intruder.client, action, freshInput), 403, ["workspace_mismatch", "not_found"]);
      else expect(idFields(action).filter((field) => field in freshInput), "an example naming ids must create what they name").toEqual([]);
      expect(await holdings(owner.workspaceId)).toEqual(before);

      // A test key: validated, priced, nothing held, spent, written or called.
      const simulated = await callAction(test.client, action, freshInput);
      expect(simulated.headers.get("x-test-mode")).toBe("true");
      if (action.testMode === "unsupported") expectRefusal(simulated, 400, ["test_mode_unsupported"]);
      else {
        expect(simulated.status, simulated.text).toBe(200);
        if (!action.binary) expect(simulated.body.livemode).toBe(false);
        if (action.credits) expect(simulated.body.credits).toMatchObject({ charged: 0, balance_after: null });
      }
      expect(await holdings(owner.workspaceId)).toEqual(before);
      expect(providers.standIn.calls().length, "a test key reached a provider").toBe(providerCalls);

      // An unknown field.
      const unknown = expectRefusal(await callAction(owner.client, action, { ...freshInput, not_a_field: 1 }), 422, ["validation_failed"]);
      expect(unknown.details.issues).toContainEqual(expect.objectContaining({ path: "not_a_field", type: "object.unknown", allowed: expect.any(Array) }));
    });
  }
});
