// The MCP server (Model Context Protocol): every action the key's scopes open is a tool, with
// its input JSON schema and description from the catalog, plus `list_records` and `get_record`
// over the resources the key may read. A tool call is an ordinary API call made with the
// caller's key (REST, through `call`), so scopes, credits, rate windows, idempotency and test
// keys (quotes, no writes) behave exactly as everywhere. docs/mcp.md.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { actionByName } from "../actions/catalog.js";
import { actionSchema } from "../actions/framework/input.js";
import { openApiSchemaOf } from "../resources/input-docs.js";
import { API_VERSION } from "../config.js";

/** One API call with the caller's key: method, path under /api/v1, and a JSON body or query. */
export type CallApi = (method: "GET" | "POST", path: string, input?: Record<string, unknown>) => Promise<{ status: number; body: unknown }>;

interface Discovery {
  actions?: { name: string; method: "GET" | "POST" }[];
  resources?: { name: string; id_field: string; routes: { method: string; path: string }[] }[];
}

/** `renders.create` → `renders_create`: tool names as the GraphQL fields spell them. */
const toolName = (action: string) => action.replace(".", "_");

function actionTool(name: string): Tool | undefined {
  const action = actionByName(name);
  if (!action) return undefined;
  const schema = openApiSchemaOf(actionSchema(action));
  const purpose = action.purpose.charAt(0).toUpperCase() + action.purpose.slice(1);
  const cost = action.credits ? ` Spends ${action.price.credits} credit${action.price.credits === 1 ? "" : "s"} per ${action.price.per ?? "call"}.` : "";
  return {
    name: toolName(name),
    title: action.name,
    description: `${purpose}${/[.!?]$/.test(purpose) ? "" : "."} (${action.method} /api/v1/actions/${action.name}; scopes ${action.scopes.join(", ")}.${cost})`,
    inputSchema: { ...schema, type: "object" },
    annotations: { readOnlyHint: action.method === "GET" },
  };
}

function recordTools(resources: NonNullable<Discovery["resources"]>): Tool[] {
  const listable = resources.filter((resource) => resource.routes.some((route) => route.method === "GET" && route.path === `/api/v1/${resource.name}`)).map((resource) => resource.name);
  const gettable = resources.filter((resource) => resource.routes.some((route) => route.method === "GET" && route.path.startsWith(`/api/v1/${resource.name}/{`))).map((resource) => resource.name);
  const tools: Tool[] = [];
  if (listable.length > 0) {
    tools.push({
      name: "list_records",
      description: "A page of records of a resource, newest first (GET /api/v1/{resource}); follow next_cursor as cursor.",
      inputSchema: {
        type: "object",
        properties: {
          resource: { type: "string", enum: listable },
          limit: { type: "integer", minimum: 1, maximum: 100 },
          cursor: { type: "string" },
          q: { type: "string", description: "Free-text search over the searchable fields." },
        },
        required: ["resource"],
      },
      annotations: { readOnlyHint: true },
    });
  }
  if (gettable.length > 0) {
    tools.push({
      name: "get_record",
      description: "One record of a resource by its id (GET /api/v1/{resource}/{id}).",
      inputSchema: { type: "object", properties: { resource: { type: "string", enum: gettable }, id: { type: "string" } }, required: ["resource", "id"] },
      annotations: { readOnlyHint: true },
    });
  }
  return tools;
}

function result(answer: { status: number; body: unknown }): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(answer.body) }], isError: answer.status >= 400, structuredContent: answer.body as Record<string, unknown> };
}

/** An MCP server for one caller; `call` makes its API calls with that caller's key. */
export function createMcpServer(call: CallApi): Server {
  const server = new Server({ name: "cutroom", version: API_VERSION }, { capabilities: { tools: {} } });
  let discovery: Promise<Discovery> | undefined;
  const discover = () => (discovery ??= call("GET", "/").then((answer) => (answer.status === 200 ? (answer.body as Discovery) : {})));

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const open = await discover();
    const tools = (open.actions ?? []).map((action) => actionTool(action.name)).filter((tool): tool is Tool => tool !== undefined);
    return { tools: [...tools, ...recordTools(open.resources ?? [])] };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = (request.params.arguments ?? {});
    const open = await discover();
    if (request.params.name === "list_records" || request.params.name === "get_record") {
      const resource = (open.resources ?? []).find((candidate) => candidate.name === args.resource);
      if (!resource) return { content: [{ type: "text", text: `No resource '${String(args.resource)}' this key may read.` }], isError: true };
      if (request.params.name === "get_record") return result(await call("GET", `/${resource.name}/${encodeURIComponent(typeof args.id === "string" ? args.id : "")}`));
      const { resource: _resource, ...query } = args;
      return result(await call("GET", `/${resource.name}`, query));
    }
    const action = (open.actions ?? []).find((candidate) => toolName(candidate.name) === request.params.name);
    if (!action) return { content: [{ type: "text", text: `No tool '${request.params.name}' for this key.` }], isError: true };
    return result(await call(action.method, `/actions/${action.name}`, args));
  });
  return server;
}

/** The query string of a GET call: arrays comma-separated, objects as JSON text (as REST reads them). */
export function queryOf(input: Record<string, unknown> | undefined): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input ?? {})) {
    if (value === undefined || value === null) continue;
    const text = (item: unknown): string => (typeof item === "string" ? item : JSON.stringify(item));
    query.set(name, Array.isArray(value) ? value.map(text).join(",") : text(value));
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}
