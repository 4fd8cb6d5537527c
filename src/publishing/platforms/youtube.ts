// YouTube Data API v3 resumable upload (developers.google.com/youtube/v3/guides/using_resumable_upload_protocol):
// 1. POST /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status with the metadata;
//    the session URI comes back in `Location`.
// 2. PUT the bytes to the session URI; the answer is the video resource, with its id.
// Tokens refresh at Google's OAuth 2.0 endpoint (developers.google.com/identity/protocols/oauth2/web-server#offline):
// client_id, client_secret, refresh_token; the refresh token is kept (Google does not rotate it).
import { jsonOf, platformCall, PlatformError, refreshGrant, type PlatformAdapter } from "./types.js";

export const youtube: PlatformAdapter = {
  platform: "youtube",
  async publish({ credentials, baseUrl, video, title, caption, signal }) {
    const init = await platformCall("youtube", `${baseUrl}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: "POST",
      signal,
      headers: {
        authorization: `Bearer ${credentials.access_token}`,
        "content-type": "application/json; charset=UTF-8",
        "x-upload-content-type": video.contentType,
        "x-upload-content-length": String(video.bytes.length),
      },
      body: JSON.stringify({ snippet: { title: title.slice(0, 100), description: caption.slice(0, 5000) }, status: { privacyStatus: "public" } }),
    });
    const session = init.headers.get("location");
    if (!session) throw new PlatformError("platform_protocol_error", "youtube opened no upload session (no Location header).");
    const uploaded = await platformCall("youtube", new URL(session, baseUrl).toString(), {
      method: "PUT",
      signal,
      headers: { "content-type": video.contentType, "content-length": String(video.bytes.length) },
      body: new Uint8Array(video.bytes),
    });
    const resource = await jsonOf<{ id?: string; status?: { uploadStatus?: string; rejectionReason?: string } }>("youtube", uploaded);
    if (resource.status?.uploadStatus === "rejected" || resource.status?.uploadStatus === "failed") {
      throw new PlatformError("platform_rejected", `youtube ${resource.status.uploadStatus} the video${resource.status.rejectionReason ? `: ${resource.status.rejectionReason}` : ""}.`);
    }
    if (!resource.id) throw new PlatformError("platform_protocol_error", "youtube answered the upload without a video id.");
    return { platform_post_id: resource.id, url: `https://www.youtube.com/watch?v=${encodeURIComponent(resource.id)}` };
  },
  refresh: ({ credentials, client, signal }) =>
    refreshGrant("youtube", client.tokenUrl, { client_id: client.clientId, client_secret: client.clientSecret, refresh_token: credentials.refresh_token }, signal),
};
