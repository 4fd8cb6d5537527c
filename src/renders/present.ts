// A render as the API shows it, and where its output file lives.
//
// output_url: the generic resource layer (GET /renders, /renders/{id}, GraphQL) shows columns and
// cannot sign, so a completed render stores a signed URL valid CUTROOM_FILE_URL_TTL_SECONDS
// (7 days by default) in output_url, and keeps the storage key in output_key (internal). Code that
// presents renders itself (renders.list, events) can hand out a fresh URL with presentRender(row,
// files) instead.
import { presentRecord } from "../resources/selection.js";
import { renders } from "./resource.js";
import type { FileService } from "../storage/from-config.js";

/** Storage key of a render's file: its main output (`.mp4` …) or a derivative (`-poster.jpg` …). */
export function renderOutputKey(workspaceId: string, renderId: string, suffix = ".mp4"): string {
  return `renders/${workspaceId}/${renderId}${suffix}`;
}

/** A render record (every column) as the API shows it; with files, output_url is signed afresh. */
export function presentRender(row: Record<string, unknown>, files?: Pick<FileService, "signedUrl">): Record<string, unknown> {
  const record = presentRecord(renders, row);
  if (files && typeof row.output_key === "string" && row.render_status === "completed") {
    record.output_url = files.signedUrl(row.output_key);
    // Each entry of outputs signed afresh from its key (output_keys, same order).
    const keys = Array.isArray(row.output_keys) ? (row.output_keys as unknown[]) : [];
    if (Array.isArray(record.outputs)) {
      record.outputs = (record.outputs as Record<string, unknown>[]).map((entry, index) => (typeof keys[index] === "string" ? { ...entry, url: files.signedUrl(keys[index]) } : entry));
      const thumbnail = (record.outputs as { kind?: string; url?: string }[]).find((entry) => entry.kind === "thumbnail");
      if (thumbnail) record.thumbnail_url = thumbnail.url;
    }
  }
  return record;
}
