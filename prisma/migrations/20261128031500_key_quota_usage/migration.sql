-- Monthly quota counts, durable: a quota is money, so its count lives in PostgreSQL, not in Redis
-- (whose data may be lost, which would grant a fresh month). One row per key and calendar month
-- (UTC), counted by a conditional upsert that never passes the ceiling (src/guards/quota.ts).
CREATE TABLE "key_quota_usage" (
    "key_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_quota_usage_pkey" PRIMARY KEY ("key_id","period")
);
