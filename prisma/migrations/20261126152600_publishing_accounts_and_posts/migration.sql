-- AlterTable
ALTER TABLE "scheduled_posts" ADD COLUMN     "render_id" TEXT,
ADD COLUMN     "target_accounts" JSONB;

-- AlterTable
ALTER TABLE "social_accounts" ADD COLUMN     "credentials_encrypted" TEXT;

-- CreateIndex
CREATE INDEX "scheduled_posts_status_scheduled_at_idx" ON "scheduled_posts"("status", "scheduled_at");
