-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "credit_balance" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "previous_secret_hash" TEXT,
ADD COLUMN     "quota_limit" INTEGER,
ADD COLUMN     "quota_unit" TEXT,
ADD COLUMN     "rate_limits" JSONB;

-- AlterTable
ALTER TABLE "agent_executions" ALTER COLUMN "credits_consumed" SET DEFAULT 0,
ALTER COLUMN "credits_consumed" SET DATA TYPE INTEGER;

-- AlterTable
ALTER TABLE "flow_executions" ALTER COLUMN "total_credits_consumed" SET DEFAULT 0,
ALTER COLUMN "total_credits_consumed" SET DATA TYPE INTEGER;

-- AlterTable
ALTER TABLE "generations" ALTER COLUMN "credits_consumed" SET DEFAULT 0,
ALTER COLUMN "credits_consumed" SET DATA TYPE INTEGER;

-- AlterTable
ALTER TABLE "music_generations" ALTER COLUMN "credits_consumed" SET DEFAULT 0,
ALTER COLUMN "credits_consumed" SET DATA TYPE INTEGER;

-- AlterTable
ALTER TABLE "renders" ALTER COLUMN "credits_consumed" SET DEFAULT 0,
ALTER COLUMN "credits_consumed" SET DATA TYPE INTEGER;

-- AlterTable
ALTER TABLE "credit_transactions" ADD COLUMN     "request_id" TEXT,
ALTER COLUMN "amount" SET DATA TYPE INTEGER,
ALTER COLUMN "balance_after" SET DATA TYPE INTEGER;

-- AlterTable
ALTER TABLE "playground_generations" ALTER COLUMN "credits_consumed" SET DEFAULT 0,
ALTER COLUMN "credits_consumed" SET DATA TYPE INTEGER;

-- CreateTable
CREATE TABLE "request_logs" (
    "request_id" TEXT NOT NULL,
    "workspace_id" TEXT,
    "key_id" TEXT,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "duration_ms" DOUBLE PRECISION NOT NULL,
    "error_code" TEXT,
    "ip" TEXT,
    "user_agent" TEXT,
    "idempotent_replay" BOOLEAN NOT NULL DEFAULT false,
    "livemode" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "request_logs_pkey" PRIMARY KEY ("request_id")
);

-- CreateIndex
CREATE INDEX "request_logs_workspace_id_created_at_request_id_idx" ON "request_logs"("workspace_id", "created_at" DESC, "request_id" DESC);

-- CreateIndex
CREATE INDEX "request_logs_created_at_idx" ON "request_logs"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_previous_secret_hash_key" ON "api_keys"("previous_secret_hash");
