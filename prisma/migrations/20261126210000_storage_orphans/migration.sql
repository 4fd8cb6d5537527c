-- Files of deleted takes and clips. A take or clip row can go by many paths (its script, its
-- paragraph — undo, restore, a rewrite — or itself), most of them cascades, so the row's own
-- trigger lists its storage key here in the deleting transaction; maintenance.prune deletes the
-- files once no link handed out can still point at them (src/scripts/file-orphans.ts). A key
-- listed again moves its orphaned_at, which the sweep checks before it forgets the key.
CREATE TABLE "storage_orphans" (
    "storage_key" TEXT NOT NULL,
    "orphaned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "storage_orphans_pkey" PRIMARY KEY ("storage_key")
);

CREATE INDEX "storage_orphans_orphaned_at_idx" ON "storage_orphans"("orphaned_at");

CREATE FUNCTION "storage_orphaned"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.storage_key IS NULL THEN
    RETURN OLD;
  END IF;
  -- A clip deleted by itself (scripts.delete_clip) keeps its file (contract section 3); one that
  -- went with its paragraph or its script does not. In those cascades the paragraph, or the script,
  -- is already gone when this runs (the cascade from a script may reach clips before paragraphs).
  IF TG_TABLE_NAME = 'script_clips'
     AND EXISTS (SELECT 1 FROM "script_paragraphs" WHERE "paragraph_id" = OLD.paragraph_id)
     AND EXISTS (SELECT 1 FROM "scripts" WHERE "script_id" = OLD.script_id) THEN
    RETURN OLD;
  END IF;
  INSERT INTO "storage_orphans" ("storage_key") VALUES (OLD.storage_key)
  ON CONFLICT ("storage_key") DO UPDATE SET "orphaned_at" = clock_timestamp();
  RETURN OLD;
END
$$;

CREATE TRIGGER "script_takes_storage_orphaned" AFTER DELETE ON "script_takes" FOR EACH ROW EXECUTE FUNCTION "storage_orphaned"();
CREATE TRIGGER "script_clips_storage_orphaned" AFTER DELETE ON "script_clips" FOR EACH ROW EXECUTE FUNCTION "storage_orphaned"();
