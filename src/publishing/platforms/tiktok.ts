// TikTok Content Posting API, direct post (developers.tiktok.com/doc/content-posting-api-reference-direct-post):
// 1. POST /v2/post/publish/video/init/ with post_info and source_info (FILE_UPLOAD, one chunk):
//    data.publish_id and data.upload_url.
// 2. PUT the bytes to upload_url with Content-Range.
// 3. POST /v2/post/publish/status/fetch/ until PUBLISH_COMPLETE (or FAILED with fail_reason).
// Tokens refresh at POST /v2/oauth/token/ (developers.tiktok.com/doc/oauth-user-access-token-management):
// client_key, client_secret, refresh_token; the answer may carry a new refresh token, which replaces the old.
import { jsonOf, platformCall, PlatformError, refreshGrant, type PlatformAdapter } from "./types.js";

interface TikTokAnswer<D> {
  data?: D;
  error?: { code?: string; message?: string };
}

const STATUS_POLLS = 60;
const STATUS_INTERVAL_MS = 1000;

function checked<D>(answer: TikTokAnswer<D>, step: string): D {
  if (answer.error?.code && answer.error.code !== "ok") {
    throw new PlatformError(answer.error.code.startsWith("access_token") ? "platform_auth_failed" : "platform_rejected", `tiktok ${step}: ${answer.error.code} ${answer.error.message ?? ""}`.trim());
  }
  if (!answer.data) throw new PlatformError("platform_protocol_error", `tiktok ${step} answered no data.`);
  return answer.data;
}

export const tiktok: PlatformAdapter = {
  platform: "tiktok",
  async publish({ credentials, baseUrl, video, title, caption, signal }) {
    const headers = { authorization: `Bearer ${credentials.access_token}`, "content-type": "application/json; charset=UTF-8" };
    const size = video.bytes.length;
    const init = checked(
      await jsonOf<TikTokAnswer<{ publish_id?: string; upload_url?: string }>>("tiktok", await platformCall("tiktok", `${baseUrl}/v2/post/publish/video/init/`, {
        method: "POST",
        signal,
        headers,
        body: JSON.stringify({
          post_info: { title: (caption || title).slice(0, 2200), privacy_level: "PUBLIC_TO_EVERYONE" },
          source_info: { source: "FILE_UPLOAD", video_size: size, chunk_size: size, total_chunk_count: 1 },
        }),
      })),
      "init",
    );
    if (!init.publish_id || !init.upload_url) throw new PlatformError("platform_protocol_error", "tiktok init answered no publish_id or upload_url.");
    await platformCall("tiktok", init.upload_url, {
      method: "PUT",
      signal,
      headers: { "content-type": video.contentType, "content-length": String(size), "content-range": `bytes 0-${size - 1}/${size}` },
      body: new Uint8Array(video.bytes),
    });
    for (let poll = 0; poll < STATUS_POLLS; poll++) {
      const status = checked(
        await jsonOf<TikTokAnswer<{ status?: string; fail_reason?: string; publicaly_available_post_id?: (string | number)[] }>>("tiktok", await platformCall("tiktok", `${baseUrl}/v2/post/publish/status/fetch/`, {
          method: "POST",
          signal,
          headers,
          body: JSON.stringify({ publish_id: init.publish_id }),
        })),
        "status",
      );
      if (status.status === "PUBLISH_COMPLETE") {
        const postId = String(status.publicaly_available_post_id?.[0] ?? init.publish_id);
        return { platform_post_id: postId, url: `https://www.tiktok.com/video/${encodeURIComponent(postId)}` };
      }
      if (status.status === "FAILED") throw new PlatformError("platform_rejected", `tiktok could not publish the video: ${status.fail_reason ?? "no reason given"}.`);
      await new Promise((resolve) => setTimeout(resolve, STATUS_INTERVAL_MS));
    }
    throw new PlatformError("platform_unavailable", `tiktok had not published the video after ${STATUS_POLLS} status checks.`);
  },
  refresh: ({ credentials, client, signal }) =>
    refreshGrant("tiktok", client.tokenUrl, { client_key: client.clientId, client_secret: client.clientSecret, refresh_token: credentials.refresh_token }, signal),
};
