-- CreateTable
CREATE TABLE "idempotency_records" (
    "key_id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_headers" JSONB,
    "response_body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("key_id","key_hash")
);

-- CreateTable
CREATE TABLE "idempotency_steps" (
    "key_id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "result" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_steps_pkey" PRIMARY KEY ("key_id","key_hash","step")
);

-- CreateIndex
CREATE INDEX "idempotency_records_created_at_idx" ON "idempotency_records"("created_at");

-- AddForeignKey
ALTER TABLE "idempotency_steps" ADD CONSTRAINT "idempotency_steps_key_id_key_hash_fkey" FOREIGN KEY ("key_id", "key_hash") REFERENCES "idempotency_records"("key_id", "key_hash") ON DELETE CASCADE ON UPDATE CASCADE;
