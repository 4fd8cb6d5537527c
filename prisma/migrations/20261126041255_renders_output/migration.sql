-- AlterTable
ALTER TABLE "renders" ADD COLUMN     "output_key" TEXT,
ADD COLUMN     "output_size_bytes" INTEGER;

-- CreateTable
CREATE TABLE "service_settings" (
    "setting_key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_settings_pkey" PRIMARY KEY ("setting_key")
);
