// Loopback stand-ins of the platforms' upload APIs, in their documented shapes, for the publishing
// adapters (src/publishing/platforms/):
// - YouTube Data API v3 resumable upload: POST /upload/youtube/v3/videos?uploadType=resumable
//   (metadata, X-Upload-Content-Length) answers a session URI in Location; PUT the bytes there
//   answers the video resource (kind youtube#video, id, status.uploadStatus).
// - TikTok Content Posting API: POST /v2/post/publish/video/init/ answers data.publish_id and
//   data.upload_url; PUT the bytes with Content-Range; POST /v2/post/publish/status/fetch/ answers
//   PROCESSING_UPLOAD, then PUBLISH_COMPLETE with publicaly_available_post_id (sic, as documented).
// - The OAuth refresh_token grants: Google's POST /token (client_id, client_secret) and TikTok's
//   POST /v2/oauth/token/ (client_key, client_secret; it rotates the refresh token). The client is
//   STANDIN_OAUTH_CLIENT; a refresh token containing "revoked" is refused with invalid_grant.
// Access tokens steer failures: a token containing "revoked" is refused (401), one containing
// "down" meets a 503. Every finished upload is recorded with its bytes, every refresh with its form.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";

export interface PlatformUpload {
  platform: "youtube" | "tiktok";
  token: string;
  title: string;
  bytes: Buffer;
  postId: string;
}

/** The OAuth app the stand-in's token endpoints accept. */
export const STANDIN_OAUTH_CLIENT = { clientId: "standin-client", clientSecret: "standin-secret" } as const;

export interface PlatformStandIn {
  url: string;
  uploads: PlatformUpload[];
  /** Every refresh_token grant, as `platform` and the form it sent. */
  refreshes: { platform: "youtube" | "tiktok"; form: Record<string, string> }[];
  /** Every request, as `METHOD path`. */
  requests: string[];
  close(): Promise<void>;
}

interface Session {
  platform: "youtube" | "tiktok";
  token: string;
  title: string;
  length: number;
  statusChecks: number;
  done?: PlatformUpload;
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

function json(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers }).end(JSON.stringify(body));
}

const tiktokError = (code: string, message: string) => ({ error: { code, message, log_id: randomBytes(8).toString("hex") } });

export async function startPlatformStandIn(): Promise<PlatformStandIn> {
  const sessions = new Map<string, Session>();
  const uploads: PlatformUpload[] = [];
  const refreshes: PlatformStandIn["refreshes"] = [];
  const requests: string[] = [];
  let base = "";

  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", base);
      requests.push(`${request.method} ${url.pathname}`);
      const body = await readBody(request);
      const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");

      // ---- OAuth refresh_token grants -------------------------------------------------------
      if ((url.pathname === "/token" || url.pathname === "/v2/oauth/token/") && request.method === "POST") {
        const platform = url.pathname === "/token" ? "youtube" : "tiktok";
        const form = Object.fromEntries(new URLSearchParams(body.toString("utf8")));
        refreshes.push({ platform, form });
        const clientId = platform === "youtube" ? form.client_id : form.client_key;
        if (clientId !== STANDIN_OAUTH_CLIENT.clientId || form.client_secret !== STANDIN_OAUTH_CLIENT.clientSecret) return json(response, 401, { error: "invalid_client", error_description: "The OAuth client was not found." });
        if (form.grant_type !== "refresh_token" || !form.refresh_token || form.refresh_token.includes("revoked")) return json(response, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
        const accessToken = `token-ok-refreshed-${refreshes.length}`;
        if (platform === "youtube") return json(response, 200, { access_token: accessToken, expires_in: 3599, scope: "https://www.googleapis.com/auth/youtube.upload", token_type: "Bearer" });
        return json(response, 200, { access_token: accessToken, expires_in: 86_400, open_id: "open-id", refresh_expires_in: 31_536_000, refresh_token: `${form.refresh_token}-rotated`, scope: "video.publish", token_type: "Bearer" });
      }

      // ---- YouTube ------------------------------------------------------------------------
      if (url.pathname === "/upload/youtube/v3/videos" && request.method === "POST") {
        if (!token || token.includes("revoked")) return json(response, 401, { error: { code: 401, message: "Invalid Credentials", errors: [{ reason: "authError" }] } });
        if (token.includes("down")) return json(response, 503, { error: { code: 503, message: "Backend Error" } });
        if (url.searchParams.get("uploadType") !== "resumable") return json(response, 400, { error: { code: 400, message: "uploadType must be resumable" } });
        const metadata = JSON.parse(body.toString("utf8") || "{}") as { snippet?: { title?: string } };
        const length = Number(request.headers["x-upload-content-length"]);
        if (!metadata.snippet?.title || !Number.isInteger(length)) return json(response, 400, { error: { code: 400, message: "snippet.title and X-Upload-Content-Length are required" } });
        const uploadId = randomBytes(12).toString("hex");
        sessions.set(uploadId, { platform: "youtube", token, title: metadata.snippet.title, length, statusChecks: 0 });
        response.writeHead(200, { location: `${base}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${uploadId}`, "content-length": "0" }).end();
        return;
      }
      if (url.pathname === "/upload/youtube/v3/videos" && request.method === "PUT") {
        const session = sessions.get(url.searchParams.get("upload_id") ?? "");
        if (!session) return json(response, 404, { error: { code: 404, message: "upload session not found" } });
        if (body.length !== session.length) return json(response, 400, { error: { code: 400, message: `expected ${session.length} bytes, got ${body.length}` } });
        const postId = randomBytes(6).toString("base64url");
        uploads.push({ platform: "youtube", token: session.token, title: session.title, bytes: body, postId });
        return json(response, 200, { kind: "youtube#video", id: postId, snippet: { title: session.title }, status: { uploadStatus: "uploaded", privacyStatus: "public" } });
      }

      // ---- TikTok -------------------------------------------------------------------------
      if (url.pathname === "/v2/post/publish/video/init/" && request.method === "POST") {
        if (!token || token.includes("revoked")) return json(response, 401, tiktokError("access_token_invalid", "The access token is invalid or not found in the request."));
        if (token.includes("down")) return json(response, 503, tiktokError("internal_error", "Service unavailable"));
        const init = JSON.parse(body.toString("utf8") || "{}") as { post_info?: { title?: string }; source_info?: { source?: string; video_size?: number } };
        if (init.source_info?.source !== "FILE_UPLOAD" || !init.source_info.video_size) return json(response, 400, tiktokError("invalid_params", "source_info is invalid"));
        const publishId = `v_pub_file~v2-1.${randomBytes(8).toString("hex")}`;
        sessions.set(publishId, { platform: "tiktok", token, title: init.post_info?.title ?? "", length: init.source_info.video_size, statusChecks: 0 });
        return json(response, 200, { data: { publish_id: publishId, upload_url: `${base}/video/upload/?upload_id=${encodeURIComponent(publishId)}` }, ...tiktokError("ok", "") });
      }
      if (url.pathname === "/video/upload/" && request.method === "PUT") {
        const publishId = url.searchParams.get("upload_id") ?? "";
        const session = sessions.get(publishId);
        if (!session) return json(response, 404, tiktokError("invalid_params", "unknown upload"));
        const range = /^bytes 0-(\d+)\/(\d+)$/.exec(String(request.headers["content-range"] ?? ""));
        if (!range || Number(range[2]) !== session.length || body.length !== session.length) return json(response, 416, tiktokError("invalid_params", "Content-Range does not match the video"));
        session.done = { platform: "tiktok", token: session.token, title: session.title, bytes: body, postId: String(7_000_000_000_000_000_000n + BigInt(uploads.length)) };
        uploads.push(session.done);
        response.writeHead(201, { "content-length": "0" }).end();
        return;
      }
      if (url.pathname === "/v2/post/publish/status/fetch/" && request.method === "POST") {
        const { publish_id: publishId } = JSON.parse(body.toString("utf8") || "{}") as { publish_id?: string };
        const session = sessions.get(publishId ?? "");
        if (!session) return json(response, 400, tiktokError("invalid_publish_id", "publish_id not found"));
        session.statusChecks++;
        if (!session.done || session.statusChecks < 2) return json(response, 200, { data: { status: "PROCESSING_UPLOAD", uploaded_bytes: session.done?.bytes.length ?? 0 }, ...tiktokError("ok", "") });
        return json(response, 200, { data: { status: "PUBLISH_COMPLETE", publicaly_available_post_id: [session.done.postId], uploaded_bytes: session.done.bytes.length }, ...tiktokError("ok", "") });
      }
      json(response, 404, { error: { code: 404, message: `no route ${request.method} ${url.pathname}` } });
    })().catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: { message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    uploads,
    refreshes,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
