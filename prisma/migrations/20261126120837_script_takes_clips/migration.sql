-- AlterTable
ALTER TABLE "script_paragraphs" ADD COLUMN     "chosen_clip_id" TEXT,
ADD COLUMN     "chosen_take_id" TEXT,
ADD COLUMN     "voice_ref" TEXT;

-- CreateTable
CREATE TABLE "script_takes" (
    "take_id" TEXT NOT NULL,
    "script_id" TEXT NOT NULL,
    "paragraph_id" TEXT NOT NULL,
    "voice_ref" TEXT NOT NULL,
    "voice_name" TEXT,
    "model" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "text_hash" TEXT NOT NULL,
    "spoken_text" TEXT NOT NULL,
    "words" JSONB NOT NULL,
    "words_source" TEXT NOT NULL,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "script_takes_pkey" PRIMARY KEY ("take_id")
);

-- CreateTable
CREATE TABLE "script_clips" (
    "clip_id" TEXT NOT NULL,
    "script_id" TEXT NOT NULL,
    "paragraph_id" TEXT NOT NULL,
    "take_id" TEXT NOT NULL,
    "face_url" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "operation_id" TEXT,
    "storage_key" TEXT,
    "duration_ms" INTEGER,
    "lip_synced" BOOLEAN,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "script_clips_pkey" PRIMARY KEY ("clip_id")
);

-- CreateIndex
CREATE INDEX "script_takes_paragraph_id_created_at_idx" ON "script_takes"("paragraph_id", "created_at");

-- CreateIndex
CREATE INDEX "script_takes_script_id_idx" ON "script_takes"("script_id");

-- CreateIndex
CREATE INDEX "script_clips_paragraph_id_created_at_idx" ON "script_clips"("paragraph_id", "created_at");

-- CreateIndex
CREATE INDEX "script_clips_script_id_idx" ON "script_clips"("script_id");

-- AddForeignKey
ALTER TABLE "script_takes" ADD CONSTRAINT "script_takes_script_id_fkey" FOREIGN KEY ("script_id") REFERENCES "scripts"("script_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_takes" ADD CONSTRAINT "script_takes_paragraph_id_fkey" FOREIGN KEY ("paragraph_id") REFERENCES "script_paragraphs"("paragraph_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_clips" ADD CONSTRAINT "script_clips_script_id_fkey" FOREIGN KEY ("script_id") REFERENCES "scripts"("script_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "script_clips" ADD CONSTRAINT "script_clips_paragraph_id_fkey" FOREIGN KEY ("paragraph_id") REFERENCES "script_paragraphs"("paragraph_id") ON DELETE CASCADE ON UPDATE CASCADE;
