// The service's one HTTP entry point: request ids, the request context, routing to the keyless
// routes (./keyless-routes.ts) or to GraphQL and REST behind a key (./api-routes.ts), the headers
// every response carries and the request log. Both surfaces report failures in the same envelope
// (./failures.ts).
import { createServerAdapter } from "@whatwg-node/server";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Config } from "../config.js";
import { newId } from "../ids.js";
import { runInRequestContext, type RequestContext } from "../context/request-context.js";
import type { IdempotentRun } from "../context/request-context.js";
import type { ServiceHandles } from "../graphql/context.js";
import type { GraphQLSchema } from "graphql";
import type { Guards } from "../guards/guards.js";
import type { HealthDependencies } from "../../rest/health.js";
import { carriesBody } from "../web/request-body.js";
import { errorResponseFor } from "./failures.js";
import { anonymousCharger, createKeylessRoutes } from "./keyless-routes.js";
import { answerForTarget, normalizeRequestTarget } from "./request-target.js";
import { createApiRoutes, type NodeServerContext } from "./api-routes.js";
import type { Response } from "../response.js";
import { recordRefusedActionCall } from "../../rest/action-refusals.js";
import { logger } from "../logger.js";

export interface AppDependencies {
  /** The one schema both surfaces serve (src/platform/schema.ts). */
  schema: GraphQLSchema;
  prisma: PrismaClient;
  health: HealthDependencies;
  guards: Guards;
  services: ServiceHandles;
  config: Pick<Config, "publicBaseUrl">;
  /**
   * Where links point when no public base URL is configured: the address the service listens on.
   * Never the request's Host header, which any client can set (docs/security.md).
   */
  listenerBaseUrl(this: void): string;
}

function setHeaders(response: Response, headers: Record<string, string>): void {
  // A header the response already carries (e.g. the window a 429 names) stays as it is.
  for (const [name, value] of Object.entries(headers)) if (!response.headers.has(name)) response.headers.set(name, value);
}

export function createApp(dependencies: AppDependencies) {
  const { guards } = dependencies;
  const chargeAnonymous = anonymousCharger(guards);
  const api = createApiRoutes({ ...dependencies, chargeAnonymous, handle });
  const keyless = createKeylessRoutes({
    prisma: dependencies.prisma,
    health: dependencies.health,
    files: dependencies.services.files,
    openApiDocument: api.openApiDocument,
    chargeAnonymous,
  });

  async function handle(request: Request, serverContext: NodeServerContext, idempotency?: IdempotentRun): Promise<Response> {
    // Read once: the request line's form (./request-target.ts) is the outer request's, not a batch member's.
    const target = answerForTarget(serverContext.req, request.method);
    const url = new URL(request.url);
    const started = performance.now();
    // Read once: the socket is gone once the client hangs up (a refused 28 MB upload, say).
    const clientIp = serverContext.req?.socket?.remoteAddress;
    const context: RequestContext = {
      requestId: newId("request"),
      baseUrl: dependencies.config.publicBaseUrl ?? dependencies.listenerBaseUrl(),
      idempotency,
    };
    return runInRequestContext(context, async () => {
      let response: Response;
      try {
        if (target) {
          context.route = target.path;
          context.logPath = target.path;
          if (target.error) throw target.error;
        }
        response = target?.response ?? (await (keyless(request, url, context, clientIp) ?? api(request, url, context, serverContext, clientIp)));
      } catch (error) {
        response = errorResponseFor(error, url.pathname, request);
      }
      const refusal = recordRefusedActionCall(dependencies.prisma, context, url.pathname, response);
      if (refusal) (context.pendingWrites ??= []).push(refusal.catch((error: unknown) => logger.error({ err: error, request_id: context.requestId }, "action.failed of a refused call not recorded")));
      // An answer never overtakes the records it reports (e.g. action.failed of a scope refusal).
      if (context.pendingWrites) await Promise.allSettled(context.pendingWrites);
      if (context.idempotentReplay) {
        // The replayed body names the original request; the header stays equal to it.
        response.headers.set("X-Replay-Request-Id", context.requestId);
      } else {
        response.headers.set("X-Request-Id", context.requestId);
      }
      setHeaders(response, context.meter?.headers() ?? context.anonymousRateHeaders ?? {});
      const livemode = context.auth?.livemode ?? context.livemodeHint ?? true;
      if (!livemode) response.headers.set("X-Test-Mode", "true");
      // Answered before its body was read (refused key, spent window, too large): close rather
      // than drain a body nobody asked for.
      if (carriesBody(request) && !context.bodyRead) response.headers.set("Connection", "close");

      guards.requestLog.record({
        logged_request_id: context.requestId,
        workspace_id: context.auth?.workspaceId ?? null,
        key_id: context.auth?.keyId ?? null,
        method: request.method,
        route: context.route ?? url.pathname,
        path: context.logPath ?? url.pathname,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        error_code: context.errorCode ?? null,
        ip: clientIp ?? null,
        user_agent: request.headers.get("user-agent")?.slice(0, 500) ?? null,
        idempotent_replay: context.idempotentReplay ?? false,
        request_livemode: livemode,
        created_at: new Date(),
      });
      return response;
    });
  }

  const adapter = createServerAdapter<NodeServerContext>(handle);
  return {
    /** The Node listener of the HTTP server (src/service.ts). */
    requestListener: (request: IncomingMessage, response: ServerResponse) => {
      normalizeRequestTarget(request);
      return adapter.requestListener(request, response);
    },
  };
}

export type App = ReturnType<typeof createApp>;
