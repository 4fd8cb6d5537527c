// /mcp: the MCP server over Streamable HTTP (stateless: one server per request), the key as a
// bearer. Each tool call goes through the service's own request handling with that key.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer, queryOf, type CallApi } from "./server.js";

export const MCP_PATH = "/mcp";

/** Answers one /mcp request; `handle` runs an API request through the service. */
export async function answerMcp(request: Request, handle: (request: Request) => Promise<Response>): Promise<Response> {
  const origin = new URL(request.url).origin;
  const authorization = request.headers.get("authorization");
  const apiKey = request.headers.get("x-api-key");
  const call: CallApi = async (method, path, input) => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (authorization) headers.authorization = authorization;
    if (apiKey) headers["x-api-key"] = apiKey;
    const url = `${origin}/api/v1${path === "/" ? "" : path}${method === "GET" ? queryOf(input) : ""}`;
    if (method === "POST") headers["content-type"] = "application/json";
    const response = await handle(new Request(url, { method, headers, body: method === "POST" ? JSON.stringify(input ?? {}) : undefined }));
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON (a file's bytes): the text stands
    }
    return { status: response.status, body };
  };
  const server = createMcpServer(call);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    void server.close();
  }
}
