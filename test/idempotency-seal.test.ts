// What an Idempotency-Key keeps at rest is sealed under that key (src/guards/idempotency-seal.ts,
// docs/guards.md "Sealed at rest"): the secret a key creation answers is in neither the stored
// answer nor the step's result, a replay still answers it, and a record stored before sealing
// still replays. Resuming from sealed steps after a crash is covered by idempotency-crash.test.ts.
import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import os from "node:os";
import path from "node:path";
import { idempotencySeal } from "../src/guards/idempotency-seal.js";
import { loadKeyring, parseKeyring } from "../src/config/keyring.js";
import { fingerprintOf } from "../src/guards/idempotency.js";
import { createFixture, useService } from "./support/service.js";

const service = useService();
const prisma = () => service.service.database.prisma;
const keyHash = (key: string) => createHash("sha256").update(key).digest("hex");

describe("sealed at rest", () => {
  it("keeps a created key's secret out of the stored answer and step, and replays it", async () => {
    const fixture = await createFixture(service);
    const idempotencyKey = `idem-${randomUUID()}`;
    const headers = { "idempotency-key": idempotencyKey };
    const created = await fixture.client.post("/api/v1/api_keys", { name: "CI" }, { headers });
    expect(created.status, created.text).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^sk_live_/);

    const where = { key_id: fixture.keyId, key_hash: keyHash(idempotencyKey) };
    const record = await prisma().idempotencyRecord.findUniqueOrThrow({ where: { key_id_key_hash: where } });
    const steps = await prisma().idempotencyStep.findMany({ where });
    expect(record.response_status).toBe(201);
    expect(record.response_body).toMatch(/^s2\.[A-Za-z0-9_-]+\./);
    expect(record.response_body).not.toContain(secret);
    expect(steps).toHaveLength(1);
    expect(Buffer.from(steps[0]!.result).includes(secret)).toBe(false);
    expect(Buffer.from(steps[0]!.result).includes(secret.slice(-12))).toBe(false);

    const replay = await fixture.client.post("/api/v1/api_keys", { name: "CI" }, { headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(created.text);
    expect(await prisma().apiKey.count({ where: { workspace_id: fixture.workspaceId } })).toBe(2);
  });

  it("opens only under the Idempotency-Key it was sealed with", () => {
    const sealed = idempotencySeal("key-a", "key_1").sealText('{"secret":"sk_live_x"}');
    expect(idempotencySeal("key-a", "key_1").openText(sealed)).toBe('{"secret":"sk_live_x"}');
    expect(() => idempotencySeal("key-b", "key_1").openText(sealed)).toThrow();
    expect(() => idempotencySeal("key-a", "key_2").openText(sealed)).toThrow();
    const bytes = idempotencySeal("key-a", "key_1").sealBytes(Buffer.from("step"));
    expect(Buffer.from(idempotencySeal("key-a", "key_1").openBytes(bytes)).toString()).toBe("step");
    expect(() => idempotencySeal("key-b", "key_1").openBytes(bytes)).toThrow();
  });

  it("a database copy with a guessed Idempotency-Key opens nothing; with the server key it opens", async () => {
    const fixture = await createFixture(service);
    // A weak, guessable Idempotency-Key, as a careless client might send.
    const idempotencyKey = `secret-test-${randomUUID().slice(0, 4)}`;
    const created = await fixture.client.post("/api/v1/api_keys", { name: "CI" }, { headers: { "idempotency-key": idempotencyKey } });
    expect(created.status, created.text).toBe(201);
    const secret = created.body.secret as string;

    // The dump: every row of the record and its steps, the key's id and the key's hash included.
    const where = { key_id: fixture.keyId, key_hash: keyHash(idempotencyKey) };
    const dump = {
      record: await prisma().idempotencyRecord.findUniqueOrThrow({ where: { key_id_key_hash: where } }),
      steps: await prisma().idempotencyStep.findMany({ where }),
    };
    // The attacker finds the Idempotency-Key by its hash (it is guessable)...
    expect(keyHash(idempotencyKey)).toBe(dump.record.key_hash);
    // ...but without the server key neither the v1 derivation nor any made-up server key opens it.
    const guesses = [idempotencySeal(idempotencyKey, dump.record.key_id), idempotencySeal(idempotencyKey, dump.record.key_id, parseKeyring(`k1:${"0".repeat(64)}`, "guess"))];
    for (const guess of guesses) {
      expect(() => guess.openText(dump.record.response_body!)).toThrow();
      expect(() => guess.openBytes(dump.steps[0]!.result)).toThrow();
    }
    // With the real server key (held outside the database) the same dump opens: the test is real.
    const keyring = await loadKeyring({ dataDir: path.join(os.tmpdir(), "cutroom-test-data") });
    const real = idempotencySeal(idempotencyKey, dump.record.key_id, keyring);
    expect(real.openText(dump.record.response_body!)).toContain(secret);
    expect(Buffer.from(real.openBytes(dump.steps[0]!.result)).includes(secret)).toBe(true);
  });

  it("opens answers sealed by an older key of the ring after a rotation, and v1 seals", () => {
    const older = parseKeyring(`old:${"1".repeat(64)}`, "test");
    const rotated = parseKeyring(`new:${"2".repeat(64)},old:${"1".repeat(64)}`, "test");
    const sealed = idempotencySeal("key-a", "key_1", older).sealText("answer");
    expect(sealed.startsWith("s2.old.")).toBe(true);
    expect(idempotencySeal("key-a", "key_1", rotated).openText(sealed)).toBe("answer");
    expect(idempotencySeal("key-a", "key_1", rotated).sealText("answer").startsWith("s2.new.")).toBe(true);
    const v1 = idempotencySeal("key-a", "key_1").sealText("old answer");
    expect(idempotencySeal("key-a", "key_1", rotated).openText(v1)).toBe("old answer");
    expect(() => idempotencySeal("key-a", "key_1", parseKeyring(`new:${"2".repeat(64)}`, "test")).openText(sealed)).toThrow(/not in the keyring/);
  });

  it("still replays an answer stored before sealing", async () => {
    const fixture = await createFixture(service);
    const idempotencyKey = `idem-${randomUUID()}`;
    const body = JSON.stringify({ folder_name: "Earlier" });
    const url = new URL(`${service.url}/api/v1/folders`);
    const stored = JSON.stringify({ object: "folder", folder_id: "fld_earlier", folder_name: "Earlier" });
    await prisma().idempotencyRecord.create({
      data: {
        key_id: fixture.keyId,
        key_hash: keyHash(idempotencyKey),
        fingerprint: fingerprintOf("POST", url, body),
        request_id: "req_earlier",
        response_status: 201,
        response_headers: { "content-type": "application/json" },
        response_body: stored,
        completed_at: new Date(),
      },
    });
    const replay = await fixture.client.request("POST", "/api/v1/folders", { rawBody: body, headers: { "idempotency-key": idempotencyKey, "content-type": "application/json" } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(stored);
    expect(await prisma().folder.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
  });
});
