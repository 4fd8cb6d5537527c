// What an Idempotency-Key keeps at rest is sealed under that key (src/guards/idempotency-seal.ts,
// docs/guards.md "Sealed at rest"): the secret a key creation answers is in neither the stored
// answer nor the step's result, a replay still answers it, and a record stored before sealing
// still replays. Resuming from sealed steps after a crash is covered by idempotency-crash.test.ts.
import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { idempotencySeal } from "../src/guards/idempotency-seal.js";
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
    expect(record.response_body).toMatch(/^s1\./);
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
