// Scripts: video scripts with paragraphs, chapters, speakers, takes and research (contract 2.2).
// Read-only as a resource: the scripts.* actions write them (src/scripts/actions/). The document
// is relational (docs/scripts.md); the resource's heavy fields are read from its tables.
import { defineResource, type VirtualField } from "../registry/resource.js";
import { presentChapter, presentNote, presentParagraph, presentSnapshotSummary, presentSource } from "./present.js";

type Row = Record<string, unknown>;

/** A heavy field read from one of the document's tables. */
function documentField(description: string, relation: string, query: Record<string, unknown>, present: (row: Row) => unknown, filter?: (row: Row) => boolean): VirtualField {
  return {
    graphqlType: "JSON",
    description,
    select: { [relation]: query },
    resolve: (row) => ((row[relation] as Row[] | undefined) ?? []).filter(filter ?? (() => true)).map(present),
  };
}

export const scripts = defineResource({
  name: "scripts",
  kind: "script",
  model: "Script",
  idField: "script_id",
  idPrefix: "script",
  scopeGroup: "scripts",
  createdAtField: "created_at",
  routes: ["list", "get"],
  sortable: ["updated_at", "created_at", "title"],
  filterable: ["language", "format", "structure", "video_id", "created_at", "updated_at"],
  searchable: ["title", "topic"],
  heavy: ["paragraphs", "snapshots", "research", "review_notes", "sources", "chapters"],
  internal: ["workspace_id", "share_enabled", "share_token", "share_allow_notes"],
  serviceSet: ["created_at", "updated_at", "word_count", "paragraph_count", "revision"],
  references: { video_id: { resource: "videos", relation: "video" } },
  virtualFields: {
    paragraphs: documentField("The paragraphs, in order.", "script_paragraphs", { orderBy: { position: "asc" } }, presentParagraph),
    chapters: documentField("The chapters, in order.", "script_chapters", { orderBy: { position: "asc" } }, presentChapter),
    snapshots: documentField(
      "Restore points, newest first (without their copies: scripts.snapshots).",
      "script_snapshots",
      { orderBy: { created_at: "desc" }, select: { snapshot_id: true, label: true, reason: true, action: true, word_count: true, created_at: true } },
      presentSnapshotSummary,
    ),
    review_notes: documentField("Reviewers' notes, open and resolved.", "script_notes", { where: { status: { not: "deleted" } }, orderBy: { created_at: "asc" } }, presentNote),
    // Both read every source (one relation, one query) and keep their kind.
    sources: documentField("Pages attached as sources.", "script_sources", { orderBy: { created_at: "asc" } }, presentSource, (row) => row.kind === "source"),
    research: documentField("Facts filed by research, confirmed or not.", "script_sources", { orderBy: { created_at: "asc" } }, presentSource, (row) => row.kind === "research"),
  },
  description: "A video script: paragraphs, chapters, speakers, takes and research.",
});
