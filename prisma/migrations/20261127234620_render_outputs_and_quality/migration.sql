-- AlterTable
ALTER TABLE "renders" ADD COLUMN     "output_format" TEXT,
ADD COLUMN     "output_keys" JSONB,
ADD COLUMN     "outputs" JSONB,
ADD COLUMN     "quality" JSONB;
