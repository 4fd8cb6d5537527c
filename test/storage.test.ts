// Storage (src/storage/) and signed file URLs (rest/files.ts): LocalStorage on a temp directory,
// S3Storage against a small in-memory S3 stand-in on loopback (path-style PUT/GET/HEAD/DELETE of
// /<bucket>/<key>), URL signing and verification, the signing secret kept in service_settings, and
// the /files handler's answers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalStorage } from "../src/storage/local-storage.js";
import { S3Storage } from "../src/storage/s3-storage.js";
import { FileNotFoundError, isValidKey, type Storage } from "../src/storage/storage.js";
import { fileSignature, fileUrlSigner, resolveFileSigningSecret, signFileUrl, verifyFileUrl } from "../src/storage/signed-urls.js";
import { createStorage } from "../src/storage/from-config.js";
import { createFilesHandler } from "../rest/files.js";
import { useService } from "./support/service.js";
import { loadKeyring, parseKeyring } from "../src/config/keyring.js";

const service = useService();

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "cutroom-storage-test-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function localFile(content: Buffer | string): Promise<string> {
  const file = path.join(scratch, `src-${randomBytes(4).toString("hex")}`);
  await writeFile(file, content);
  return file;
}

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** What every Storage must do, run against each implementation. */
function storageContract(name: string, make: () => Storage) {
  describe(`${name}: the Storage contract`, () => {
    it("puts a file, reports it, streams it whole and by range, and deletes it", async () => {
      const storage = make();
      const content = randomBytes(100_000);
      const key = `renders/ws_test/${randomBytes(4).toString("hex")}.mp4`;
      const stored = await storage.put(key, await localFile(content), { contentType: "video/mp4" });
      expect(stored.size).toBe(content.length);

      const info = await storage.stat(key);
      expect(info).toMatchObject({ size: content.length, contentType: "video/mp4" });
      expect(await read(await storage.open(key))).toEqual(content);
      expect(await read(await storage.open(key, { start: 10, end: 19 }))).toEqual(content.subarray(10, 20));

      // A second put replaces the file.
      await storage.put(key, await localFile("short"), { contentType: "video/mp4" });
      expect((await storage.stat(key))?.size).toBe(5);

      await storage.delete(key);
      expect(await storage.stat(key)).toBeNull();
      await expect(storage.open(key)).rejects.toBeInstanceOf(FileNotFoundError);
      await storage.delete(key); // deleting a missing file is fine
    });

    it("deletes a folder of keys and nothing beside it", async () => {
      const storage = make();
      const folder = `answers/${randomBytes(4).toString("hex")}`;
      const inside = [`${folder}/a.png`, `${folder}/b/c.png`, `${folder}/d.png`];
      const beside = `${folder}-other/e.png`;
      for (const key of [...inside, beside]) await storage.put(key, await localFile(key));
      await storage.deletePrefix(folder);
      for (const key of inside) expect(await storage.stat(key), key).toBeNull();
      expect(await storage.stat(beside)).not.toBeNull();
      await storage.deletePrefix(folder); // an empty folder is fine
    });

    it("refuses keys that could leave its root", async () => {
      const storage = make();
      const file = await localFile("x");
      for (const key of ["../escape.mp4", "/absolute.mp4", "a//b.mp4", "a/../b.mp4", ".hidden", "a/.hidden", "with space.mp4", ""]) {
        await expect(storage.put(key, file), key).rejects.toThrow(/Invalid storage key/);
        await expect(storage.stat(key), key).rejects.toThrow(/Invalid storage key/);
      }
    });
  });
}

storageContract("LocalStorage", () => new LocalStorage(path.join(scratch, "local")));

describe("LocalStorage", () => {
  it("lives under <dataDir>/storage unless storageDir says otherwise", () => {
    const byDataDir = createStorage({ storage: "local", dataDir: "/srv/cutroom", s3: undefined });
    expect(byDataDir).toBeInstanceOf(LocalStorage);
    expect((byDataDir as LocalStorage).root).toBe(path.join("/srv/cutroom", "storage"));
    expect((createStorage({ storage: "local", dataDir: "/srv/cutroom", storageDir: "/mnt/files" }) as LocalStorage).root).toBe("/mnt/files");
  });

  it("names the content type by extension", async () => {
    const storage = new LocalStorage(path.join(scratch, "types"));
    await storage.put("a/b.png", await localFile("png"));
    await storage.put("a/c.bin", await localFile("bin"));
    expect((await storage.stat("a/b.png"))?.contentType).toBe("image/png");
    expect((await storage.stat("a/c.bin"))?.contentType).toBe("application/octet-stream");
  });
});

// ---------------------------------------------------------------------------------------------
// A tiny S3 stand-in: path-style /<bucket>/<key>, objects in memory.

interface S3Request {
  method: string;
  path: string;
  authorization?: string;
}

const BUCKET = "cutroom-test";
const ACCESS_KEY_ID = "AKIDTESTSTANDIN";
let s3Server: Server;
let s3Endpoint: string;
const s3Objects = new Map<string, { body: Buffer; contentType: string; modified: Date }>();
const s3Requests: S3Request[] = [];

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

beforeAll(async () => {
  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url!, "http://s3.local");
    s3Requests.push({ method: request.method!, path: url.pathname, authorization: request.headers.authorization });
    const [, bucket, ...rest] = url.pathname.split("/");
    const key = rest.map(decodeURIComponent).join("/");
    if (bucket === BUCKET && !key && request.method === "GET" && url.searchParams.get("list-type") === "2") {
      // ListObjectsV2, in pages of two so that continuation is exercised; the token is the last key
      // listed (as S3's continues after a key, whatever was deleted meanwhile).
      const prefix = url.searchParams.get("prefix") ?? "";
      const after = url.searchParams.get("continuation-token") ?? "";
      const keys = [...s3Objects.keys()].filter((candidate) => candidate.startsWith(prefix) && candidate > after).sort();
      const page = keys.slice(0, 2);
      const truncated = keys.length > 2;
      response.writeHead(200, { "content-type": "application/xml" }).end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${BUCKET}</Name><Prefix>${prefix}</Prefix><KeyCount>${page.length}</KeyCount><IsTruncated>${truncated}</IsTruncated>` +
          (truncated ? `<NextContinuationToken>${page.at(-1)}</NextContinuationToken>` : "") +
          page.map((entry) => `<Contents><Key>${entry}</Key><Size>${s3Objects.get(entry)!.body.length}</Size></Contents>`).join("") +
          "</ListBucketResult>",
      );
      return;
    }
    if (bucket !== BUCKET || !key) {
      response.writeHead(404, { "content-type": "application/xml" }).end("<Error><Code>NoSuchBucket</Code></Error>");
      return;
    }
    const object = s3Objects.get(key);
    switch (request.method) {
      case "PUT": {
        const body = await readBody(request);
        s3Objects.set(key, { body, contentType: request.headers["content-type"] ?? "binary/octet-stream", modified: new Date() });
        response.writeHead(200, { etag: `"${body.length.toString(16)}"` }).end();
        return;
      }
      case "HEAD":
      case "GET": {
        if (!object) {
          response.writeHead(404, { "content-type": "application/xml" }).end(request.method === "GET" ? "<Error><Code>NoSuchKey</Code><Message>missing</Message></Error>" : undefined);
          return;
        }
        const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? "");
        const body = range ? object.body.subarray(Number(range[1]), Number(range[2]) + 1) : object.body;
        response.writeHead(range ? 206 : 200, {
          "content-type": object.contentType,
          "content-length": String(body.length),
          "last-modified": object.modified.toUTCString(),
          etag: `"${object.body.length.toString(16)}"`,
          ...(range && { "content-range": `bytes ${range[1]}-${range[2]}/${object.body.length}` }),
        });
        response.end(request.method === "GET" ? body : undefined);
        return;
      }
      case "DELETE":
        s3Objects.delete(key);
        response.writeHead(204).end();
        return;
      default:
        response.writeHead(405).end();
    }
  };
  s3Server = createServer((request, response) => {
    // A failed request closes its connection: the S3 client sees the error, nothing goes unhandled.
    answer(request, response).catch((error: Error) => response.destroy(error));
  });
  await new Promise<void>((resolve) => s3Server.listen(0, "127.0.0.1", resolve));
  s3Endpoint = `http://127.0.0.1:${(s3Server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  s3Server?.closeAllConnections();
  await new Promise((resolve) => s3Server?.close(resolve));
});

function s3Storage(): S3Storage {
  return new S3Storage({ endpoint: s3Endpoint, bucket: BUCKET, region: "us-east-1", accessKeyId: ACCESS_KEY_ID, secretAccessKey: "secret-standin-key" });
}

storageContract("S3Storage", s3Storage);

describe("S3Storage", () => {
  it("addresses objects path-style and signs its requests with the configured key", async () => {
    const storage = s3Storage();
    s3Requests.length = 0;
    await storage.put("renders/ws_1/rnd_1.mp4", await localFile("movie"), { contentType: "video/mp4" });
    expect(s3Requests).toHaveLength(1);
    expect(s3Requests[0]).toMatchObject({ method: "PUT", path: `/${BUCKET}/renders/ws_1/rnd_1.mp4` });
    expect(s3Requests[0]!.authorization).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${ACCESS_KEY_ID}/\\d{8}/us-east-1/s3/aws4_request`));
    expect(s3Objects.get("renders/ws_1/rnd_1.mp4")).toMatchObject({ body: Buffer.from("movie"), contentType: "video/mp4" });
    storage.close();
  });

  it("is what config names when storage is s3", () => {
    const storage = createStorage({ storage: "s3", dataDir: scratch, s3: { endpoint: s3Endpoint, bucket: BUCKET, region: "us-east-1", accessKeyId: "a", secretAccessKey: "b" } });
    expect(storage).toBeInstanceOf(S3Storage);
  });
});

// ---------------------------------------------------------------------------------------------

describe("signed file URLs", () => {
  const secret = "a-test-secret-of-enough-length";
  const base = "https://cutroom.example";
  const now = Date.UTC(2026, 10, 26, 12, 0, 0);

  it("verify until they expire, and carry the key", () => {
    const url = signFileUrl(base, "renders/ws_1/rnd_1.mp4", 3600, secret, now);
    const expires = Math.floor(now / 1000) + 3600;
    expect(url).toBe(`${base}/files/renders/ws_1/rnd_1.mp4?expires=${expires}&signature=${fileSignature(secret, "renders/ws_1/rnd_1.mp4", expires)}`);
    expect(url).toMatch(/signature=[0-9a-f]{64}$/);
    expect(verifyFileUrl(url, secret, now)).toEqual({ ok: true, key: "renders/ws_1/rnd_1.mp4", expires });
    expect(verifyFileUrl(url, secret, (expires) * 1000)).toMatchObject({ ok: true });
    expect(verifyFileUrl(url, secret, (expires + 1) * 1000)).toMatchObject({ ok: false, reason: "expired" });
  });

  it("reject a tampered key, expiry or signature, another secret, and incomplete URLs", () => {
    const url = new URL(signFileUrl(base, "renders/ws_1/rnd_1.mp4", 3600, secret, now));
    const tamper = (change: (copy: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return verifyFileUrl(copy, secret, now);
    };
    expect(tamper((copy) => (copy.pathname = "/files/renders/ws_2/rnd_1.mp4"))).toMatchObject({ ok: false, reason: "signature_invalid" });
    expect(tamper((copy) => copy.searchParams.set("expires", String(Number(copy.searchParams.get("expires")) + 86_400)))).toMatchObject({ ok: false, reason: "signature_invalid" });
    expect(tamper((copy) => copy.searchParams.set("signature", `${copy.searchParams.get("signature")!.slice(0, -1)}${copy.searchParams.get("signature")!.endsWith("0") ? "1" : "0"}`))).toMatchObject({ ok: false, reason: "signature_invalid" });
    expect(verifyFileUrl(url, "another-secret-of-enough-length", now)).toMatchObject({ ok: false, reason: "signature_invalid" });
    expect(tamper((copy) => copy.searchParams.delete("signature"))).toMatchObject({ ok: false, reason: "malformed" });
    expect(tamper((copy) => copy.searchParams.delete("expires"))).toMatchObject({ ok: false, reason: "malformed" });
    expect(tamper((copy) => (copy.pathname = "/files/../etc/passwd"))).toMatchObject({ ok: false });
    expect(verifyFileUrl(`${base}/elsewhere/x.mp4?expires=1&signature=${"0".repeat(64)}`, secret, now)).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("refuse to sign a key that is not a plain relative path", () => {
    expect(isValidKey("renders/ws_1/rnd_1.mp4")).toBe(true);
    expect(() => signFileUrl(base, "../x", 60, secret)).toThrow(/Invalid storage key/);
  });

  it("use the configured secret, or one stored once in service_settings and shared by every caller", async () => {
    const prisma = service.service.database.prisma;
    expect(await resolveFileSigningSecret(prisma, "configured-secret-1234")).toBe("configured-secret-1234");
    await expect(resolveFileSigningSecret(prisma, "short")).rejects.toThrow(/at least 16/);

    // The service's own ring (the test services' data directory): the stored secret is sealed with it.
    const keyring = await loadKeyring({ dataDir: path.join(os.tmpdir(), "cutroom-test-data") });
    const secrets = await Promise.all([1, 2, 3, 4].map(() => resolveFileSigningSecret(prisma, undefined, keyring)));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    const rows = await prisma.serviceSetting.findMany({ where: { setting_key: "file_signing_secret" } });
    expect(rows).toHaveLength(1);
    expect(await resolveFileSigningSecret(prisma, undefined, keyring)).toBe(secrets[0]);
  });

  it("are stored sealed with the server key, so a database copy cannot forge links; a secret kept in clear is sealed in place", async () => {
    const prisma = service.service.database.prisma;
    const keyring = parseKeyring(`t1:${"3".repeat(64)}`, "test");
    const where = { setting_key: "file_signing_secret" };
    const before = await prisma.serviceSetting.findUnique({ where });
    try {
      // A secret kept in clear (before sealing): the same secret comes back, and the row is sealed.
      await prisma.serviceSetting.upsert({ where, create: { ...where, value: "c".repeat(64) }, update: { value: "c".repeat(64) } });
      expect(await resolveFileSigningSecret(prisma, undefined, keyring)).toBe("c".repeat(64));
      const sealed = (await prisma.serviceSetting.findUniqueOrThrow({ where })).value;
      expect(sealed).toMatch(/^sealed:t1:/);
      expect(sealed).not.toContain("c".repeat(16));
      expect(await resolveFileSigningSecret(prisma, undefined, keyring)).toBe("c".repeat(64));
      // The copy's value signs nothing that verifies; the real secret does.
      const forged = signFileUrl(base, "renders/x.mp4", 60, sealed);
      expect(verifyFileUrl(forged, "c".repeat(64))).toMatchObject({ ok: false, reason: "signature_invalid" });
      // A ring without the key that sealed it cannot open it.
      await expect(resolveFileSigningSecret(prisma, undefined, parseKeyring(`t2:${"4".repeat(64)}`, "test"))).rejects.toThrow(/not in the keyring/);
    } finally {
      if (before) await prisma.serviceSetting.update({ where, data: { value: before.value } });
      else await prisma.serviceSetting.delete({ where });
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe("the /files handler", () => {
  const secret = "handler-test-secret-1234";
  const base = "http://files.test";

  async function setup(storage: Storage) {
    const content = randomBytes(5000);
    const key = `renders/ws_h/${randomBytes(4).toString("hex")}.mp4`;
    await storage.put(key, await localFile(content), { contentType: "video/mp4" });
    const signer = fileUrlSigner(secret);
    return { content, key, signer, handler: createFilesHandler(storage, signer.verify) };
  }

  for (const [name, make] of [["LocalStorage", () => new LocalStorage(path.join(scratch, "served"))], ["S3Storage", s3Storage]] as const) {
    it(`serves a signed file with its headers, whole, by range, and on HEAD (${name})`, async () => {
      const { content, key, signer, handler } = await setup(make());
      const url = signer.sign(base, key, 600);

      const whole = await handler(new Request(url));
      expect(whole.status).toBe(200);
      expect(whole.headers.get("content-type")).toBe("video/mp4");
      expect(whole.headers.get("content-length")).toBe(String(content.length));
      expect(whole.headers.get("accept-ranges")).toBe("bytes");
      expect(whole.headers.get("cache-control")).toMatch(/^private, max-age=(59\d|600)$/);
      expect(Buffer.from(await whole.arrayBuffer())).toEqual(content);

      const part = await handler(new Request(url, { headers: { range: "bytes=100-199" } }));
      expect(part.status).toBe(206);
      expect(part.headers.get("content-range")).toBe(`bytes 100-199/${content.length}`);
      expect(part.headers.get("content-length")).toBe("100");
      expect(Buffer.from(await part.arrayBuffer())).toEqual(content.subarray(100, 200));

      const tail = await handler(new Request(url, { headers: { range: "bytes=-10" } }));
      expect(tail.status).toBe(206);
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(content.subarray(content.length - 10));

      const beyond = await handler(new Request(url, { headers: { range: `bytes=${content.length}-` } }));
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get("content-range")).toBe(`bytes */${content.length}`);

      const head = await handler(new Request(url, { method: "HEAD" }));
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(content.length));
      expect(head.headers.get("content-type")).toBe("video/mp4");
      expect(await head.text()).toBe("");
    });
  }

  it("answers 403 in the error envelope for a wrong, expired or missing signature", async () => {
    const { key, handler } = await setup(new LocalStorage(path.join(scratch, "served")));
    const past = Date.now() - 3_600_000;
    const expired = signFileUrl(base, key, 60, secret, past);
    const forged = signFileUrl(base, key, 600, "not-the-right-secret-123");
    for (const [url, reason] of [[expired, "expired"], [forged, "signature_invalid"], [`${base}/files/${key}`, "malformed"]] as const) {
      const response = await handler(new Request(url));
      expect(response.status, reason).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as { error: Record<string, unknown> };
      expect(body.error).toMatchObject({ status: 403, type: "permission_error", details: { reason } });
      expect(body.error.code).toBe("link_invalid");
      expect(typeof body.error.message).toBe("string");
    }
    // A HEAD is refused the same way.
    expect((await handler(new Request(forged, { method: "HEAD" }))).status).toBe(403);
  });

  it("answers 404 for a validly signed key with no file, and 405 for other methods", async () => {
    const signer = fileUrlSigner(secret);
    const handler = createFilesHandler(new LocalStorage(path.join(scratch, "served")), signer.verify);
    const missing = await handler(new Request(signer.sign(base, "renders/ws_h/none.mp4", 600)));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");

    const post = await handler(new Request(signer.sign(base, "renders/ws_h/none.mp4", 600), { method: "POST" }));
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});
