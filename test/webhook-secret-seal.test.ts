// Webhook signing secrets are sealed with the server key at rest (src/webhooks/secrets.ts,
// docs/security.md "The server key"): the stored columns are not the secrets and do not contain
// them, deliveries signed with them verify at a loopback receiver, a rotation's grace period signs
// with both, a secret stored in clear before start-up is sealed by the start and still signs, and
// a different server key opens nothing. Its own database: the start-up sealing rewrites every
// endpoint of the database, and its in-process workers deliver this file's events only.
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { parseKeyring } from "../src/config/keyring.js";
import { newId } from "../src/ids.js";
import { startService, type RunningService } from "../src/service.js";
import { openSigningSecret, sealStoredSigningSecrets } from "../src/webhooks/secrets.js";
import { startReceiver, verifySignature, signedWith, type Receiver } from "./support/receiver.js";
import { createFixture, isolatedEnvironment, useService, type Client } from "./support/service.js";
import { waitFor } from "./support/wait.js";

const environment = isolatedEnvironment("webhook-secret-seal", { runWorkers: true, outboundAllow: ["127.0.0.1", "::1"], webhookRetrySeconds: [], webhookTimeoutMs: 2000, dispatchIntervalMs: 100 });
const api = useService(environment.overrides);
const prisma = () => api.service.database.prisma;
const stored = (endpointId: string) => prisma().webhookEndpoint.findUniqueOrThrow({ where: { endpoint_id: endpointId }, select: { signing_secret: true, previous_signing_secret: true } });

/** Not the secret, and no part of it that identifies it (its random part, without `whsec_`). */
function expectSealed(value: string | null, secret: string): void {
  expect(value).toMatch(/^sealed:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
  expect(value).not.toContain(secret.slice("whsec_".length));
}

/** A test send (a real, logged delivery) to the endpoint; what the receiver got. */
async function testSend(client: Client, endpointId: string, receiver: Receiver) {
  const before = receiver.received.length;
  const sent = await client.post(`/api/v1/webhooks/${endpointId}/test`);
  expect(sent.status, sent.text).toBe(200);
  expect(sent.body).toMatchObject({ succeeded: true, status_code: 200 });
  return receiver.received[before]!;
}

describe("webhook signing secrets at rest", () => {
  it("are stored sealed, and a delivery made by the workers verifies with the revealed secret", async () => {
    const { client } = await createFixture(api);
    const receiver = await startReceiver();
    const created = await client.post("/api/v1/webhooks", { url: receiver.url, events: ["folder.created"] });
    expect(created.status, created.text).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const row = await stored(created.body.endpoint_id);
    expectSealed(row.signing_secret, secret);
    expect(row.previous_signing_secret).toBeNull();

    expect((await client.post("/api/v1/folders", { folder_name: "Signed" })).status).toBe(201);
    const [delivery] = await waitFor("the folder.created delivery", () => (receiver.received.length >= 1 ? receiver.received : undefined));
    expect(delivery!.headers["x-service-event"]).toBe("folder.created");
    expect(verifySignature(delivery!.headers["x-service-signature"], delivery!.body, secret)).toBe(true);

    // The real server key opens it; another key, by the same id or another, does not.
    expect(openSigningSecret(api.service.keyring, row.signing_secret)).toBe(secret);
    expect(() => openSigningSecret(parseKeyring(`${api.service.keyring.current.id}:${"0".repeat(64)}`, "guess"), row.signing_secret)).toThrow();
    expect(() => openSigningSecret(parseKeyring(`other:${"0".repeat(64)}`, "guess"), row.signing_secret)).toThrow(/not in the keyring/);
  });

  it("keep both secrets signing through a rotation's grace period, both sealed", async () => {
    const { client } = await createFixture(api);
    const receiver = await startReceiver();
    const created = await client.post("/api/v1/webhooks", { url: receiver.url, events: ["folder.created"] });
    const oldSecret = created.body.secret as string;
    const rotated = await client.post(`/api/v1/webhooks/${created.body.endpoint_id}/rotate_secret`, { grace_period_seconds: 3600 });
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret = rotated.body.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    const row = await stored(created.body.endpoint_id);
    expectSealed(row.signing_secret, newSecret);
    expectSealed(row.previous_signing_secret, oldSecret);
    expect(row.previous_signing_secret).not.toContain(newSecret.slice("whsec_".length));

    const delivery = await testSend(client, created.body.endpoint_id, receiver);
    const header = delivery.headers["x-service-signature"];
    expect(signedWith(header, delivery.body, newSecret)).toEqual([true, false]);
    expect(signedWith(header, delivery.body, oldSecret)).toEqual([false, true]);
  });
});

describe("secrets stored in clear before sealing", () => {
  let restarted: RunningService | undefined;
  afterAll(async () => {
    await restarted?.stop();
  });

  it("are sealed by the next start, once, and still sign", async () => {
    const { client, workspaceId } = await createFixture(api);
    const receiver = await startReceiver();
    const endpointId = newId("webhook_endpoint");
    const current = "whsec_storedInClearBeforeSealing0001";
    const previous = "whsec_storedInClearBeforeSealing0002";
    // As a process of an earlier version wrote it.
    await prisma().webhookEndpoint.create({
      data: {
        endpoint_id: endpointId,
        workspace_id: workspaceId,
        url: receiver.url,
        events: ["folder.created"],
        signing_secret: current,
        previous_signing_secret: previous,
        previous_secret_expires_at: new Date(Date.now() + 3_600_000),
      },
    });

    // A start (the API restarting, or another process) on the same database and server key.
    restarted = await startService({ ...loadConfig({}), port: 0, printStartupKey: false, ...environment.overrides, runWorkers: false });
    const row = await stored(endpointId);
    expectSealed(row.signing_secret, current);
    expectSealed(row.previous_signing_secret, previous);
    // Sealing again finds nothing to do and changes nothing.
    expect(await sealStoredSigningSecrets(prisma(), api.service.keyring)).toBe(0);
    expect(await stored(endpointId)).toEqual(row);

    const delivery = await testSend(client, endpointId, receiver);
    expect(signedWith(delivery.headers["x-service-signature"], delivery.body, current)).toEqual([true, false]);
    expect(signedWith(delivery.headers["x-service-signature"], delivery.body, previous)).toEqual([false, true]);
  });

  it("after a server-key rotation, are sealed again under the new key, which alone then opens them", async () => {
    const { client } = await createFixture(api);
    const created = await client.post("/api/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["folder.created"] });
    const secret = created.body.secret as string;
    const original = api.service.keyring;
    const key = (id: string, bytes: Buffer) => `${id}:${bytes.toString("hex")}`;
    const newKey = Buffer.alloc(32, 7);
    const rotated = parseKeyring([key("rotated", newKey), key(original.current.id, original.current.key)].join(","), "test");
    try {
      expect(await sealStoredSigningSecrets(prisma(), rotated)).toBeGreaterThan(0);
      const row = await stored(created.body.endpoint_id);
      expect(row.signing_secret.startsWith("sealed:rotated:")).toBe(true);
      expect(openSigningSecret(parseKeyring(key("rotated", newKey), "test"), row.signing_secret)).toBe(secret);
      expect(() => openSigningSecret(original, row.signing_secret)).toThrow(/not in the keyring/);
    } finally {
      // Back under the service's own key, for the workers still running on this database.
      await sealStoredSigningSecrets(prisma(), parseKeyring([key(original.current.id, original.current.key), key("rotated", newKey)].join(","), "test"));
    }
    expect(openSigningSecret(original, (await stored(created.body.endpoint_id)).signing_secret)).toBe(secret);
  });
});
