// The workspace's own media named in a composition: `asset:`, `background:`, `take:`, `render:`,
// `generation:` references and this service's own signed `/files/` links. Each is looked up in the
// caller's workspace (a background may also be on the shared shelf); one of another workspace, or
// none, is the same 422 at its path, which says nothing of the record. What a found reference
// points at is a storage key (read from storage directly by the render, src/renders/media.ts) or,
// for an asset or background whose file lives elsewhere, the URL the record holds (fetched through
// the URL guard like any URL).
import type { Tx } from "../../db/transaction.js";
import type { FileUrlSigner } from "../../storage/signed-urls.js";
import type { ValidationIssue } from "../../validation/issues.js";
import type { StoredComposition } from "./composition.js";
import { holdsMergeField } from "./merge-fields.js";
import { parseMediaReference, type MediaReference } from "./media-source.js";

/** What a reference or own link points at: a storage key, or a URL to fetch through the guard. */
export type MediaTarget = { key: string } | { url: string };

/** Every media `src` of a composition (and text layers' `font_url`), with its path. */
export function mediaSourcesOf(composition: Pick<StoredComposition, "layers">, prefix = "composition"): { src: string; path: string }[] {
  return composition.layers.flatMap((layer, index) => {
    const found: { src: string; path: string }[] = [];
    if ((layer.type === "image" || layer.type === "video" || layer.type === "audio") && layer.src) found.push({ src: layer.src, path: `${prefix}.layers.${index}.src` });
    if (layer.type === "text" && layer.font_url) found.push({ src: layer.font_url, path: `${prefix}.layers.${index}.font_url` });
    return found;
  });
}

/** Whether a storage key is the workspace's (keys are `<folder>/<workspace_id>/…`) or the shared shelf's. */
export function keyBelongsTo(key: string, workspaceId: string): boolean {
  const [folder, owner] = key.split("/");
  return owner === workspaceId || (folder === "static" && owner === "library");
}

/** The key of this service's signed link (an expired one too: the signature proves we made it), or null. */
export function ownLinkKey(src: string, signer: Pick<FileUrlSigner, "verify">): string | null {
  if (!/^https?:\/\//i.test(src)) return null;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return null;
  }
  const check = signer.verify(url);
  return check.ok || check.reason === "expired" ? (check.key ?? null) : null;
}

/** A record's URL: its key when it is this service's own link, else the URL itself. */
function targetOfUrl(url: string, signer: Pick<FileUrlSigner, "verify">): MediaTarget {
  const key = ownLinkKey(url, signer);
  return key ? { key } : { url };
}

function generationKey(row: { generation_metadata: unknown; output_urls: string[] }, index: number, signer: Pick<FileUrlSigner, "verify">): MediaTarget | null {
  const files = (row.generation_metadata as { files?: { key?: unknown }[] } | null)?.files;
  const key = files?.[index]?.key;
  if (typeof key === "string") return { key };
  const url = row.output_urls[index];
  return url ? targetOfUrl(url, signer) : null;
}

/** What one reference points at in the workspace, or null (none, another workspace's, or no file yet). */
export async function resolveReference(db: Tx, workspaceId: string, reference: MediaReference, signer: Pick<FileUrlSigner, "verify">): Promise<MediaTarget | null> {
  const { id } = reference;
  switch (reference.kind) {
    case "asset": {
      const row = await db.asset.findFirst({ where: { asset_id: id, workspace_id: workspaceId }, select: { provider_file_url: true } });
      return row ? targetOfUrl(row.provider_file_url, signer) : null;
    }
    case "background": {
      const row = await db.background.findFirst({ where: { background_ref: id, OR: [{ workspace_id: workspaceId }, { workspace_id: null }] }, select: { media_url: true } });
      return row ? targetOfUrl(row.media_url, signer) : null;
    }
    case "take": {
      const row = await db.scriptTake.findFirst({ where: { take_id: id, script: { workspace_id: workspaceId } }, select: { storage_key: true } });
      return row ? { key: row.storage_key } : null;
    }
    case "render": {
      const row = await db.render.findFirst({ where: { render_id: id, workspace_id: workspaceId }, select: { output_key: true, render_status: true } });
      if (!row) return null;
      return row.output_key ? { key: row.output_key } : { key: "" };
    }
    case "generation": {
      const row = await db.generation.findFirst({ where: { generation_id: id, workspace_id: workspaceId }, select: { generation_metadata: true, output_urls: true } });
      return row ? (generationKey(row, reference.index, signer) ?? { key: "" }) : null;
    }
  }
}

const NOUNS: Record<MediaReference["kind"], string> = { asset: "asset", background: "background", take: "take", render: "render", generation: "generation" };

/**
 * The issues of a composition's references and own links: each must name a record (or file) of the
 * workspace. `needFiles` (at renders.create) also asks that the record has its file already (a
 * render that completed, a generation with outputs).
 */
export async function checkMediaReferences(db: Tx, workspaceId: string, composition: Pick<StoredComposition, "layers">, signer: Pick<FileUrlSigner, "verify">, options: { prefix?: string; needFiles?: boolean } = {}): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  for (const { src, path } of mediaSourcesOf(composition, options.prefix)) {
    if (holdsMergeField(src)) continue;
    const reference = parseMediaReference(src);
    if (reference) {
      const target = await resolveReference(db, workspaceId, reference, signer);
      if (!target) issues.push({ path, type: "any.invalid", message: `No ${NOUNS[reference.kind]} '${reference.id}' in this workspace.` });
      else if (options.needFiles && "key" in target && !target.key) issues.push({ path, type: "any.invalid", message: `The ${NOUNS[reference.kind]} '${reference.id}' has no file yet${reference.kind === "generation" && reference.index > 0 ? ` at output ${reference.index}` : ""}.` });
      continue;
    }
    const key = ownLinkKey(src, signer);
    if (key && !keyBelongsTo(key, workspaceId)) issues.push({ path, type: "any.invalid", message: "The link is to a file this workspace does not hold." });
  }
  return issues;
}
