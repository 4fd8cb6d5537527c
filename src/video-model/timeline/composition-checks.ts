// The checks of a composition beyond its shape, which need its frame, its fonts or the database:
// text that fits and fonts that draw it (./text-checks.ts), and media references of the workspace
// (./media-references.ts). Run when a video is saved (the videos resource's beforeWrite) and when a
// render is queued (renders.create, with merge fields filled and the render's format), so a
// composition that cannot be drawn is a 422 before any credit is spent.
import type { Tx } from "../../db/transaction.js";
import type { FileUrlSigner } from "../../storage/signed-urls.js";
import { validationFailed } from "../../validation/issues.js";
import type { StoredComposition } from "./composition.js";
import { checkMediaReferences } from "./media-references.js";
import { checkCompositionText } from "./text-checks.js";

export interface CompositionCheckContext {
  workspaceId: string;
  signer: Pick<FileUrlSigner, "verify">;
}

/** Throws 422 validation_failed with every text, font and media-reference issue of a composition. */
export async function assertCompositionDrawable(tx: Tx, context: CompositionCheckContext, composition: Pick<StoredComposition, "layers">, format: string | null | undefined, options: { prefix?: string; needFiles?: boolean } = {}): Promise<void> {
  const prefix = options.prefix ?? "composition";
  const issues = [
    ...(await checkMediaReferences(tx, context.workspaceId, composition, context.signer, { prefix, needFiles: options.needFiles })),
    ...checkCompositionText(composition, format, prefix),
  ];
  if (issues.length > 0) throw validationFailed(issues);
}
