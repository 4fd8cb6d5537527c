-- AlterTable
ALTER TABLE "renders" ADD COLUMN     "segment_hashes" JSONB,
ADD COLUMN     "segments" JSONB;
