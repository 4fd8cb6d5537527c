// The routes that take no API key — health, the reference pages, a script's review link, signed
// file links — and the anonymous rate window every keyless request counts against.
import type { PrismaClient } from "../generated/prisma/client.js";
import { ApiError } from "../errors/api-error.js";
import type { RequestContext } from "../context/request-context.js";
import type { Guards } from "../guards/guards.js";
import { rateLimitHeaders } from "../guards/rate-limit.js";
import type { ServiceHandles } from "../graphql/context.js";
import { jsonResponse, methodNotAllowed } from "../web/responses.js";
import { healthBody, type HealthDependencies } from "../../rest/health.js";
import { API_BASE_PATH } from "../../rest/sofa.js";
import { createFilesHandler } from "../../rest/files.js";
import { FILES_PATH_PREFIX } from "../storage/signed-urls.js";
import { createReferenceHandler, docsRouteName, isDocsPath, type ReferenceDependencies } from "../reference/handler.js";
import { createReviewHandler, isReviewPath, reviewRouteName } from "../scripts/review/handler.js";
import type { Response } from "../response.js";

/**
 * Counts a request without a valid key against its address's window, keeping the headers to
 * report; 429 once the window is spent, unless `neverRefuse` (then the refusal's headers are kept).
 */
export type ChargeAnonymous = (context: RequestContext, clientIp: string | undefined, options?: { neverRefuse?: boolean }) => Promise<void>;

export function anonymousCharger(guards: Guards): ChargeAnonymous {
  return async (context, clientIp, options = {}) => {
    try {
      context.anonymousRateHeaders = rateLimitHeaders([await guards.rateLimits.consumeAnonymous(clientIp ?? "unknown")]);
    } catch (error) {
      if (!options.neverRefuse) throw error;
      context.anonymousRateHeaders = error instanceof ApiError ? (error.headers ?? {}) : {};
    }
  };
}

export interface KeylessDependencies {
  prisma: PrismaClient;
  health: HealthDependencies;
  files: ServiceHandles["files"];
  openApiDocument: ReferenceDependencies["openApiDocument"];
  chargeAnonymous: ChargeAnonymous;
}

/** Answers a keyless route, or undefined when the path is not one. */
export type KeylessRoutes = (request: Request, url: URL, context: RequestContext, clientIp: string | undefined) => Promise<Response> | undefined;

export function createKeylessRoutes(dependencies: KeylessDependencies): KeylessRoutes {
  const { chargeAnonymous } = dependencies;
  const files = createFilesHandler(dependencies.files.storage, dependencies.files.signer.verify);
  const reference = createReferenceHandler({ openApiDocument: dependencies.openApiDocument });
  const review = createReviewHandler(dependencies.prisma);

  return (request, url, context, clientIp) => {
    const path = url.pathname;
    if (path === `${API_BASE_PATH}/health`) {
      context.route = path;
      return (async () => {
        // Health is always 200 (contract 4.6): its address is counted and reported, never refused.
        await chargeAnonymous(context, clientIp, { neverRefuse: true });
        if (request.method !== "GET" && request.method !== "HEAD") throw methodNotAllowed(request.method, path, "GET, HEAD");
        return jsonResponse(await healthBody(dependencies.health));
      })();
    }
    if (isDocsPath(path)) {
      // The reference and error codes pages hold only the contract: no key, counted like health.
      context.route = docsRouteName(path);
      return chargeAnonymous(context, clientIp, { neverRefuse: true }).then(() => reference(request, url));
    }
    if (isReviewPath(path)) {
      // A script's review link is its own permission (a minted token): no key; its address is
      // counted like any keyless request, and the token never reaches the request log.
      context.route = reviewRouteName(path);
      context.logPath = context.route;
      return chargeAnonymous(context, clientIp).then(() => review(request, url));
    }
    if (path.startsWith(FILES_PATH_PREFIX)) {
      // A signed link is its own permission: no key; its address is counted like any keyless request.
      context.route = "/files/{key}";
      return chargeAnonymous(context, clientIp).then(() => files(request));
    }
    return undefined;
  };
}
