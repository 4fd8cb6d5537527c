// What a newcomer meets first (issue: newcomer edges): a key pasted without `Bearer` is told so;
// a 402 names how credits are added, and that way (`npm run account -- credits grant`) writes a
// ledger row; the key CLI names the port the running service really listens on; the error page
// explains "no model configured"; /favicon.ico is not a 404; GraphiQL's introspection needs no
// key (its data queries still do); the README's count of live actions is the catalog's.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getIntrospectionQuery } from "graphql";
import { describe, expect, inject, it } from "vitest";
import { allActions } from "../src/actions/catalog.js";
import { createFixture, useService } from "./support/service.js";

const service = useService();
const prisma = () => service.service.database.prisma;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a CLI of src/cli/ as `npm run` does, with the environment given. */
function runCli(file: string, args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, LOG_LEVEL: "silent", ...env })) if (value !== undefined) childEnv[name] = value;
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", `src/cli/${file}`, ...args], { cwd: ROOT, env: childEnv, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("a key sent without Bearer", () => {
  it("is refused with a message that says what was wrong, without echoing the key", async () => {
    const { key } = await createFixture(service);
    for (const authorization of [key, `Basic ${Buffer.from(`${key}:`).toString("base64")}`, `Token ${key}`]) {
      const response = await fetch(`${service.url}/api/v1/videos`, { headers: { authorization } });
      const text = await response.text();
      expect(response.status, text).toBe(401);
      const error = JSON.parse(text).error;
      expect(error.code).toBe("missing_credentials");
      expect(error.message).toMatch(/Bearer/);
      expect(error.message).not.toMatch(/No API key was sent/);
      expect(error.hint).toMatch(/Authorization: Bearer/);
      expect(text).not.toContain(key);
    }
    // The same key with Bearer is accepted.
    expect((await fetch(`${service.url}/api/v1/videos`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });
});

describe("credits", () => {
  it("a 402 names the command that adds credits, with the workspace", async () => {
    const { client, workspaceId } = await createFixture(service);
    const video = await client.post("/api/v1/videos", { video_name: "x", composition: { duration: 1, layers: [{ type: "text", text: "a" }] } });
    expect(video.status, video.text).toBe(201);
    const refused = await client.post("/api/v1/actions/renders.create", { video_id: video.body.video_id });
    expect(refused.status, refused.text).toBe(402);
    expect(refused.body.error.hint).toContain(`npm run account -- credits grant ${workspaceId}`);
    expect(refused.body.error.hint).toContain("docs/credits.md");
  });

  it("npm run account -- credits grant writes a grant row on the ledger and prints the balance", async () => {
    const { workspaceId } = await createFixture(service);
    const env = { DATABASE_URL: inject("databaseUrl") };
    const granted = await runCli("account.ts", ["credits", "grant", workspaceId, "25", "--reason", "Pilot top-up"], env);
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toBe("25\n");
    const rows = await prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId } });
    expect(rows).toEqual([expect.objectContaining({ action_type: "grant", amount: 25, balance_after: 25, description: "Pilot top-up" })]);
    expect((await prisma().workspace.findUniqueOrThrow({ where: { workspace_id: workspaceId } })).credit_balance).toBe(25);

    // A bad amount, a missing reason or an unknown workspace change nothing.
    for (const args of [
      ["credits", "grant", workspaceId, "0", "--reason", "x"],
      ["credits", "grant", workspaceId, "2.5", "--reason", "x"],
      ["credits", "grant", workspaceId, "10"],
      ["credits", "grant", "ws_nosuchworkspace", "10", "--reason", "x"],
    ]) {
      const refused = await runCli("account.ts", args, env);
      expect(refused.code, args.join(" ")).toBe(2);
      expect(refused.stdout).toBe("");
    }
    expect(await prisma().creditTransaction.count({ where: { workspace_id: workspaceId } })).toBe(1);
  }, 300_000);
});

describe("the key CLI while npm start holds the embedded database", () => {
  it("names the address the running service left, not a default port", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-key-cli-"));
    try {
      // A live process (this one) holds the lock, as npm start does; it listens on 4567.
      await writeFile(path.join(dataDir, "pglite.lock"), String(process.pid));
      await writeFile(path.join(dataDir, "service-url"), "http://127.0.0.1:4567\n");
      const result = await runCli("key.ts", ["create", "--preset", "read_only"], { DATABASE_URL: undefined, CUTROOM_DATA_DIR: dataDir, PORT: undefined });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("curl -s -X POST http://127.0.0.1:4567/api/v1/api_keys");
      expect(result.stderr).not.toContain(":3000");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("the reference and GraphiQL", () => {
  it("the error page's invalid_request entry explains 'no model configured'", async () => {
    const page = await (await fetch(`${service.url}/docs/api/errors`)).text();
    const entry = page.slice(page.indexOf('<section id="invalid_request">'), page.indexOf("</section>", page.indexOf('<section id="invalid_request">')));
    expect(entry).toContain("no model configured");
    expect(entry).toContain("details.setting");
  });

  it("/favicon.ico is an icon, without a key", async () => {
    const response = await fetch(`${service.url}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(await response.text()).toMatch(/^<svg /);
  });

  it("introspection answers without a key (or with GraphiQL's template); a data query, or an unknown key, is still 401", async () => {
    const introspect = (headers: Record<string, string> = {}) =>
      fetch(`${service.url}/graphql`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query: getIntrospectionQuery() }) });
    const open = await introspect();
    expect(open.status).toBe(200);
    const body = (await open.json()) as { data: { __schema: { queryType: { name: string }; types: { name: string }[] } } };
    expect(body.data.__schema.queryType.name).toBe("Query");
    expect(body.data.__schema.types.map((type) => type.name)).toContain("Video");
    expect((await fetch(`${service.url}/graphql?query=${encodeURIComponent("{ __type(name: \"Video\") { name } }")}`)).status).toBe(200);
    expect((await introspect({ authorization: "Bearer <your key>" })).status).toBe(200);

    for (const query of ["{ videos { data { video_id } } }", "{ __typename videos { data { video_id } } }", "mutation { __typename }"]) {
      const response = await fetch(`${service.url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) });
      expect(response.status, query).toBe(401);
    }
    expect((await introspect({ authorization: "Bearer sk_live_00000000000000000000000000000000" })).status).toBe(401);
  });
});

describe("the README", () => {
  it("counts the live actions as the catalog does", async () => {
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(`all ${allActions().length} actions of the catalog`);
    expect(readme).not.toMatch(/\d+ of \d+ so far/);
  });
});
