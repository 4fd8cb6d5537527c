-- CreateTable
CREATE TABLE "operations" (
    "operation_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "credits_held" INTEGER NOT NULL DEFAULT 0,
    "credits_spent" INTEGER NOT NULL DEFAULT 0,
    "action" TEXT,
    "key_id" TEXT,
    "request_id" TEXT,
    "input" JSONB,
    "checkpoint" JSONB,
    "result" JSONB,
    "error_code" TEXT,
    "error_message" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 2,
    "lease_owner" TEXT,
    "lease_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operations_pkey" PRIMARY KEY ("operation_id")
);

-- CreateTable
CREATE TABLE "action_call_results" (
    "workspace_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "input_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "action_call_results_pkey" PRIMARY KEY ("workspace_id","action","idempotency_key")
);

-- CreateIndex
CREATE INDEX "operations_status_lease_expires_at_idx" ON "operations"("status", "lease_expires_at");

-- CreateIndex
CREATE INDEX "operations_status_updated_at_idx" ON "operations"("status", "updated_at");

-- CreateIndex
CREATE INDEX "operations_kind_subject_id_idx" ON "operations"("kind", "subject_id");

-- CreateIndex
CREATE INDEX "operations_workspace_id_created_at_idx" ON "operations"("workspace_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "action_call_results_expires_at_idx" ON "action_call_results"("expires_at");

-- AddForeignKey
ALTER TABLE "operations" ADD CONSTRAINT "operations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "action_call_results" ADD CONSTRAINT "action_call_results_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
