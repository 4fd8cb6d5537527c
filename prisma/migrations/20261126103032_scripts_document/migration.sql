-- AlterTable
ALTER TABLE "scripts" DROP COLUMN "chapters",
DROP COLUMN "paragraphs",
DROP COLUMN "research",
DROP COLUMN "review_notes",
DROP COLUMN "snapshots",
DROP COLUMN "sources",
DROP COLUMN "speakers",
ADD COLUMN     "default_voice_name" TEXT,
ADD COLUMN     "paragraph_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "quick_model_ref" TEXT,
ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "share_allow_notes" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "share_enabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "share_token" TEXT;

-- CreateTable
CREATE TABLE "script_paragraphs" (
    "paragraph_id" TEXT NOT NULL,
    "script_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "chapter_id" TEXT,
    "role" TEXT NOT NULL DEFAULT 'body',
    "text" TEXT NOT NULL DEFAULT '',
    "word_count" INTEGER NOT NULL DEFAULT 0,
    "speaker_id" TEXT,
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "note" TEXT,
    "visual" JSONB,
    "playback_rate" DOUBLE PRECISION,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "script_paragraphs_pkey" PRIMARY KEY ("paragraph_id")
);

-- CreateTable
CREATE TABLE "script_chapters" (
    "chapter_id" TEXT NOT NULL,
    "script_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "script_chapters_pkey" PRIMARY KEY ("chapter_id")
);

-- CreateTable
CREATE TABLE "script_speakers" (
    "speaker_id" TEXT NOT NULL,
    "script_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "persona" TEXT,
    "is_base" BOOLEAN NOT NULL DEFAULT false,
    "voice_ref" TEXT,
    "voice_name" TEXT,
    "face_url" TEXT,
    "face_aspect" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "script_speakers_pkey" PRIMARY KEY ("speaker_id")
);

-- CreateTable
CREATE TABLE "script_snapshots" (
    "snapshot_id" TEXT NOT NULL,
    "script_id" TEXT NOT NULL,
    "label" TEXT,
    "reason" TEXT NOT NULL,
    "action" TEXT,
    "document" JSONB NOT NULL,
    "word_count" INTEGER NOT NULL DEFAULT 0,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "script_snapshots_pkey" PRIMARY KEY ("snapshot_id")
);

-- CreateTable
CREATE TABLE "script_edits" (
    "edit_id" TEXT NOT NULL,
    "script_id" TEXT NOT NULL,
    "paragraph_id" TEXT,
    "action" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "request_id" TEXT,
    "key_id" TEXT,
    "undone_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "script_edits_pkey" PRIMARY KEY ("edit_id")
);

-- CreateTable
CREATE TABLE "script_notes" (
    "note_id" TEXT NOT NULL,
    "script_id" TEXT NOT NULL,
    "paragraph_id" TEXT,
    "author_name" TEXT,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "script_notes_pkey" PRIMARY KEY ("note_id")
);

-- CreateTable
CREATE TABLE "script_sources" (
    "source_id" TEXT NOT NULL,
    "script_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'source',
    "url" TEXT,
    "title" TEXT,
    "snippet" TEXT,
    "excerpt" TEXT,
    "status" TEXT NOT NULL DEFAULT 'confirmed',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "script_sources_pkey" PRIMARY KEY ("source_id")
);

-- CreateTable
CREATE TABLE "script_snippets" (
    "snippet_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "title" TEXT,
    "text" TEXT NOT NULL,
    "role" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "source_script_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "script_snippets_pkey" PRIMARY KEY ("snippet_id")
);

-- CreateTable
CREATE TABLE "style_rules" (
    "rule_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "term" TEXT NOT NULL,
    "replacement" TEXT,
    "note" TEXT,
    "brief" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "style_rules_pkey" PRIMARY KEY ("rule_id")
);

-- CreateIndex
CREATE INDEX "script_paragraphs_script_id_position_idx" ON "script_paragraphs"("script_id", "position");

-- CreateIndex
CREATE INDEX "script_chapters_script_id_position_idx" ON "script_chapters"("script_id", "position");

-- CreateIndex
CREATE INDEX "script_speakers_script_id_position_idx" ON "script_speakers"("script_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "script_speakers_script_id_name_key" ON "script_speakers"("script_id", "name");

-- CreateIndex
CREATE INDEX "script_snapshots_script_id_created_at_idx" ON "script_snapshots"("script_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "script_edits_script_id_created_at_edit_id_idx" ON "script_edits"("script_id", "created_at" DESC, "edit_id" DESC);

-- CreateIndex
CREATE INDEX "script_edits_script_id_paragraph_id_idx" ON "script_edits"("script_id", "paragraph_id");

-- CreateIndex
CREATE INDEX "script_notes_script_id_created_at_idx" ON "script_notes"("script_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "script_sources_script_id_created_at_idx" ON "script_sources"("script_id", "created_at");

-- CreateIndex
CREATE INDEX "script_snippets_workspace_id_created_at_idx" ON "script_snippets"("workspace_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "style_rules_workspace_id_kind_term_key" ON "style_rules"("workspace_id", "kind", "term");

-- CreateIndex
CREATE UNIQUE INDEX "scripts_share_token_key" ON "scripts"("share_token");

-- AddForeignKey
ALTER TABLE "script_paragraphs" ADD CONSTRAINT "script_paragraphs_script_id_fkey" FOREIGN KEY ("script_id") REFERENCES "scripts"("script_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_paragraphs" ADD CONSTRAINT "script_paragraphs_chapter_id_fkey" FOREIGN KEY ("chapter_id") REFERENCES "script_chapters"("chapter_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_paragraphs" ADD CONSTRAINT "script_paragraphs_speaker_id_fkey" FOREIGN KEY ("speaker_id") REFERENCES "script_speakers"("speaker_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_chapters" ADD CONSTRAINT "script_chapters_script_id_fkey" FOREIGN KEY ("script_id") REFERENCES "scripts"("script_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_speakers" ADD CONSTRAINT "script_speakers_script_id_fkey" FOREIGN KEY ("script_id") REFERENCES "scripts"("script_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_snapshots" ADD CONSTRAINT "script_snapshots_script_id_fkey" FOREIGN KEY ("script_id") REFERENCES "scripts"("script_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_edits" ADD CONSTRAINT "script_edits_script_id_fkey" FOREIGN KEY ("script_id") REFERENCES "scripts"("script_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_notes" ADD CONSTRAINT "script_notes_script_id_fkey" FOREIGN KEY ("script_id") REFERENCES "scripts"("script_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_sources" ADD CONSTRAINT "script_sources_script_id_fkey" FOREIGN KEY ("script_id") REFERENCES "scripts"("script_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_snippets" ADD CONSTRAINT "script_snippets_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "style_rules" ADD CONSTRAINT "style_rules_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
