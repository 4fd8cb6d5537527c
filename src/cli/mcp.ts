// npm run mcp: the MCP server over stdio, for an agent host that starts it as a process. It
// speaks to a running service with the key in CUTROOM_API_KEY, at CUTROOM_URL (default: the
// address `npm start` left in its data directory, else the configured host and port). Its tools
// are the actions that key's scopes open, and list_records / get_record (docs/mcp.md).
import "../platform/catalogs.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { loadConfig } from "../config.js";
import { serviceBaseUrl } from "../storage/from-config.js";
import { readServiceAddress } from "../platform/service-address.js";
import { createMcpServer, queryOf, type CallApi } from "../mcp/server.js";

async function main(): Promise<void> {
  const key = process.env.CUTROOM_API_KEY;
  if (!key) {
    console.error("Set CUTROOM_API_KEY to the key the tools call the API with (an sk_test_ key quotes and writes nothing).");
    process.exit(2);
  }
  const config = loadConfig();
  const base = (process.env.CUTROOM_URL ?? (await readServiceAddress(config.dataDir)) ?? serviceBaseUrl(config)).replace(/\/+$/, "");
  const call: CallApi = async (method, path, input) => {
    const response = await fetch(`${base}/api/v1${path === "/" ? "" : path}${method === "GET" ? queryOf(input) : ""}`, {
      method,
      headers: { authorization: `Bearer ${key}`, accept: "application/json", ...(method === "POST" && { "content-type": "application/json" }) },
      body: method === "POST" ? JSON.stringify(input ?? {}) : undefined,
    });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      return { status: response.status, body: text };
    }
  };
  await createMcpServer(call).connect(new StdioServerTransport());
  console.error(`Cutroom MCP server on stdio, calling ${base}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
