// The MCP server (src/mcp/), driven by the official TypeScript SDK's client against a running
// service: over Streamable HTTP at /mcp with the key as bearer, and over stdio (`npm run mcp`).
// Its tools are the actions the key's scopes open (input schema and description from the
// catalog) and list_records / get_record; calls are API calls with that key, so a test key
// writes nothing.
import { fileURLToPath } from "node:url";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { createFixture, useService } from "./support/service.js";

const service = useService();
const prisma = () => service.service.database.prisma;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

type Row = Record<string, any>;

async function connect(key: string | undefined): Promise<McpClient> {
  const client = new McpClient({ name: "cutroom-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
    requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
  });
  await client.connect(transport);
  return client;
}

describe("MCP over Streamable HTTP", () => {
  it("lists the actions the key's scopes open as tools, with their input schema and description", async () => {
    const fixture = await createFixture(service, { scopes: ["videos:read", "videos:write", "renders:read"] });
    const client = await connect(fixture.key);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["videos_create", "videos_update", "renders_list", "list_records", "get_record"]));
      // renders.create needs renders:execute, images.generate generations scopes: not this key's.
      expect(names).not.toContain("renders_create");
      expect(names).not.toContain("images_generate");
      const update = tools.find((tool) => tool.name === "videos_update")!;
      expect(update.inputSchema.type).toBe("object");
      expect(Object.keys(update.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["video_id", "video_name"]));
      expect(update.description).toMatch(/POST \/api\/v1\/actions\/videos\.update/);
      const list = tools.find((tool) => tool.name === "list_records")!;
      expect((list.inputSchema.properties as Row).resource.enum).toEqual(expect.arrayContaining(["videos", "renders"]));
    } finally {
      await client.close();
    }
  });

  it("calls an action with the key (a live key writes) and reads records back", async () => {
    const fixture = await createFixture(service);
    const client = await connect(fixture.key);
    try {
      const created = await client.callTool({ name: "videos_create", arguments: { video_name: "made over MCP" } });
      expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
      const video = created.structuredContent as Row;
      expect(video).toMatchObject({ livemode: true });
      const videoId = (video.video_id ?? video.video?.video_id) as string;
      expect(await prisma().video.count({ where: { workspace_id: fixture.workspaceId, video_name: "made over MCP" } })).toBe(1);

      const got = await client.callTool({ name: "get_record", arguments: { resource: "videos", id: videoId } });
      expect(got.structuredContent).toMatchObject({ video_id: videoId, video_name: "made over MCP" });
      const page = await client.callTool({ name: "list_records", arguments: { resource: "videos", limit: 5 } });
      expect((page.structuredContent as Row).data.map((row: Row) => row.video_id)).toContain(videoId);

      // A refused call is a tool error carrying the API's envelope.
      const refused = await client.callTool({ name: "videos_create", arguments: { video_nam: "typo" } });
      expect(refused.isError).toBe(true);
      expect((refused.structuredContent as Row).error).toMatchObject({ code: "validation_failed" });
    } finally {
      await client.close();
    }
  });

  it("a test key's call writes nothing", async () => {
    const fixture = await createFixture(service);
    const testKey = await fixture.newKey({ mode: "test" });
    const client = await connect(testKey.key);
    try {
      const answer = await client.callTool({ name: "videos_create", arguments: { video_name: "simulated" } });
      expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
      expect(answer.structuredContent).toMatchObject({ livemode: false });
      expect(await prisma().video.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
    } finally {
      await client.close();
    }
  });

  it("needs a key", async () => {
    await expect(connect(undefined)).rejects.toThrow();
    const response = await fetch(`${service.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(response.status).toBe(401);
  });
});

describe("MCP over stdio (npm run mcp)", () => {
  it("lists and calls tools against the running service", async () => {
    const fixture = await createFixture(service);
    const client = new McpClient({ name: "cutroom-test", version: "1.0.0" });
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", "src/cli/mcp.ts"], cwd: ROOT, env: { ...env, CUTROOM_API_KEY: fixture.key, CUTROOM_URL: service.url, LOG_LEVEL: "silent" }, stderr: "pipe" }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(100);
      const credits = await client.callTool({ name: "account_credits", arguments: {} });
      expect(credits.structuredContent).toMatchObject({ workspace_id: fixture.workspaceId });
    } finally {
      await client.close();
    }
  }, 180_000);
});
