-- CreateTable
CREATE TABLE "workspaces" (
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("workspace_id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "key_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT,
    "mode" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "key_last4" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "scopes" TEXT[],
    "ip_allowlist" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "origin_allowlist" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "expires_at" TIMESTAMPTZ(3),
    "paused_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_by_key_id" TEXT,
    "purpose" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("key_id")
);

-- CreateTable
CREATE TABLE "videos" (
    "video_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "video_name" TEXT,
    "video_text_publication" TEXT,
    "video_comment" TEXT,
    "video_ready_to_be_processed" BOOLEAN NOT NULL DEFAULT false,
    "published" BOOLEAN NOT NULL DEFAULT false,
    "platform_published" JSONB,
    "video_template" JSONB,
    "video_format" TEXT NOT NULL DEFAULT 'landscape',
    "voice_settings" JSONB,
    "config_avatars" JSONB,
    "config" JSONB,
    "video_json" JSONB,
    "video_user_id" TEXT,
    "video_keyword" TEXT,
    "video_created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "video_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "video_music" JSONB,
    "video_last_audios_edition" TIMESTAMPTZ(3),
    "video_type_id" TEXT,
    "video_script" TEXT,
    "video_sub_type_id" TEXT,
    "video_lang" TEXT,
    "creation_mode" TEXT,
    "studio_origin" TEXT,
    "studio_state" JSONB,
    "studio_setup" JSONB,
    "duplicate" JSONB,
    "video_files_storage_provider" TEXT,
    "video_captions" JSONB,
    "web_infos" JSONB,
    "precise_edit_config" JSONB,
    "composition" JSONB,
    "blocks" JSONB,
    "groups" JSONB,
    "voice_settings_map" JSONB,
    "template_type" TEXT,
    "video_type" TEXT,
    "smart_groups" JSONB,
    "faceless_scenes" JSONB,
    "faceless_script" JSONB,
    "faceless_voice_settings" JSONB,
    "faceless_ai_model" TEXT,
    "faceless_image_agent" TEXT,
    "faceless_image_settings" JSONB,
    "faceless_video_agent" TEXT,
    "faceless_language" TEXT,
    "faceless_style" TEXT,
    "faceless_target_duration" DOUBLE PRECISION,
    "faceless_story_prompt" TEXT,
    "faceless_dialogue_prompt" TEXT,
    "faceless_script_prompt_image" TEXT,
    "faceless_script_prompt_video" TEXT,
    "faceless_status" TEXT,
    "faceless_metadata" JSONB,
    "faceless_output_url" TEXT,
    "faceless_thumbnail_url" TEXT,
    "faceless_scene_groups" JSONB,
    "faceless_scene_types" JSONB,
    "faceless_general_prompt" TEXT,
    "faceless_detected_characters" JSONB,
    "faceless_character_style_prompt" TEXT,
    "faceless_selected_characters" JSONB,
    "faceless_template" JSONB,

    CONSTRAINT "videos_pkey" PRIMARY KEY ("video_id")
);

-- CreateTable
CREATE TABLE "folders" (
    "folder_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "folder_name" TEXT NOT NULL,
    "folder_scope" TEXT NOT NULL DEFAULT 'video',
    "folder_color" TEXT,
    "folder_order" INTEGER NOT NULL DEFAULT 0,
    "folder_created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "folder_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "folders_pkey" PRIMARY KEY ("folder_id")
);

-- CreateTable
CREATE TABLE "video_folders" (
    "video_id" TEXT NOT NULL,
    "folder_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "video_folders_pkey" PRIMARY KEY ("video_id","folder_id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "event_id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "data" JSONB NOT NULL,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatched_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys"("secret_hash");

-- CreateIndex
CREATE INDEX "api_keys_workspace_id_idx" ON "api_keys"("workspace_id");

-- CreateIndex
CREATE INDEX "videos_workspace_id_video_created_at_video_id_idx" ON "videos"("workspace_id", "video_created_at" DESC, "video_id" DESC);

-- CreateIndex
CREATE INDEX "folders_workspace_id_folder_created_at_folder_id_idx" ON "folders"("workspace_id", "folder_created_at" DESC, "folder_id" DESC);

-- CreateIndex
CREATE INDEX "video_folders_folder_id_idx" ON "video_folders"("folder_id");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_events_seq_key" ON "outbox_events"("seq");

-- CreateIndex
CREATE INDEX "outbox_events_workspace_id_created_at_idx" ON "outbox_events"("workspace_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "outbox_events_dispatched_at_seq_idx" ON "outbox_events"("dispatched_at", "seq");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "videos" ADD CONSTRAINT "videos_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folders" ADD CONSTRAINT "folders_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "video_folders" ADD CONSTRAINT "video_folders_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "videos"("video_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "video_folders" ADD CONSTRAINT "video_folders_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "folders"("folder_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
