-- CreateTable
CREATE TABLE "scripts" (
    "script_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "title" TEXT,
    "topic" TEXT,
    "language" TEXT,
    "format" TEXT,
    "structure" TEXT,
    "tone" TEXT,
    "audience" TEXT,
    "target_duration_ms" INTEGER,
    "model_ref" TEXT,
    "default_voice_ref" TEXT,
    "word_count" INTEGER NOT NULL DEFAULT 0,
    "video_id" TEXT,
    "speakers" JSONB,
    "paragraphs" JSONB,
    "snapshots" JSONB,
    "research" JSONB,
    "review_notes" JSONB,
    "sources" JSONB,
    "chapters" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scripts_pkey" PRIMARY KEY ("script_id")
);

-- CreateTable
CREATE TABLE "assets" (
    "_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "provider_file_name" TEXT NOT NULL,
    "provider_file_id" TEXT,
    "provider_file_url" TEXT NOT NULL,
    "file_mime_type" TEXT,
    "file_size_bytes" DOUBLE PRECISION,
    "sync_method" TEXT NOT NULL DEFAULT 'upload',
    "thumbnail_url" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "duration_seconds" DOUBLE PRECISION,
    "metadata" JSONB,
    "provider_date_time_uploaded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assets_pkey" PRIMARY KEY ("_id")
);

-- CreateTable
CREATE TABLE "characters" (
    "character_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "character_name" TEXT NOT NULL,
    "character_description" TEXT,
    "visual_prompt" TEXT,
    "reference_image_url" TEXT,
    "voice_ref" TEXT,
    "voice_settings" JSONB,
    "media" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "characters_pkey" PRIMARY KEY ("character_id")
);

-- CreateTable
CREATE TABLE "character_tags" (
    "tag_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "tag_name" TEXT NOT NULL,
    "tag_color" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "character_tags_pkey" PRIMARY KEY ("tag_id")
);

-- CreateTable
CREATE TABLE "character_tag_links" (
    "character_id" TEXT NOT NULL,
    "tag_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "character_tag_links_pkey" PRIMARY KEY ("character_id","tag_id")
);

-- CreateTable
CREATE TABLE "agents" (
    "agent_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "agent_name" TEXT NOT NULL,
    "agent_description" TEXT,
    "agent_type" TEXT NOT NULL DEFAULT 'image',
    "agent_model" TEXT,
    "agent_prompt_template" TEXT,
    "agent_settings" JSONB,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agents_pkey" PRIMARY KEY ("agent_id")
);

-- CreateTable
CREATE TABLE "agent_executions" (
    "execution_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "prompt_used" TEXT,
    "credits_consumed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error_message" TEXT,
    "result" JSONB,
    "variables_used" JSONB,
    "execution_metadata" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_executions_pkey" PRIMARY KEY ("execution_id")
);

-- CreateTable
CREATE TABLE "flows" (
    "flow_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "is_template" BOOLEAN NOT NULL DEFAULT false,
    "is_public" BOOLEAN NOT NULL DEFAULT false,
    "template_category" TEXT,
    "variables" JSONB,
    "nodes" JSONB,
    "edges" JSONB,
    "usage_count" INTEGER NOT NULL DEFAULT 0,
    "last_executed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "flows_pkey" PRIMARY KEY ("flow_id")
);

-- CreateTable
CREATE TABLE "flow_executions" (
    "execution_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "flow_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "total_credits_consumed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error_message" TEXT,
    "node_states" JSONB,
    "context" JSONB,
    "input_variables" JSONB,
    "execution_path" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "flow_executions_pkey" PRIMARY KEY ("execution_id")
);

-- CreateTable
CREATE TABLE "slideshows" (
    "slideshow_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "slideshow_name" TEXT NOT NULL,
    "slideshow_status" TEXT NOT NULL DEFAULT 'draft',
    "slideshow_format" TEXT NOT NULL DEFAULT 'portrait',
    "character_id" TEXT,
    "settings" JSONB,
    "slides" JSONB,
    "export_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "slideshows_pkey" PRIMARY KEY ("slideshow_id")
);

-- CreateTable
CREATE TABLE "templates" (
    "template_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "category" TEXT,
    "sub_category" TEXT,
    "is_public" BOOLEAN NOT NULL DEFAULT false,
    "video_format" TEXT,
    "thumbnail_url" TEXT,
    "template_data" JSONB,
    "blocks" JSONB,
    "composition" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "templates_pkey" PRIMARY KEY ("template_id")
);

-- CreateTable
CREATE TABLE "video_styles" (
    "style_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "category" TEXT,
    "is_public" BOOLEAN NOT NULL DEFAULT false,
    "thumbnail_url" TEXT,
    "style_data" JSONB,
    "layer_styles" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "video_styles_pkey" PRIMARY KEY ("style_id")
);

-- CreateTable
CREATE TABLE "smart_group_configs" (
    "config_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "type" TEXT NOT NULL,
    "base_type" TEXT,
    "category" TEXT,
    "definition" JSONB,
    "layer_mappings" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "smart_group_configs_pkey" PRIMARY KEY ("config_id")
);

-- CreateTable
CREATE TABLE "custom_video_types" (
    "config_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "type" TEXT,
    "is_public" BOOLEAN NOT NULL DEFAULT false,
    "config" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "custom_video_types_pkey" PRIMARY KEY ("config_id")
);

-- CreateTable
CREATE TABLE "generations" (
    "generation_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "agent_type" TEXT,
    "agent_model" TEXT,
    "agent_id" TEXT,
    "folder_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "prompt" TEXT,
    "credits_consumed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "output_urls" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "thumbnail_url" TEXT,
    "error_message" TEXT,
    "generation_metadata" JSONB,
    "variables" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "generations_pkey" PRIMARY KEY ("generation_id")
);

-- CreateTable
CREATE TABLE "music_generations" (
    "generation_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "provider" TEXT,
    "model_id" TEXT,
    "title" TEXT,
    "prompt" TEXT,
    "lyrics" TEXT,
    "style" TEXT,
    "instrumental" BOOLEAN NOT NULL DEFAULT false,
    "credits_consumed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error_message" TEXT,
    "tracks" JSONB,
    "request" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "music_generations_pkey" PRIMARY KEY ("generation_id")
);

-- CreateTable
CREATE TABLE "scheduled_posts" (
    "_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "video_id" TEXT,
    "account_id" TEXT,
    "platform" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'scheduled',
    "scheduled_at" TIMESTAMPTZ(3) NOT NULL,
    "title" TEXT,
    "caption" TEXT,
    "options" JSONB,
    "published_at" TIMESTAMPTZ(3),
    "platform_post_url" TEXT,
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scheduled_posts_pkey" PRIMARY KEY ("_id")
);

-- CreateTable
CREATE TABLE "social_accounts" (
    "_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'connected',
    "account_name" TEXT,
    "platform_account_id" TEXT,
    "avatar_url" TEXT,
    "platform_metadata" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "social_accounts_pkey" PRIMARY KEY ("_id")
);

-- CreateTable
CREATE TABLE "renders" (
    "render_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "video_id" TEXT,
    "video_type_id" TEXT,
    "video_format" TEXT,
    "render_status" TEXT NOT NULL DEFAULT 'queued',
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "output_url" TEXT,
    "thumbnail_url" TEXT,
    "duration_seconds" DOUBLE PRECISION,
    "credits_consumed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error_message" TEXT,
    "render_creation_date" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "render_started_at" TIMESTAMPTZ(3),
    "render_completed_at" TIMESTAMPTZ(3),
    "render_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "renders_pkey" PRIMARY KEY ("render_id")
);

-- CreateTable
CREATE TABLE "backgrounds" (
    "background_ref" TEXT NOT NULL,
    "workspace_id" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'image',
    "orientation" TEXT NOT NULL DEFAULT 'portrait',
    "category" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "is_loop" BOOLEAN NOT NULL DEFAULT false,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "media_url" TEXT NOT NULL,
    "thumbnail_url" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "duration_seconds" DOUBLE PRECISION,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "backgrounds_pkey" PRIMARY KEY ("background_ref")
);

-- CreateTable
CREATE TABLE "voices" (
    "voice_ref" TEXT NOT NULL,
    "workspace_id" TEXT,
    "display_name" TEXT NOT NULL,
    "description" TEXT,
    "provider" TEXT NOT NULL,
    "provider_voice_id" TEXT,
    "scope" TEXT NOT NULL DEFAULT 'global',
    "kind" TEXT NOT NULL DEFAULT 'premade',
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "labels" JSONB,
    "connection_id" TEXT,
    "preview_url" TEXT,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "provider_meta" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "voices_pkey" PRIMARY KEY ("voice_ref")
);

-- CreateTable
CREATE TABLE "credit_transactions" (
    "_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "action_type" TEXT NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "balance_after" DOUBLE PRECISION NOT NULL,
    "description" TEXT,
    "reference_id" TEXT,
    "key_id" TEXT,
    "metadata" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_transactions_pkey" PRIMARY KEY ("_id")
);

-- CreateTable
CREATE TABLE "playground_generations" (
    "_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "folder_id" TEXT,
    "generation_type" TEXT NOT NULL DEFAULT 'image',
    "generation_category" TEXT,
    "status" TEXT NOT NULL DEFAULT 'completed',
    "prompt" TEXT,
    "title" TEXT,
    "is_favorite" BOOLEAN NOT NULL DEFAULT false,
    "media_url" TEXT,
    "thumbnail_url" TEXT,
    "credits_consumed" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "input_params" JSONB,
    "result_data" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "playground_generations_pkey" PRIMARY KEY ("_id")
);

-- CreateIndex
CREATE INDEX "scripts_workspace_id_created_at_script_id_idx" ON "scripts"("workspace_id", "created_at" DESC, "script_id" DESC);

-- CreateIndex
CREATE INDEX "scripts_video_id_idx" ON "scripts"("video_id");

-- CreateIndex
CREATE INDEX "assets_workspace_id_provider_date_time_uploaded__id_idx" ON "assets"("workspace_id", "provider_date_time_uploaded" DESC, "_id" DESC);

-- CreateIndex
CREATE INDEX "characters_workspace_id_created_at_character_id_idx" ON "characters"("workspace_id", "created_at" DESC, "character_id" DESC);

-- CreateIndex
CREATE INDEX "character_tags_workspace_id_created_at_tag_id_idx" ON "character_tags"("workspace_id", "created_at" DESC, "tag_id" DESC);

-- CreateIndex
CREATE INDEX "character_tag_links_tag_id_idx" ON "character_tag_links"("tag_id");

-- CreateIndex
CREATE INDEX "agents_workspace_id_created_at_agent_id_idx" ON "agents"("workspace_id", "created_at" DESC, "agent_id" DESC);

-- CreateIndex
CREATE INDEX "agent_executions_workspace_id_created_at_execution_id_idx" ON "agent_executions"("workspace_id", "created_at" DESC, "execution_id" DESC);

-- CreateIndex
CREATE INDEX "agent_executions_agent_id_idx" ON "agent_executions"("agent_id");

-- CreateIndex
CREATE INDEX "flows_workspace_id_created_at_flow_id_idx" ON "flows"("workspace_id", "created_at" DESC, "flow_id" DESC);

-- CreateIndex
CREATE INDEX "flow_executions_workspace_id_created_at_execution_id_idx" ON "flow_executions"("workspace_id", "created_at" DESC, "execution_id" DESC);

-- CreateIndex
CREATE INDEX "flow_executions_flow_id_idx" ON "flow_executions"("flow_id");

-- CreateIndex
CREATE INDEX "slideshows_workspace_id_created_at_slideshow_id_idx" ON "slideshows"("workspace_id", "created_at" DESC, "slideshow_id" DESC);

-- CreateIndex
CREATE INDEX "slideshows_character_id_idx" ON "slideshows"("character_id");

-- CreateIndex
CREATE INDEX "templates_workspace_id_created_at_template_id_idx" ON "templates"("workspace_id", "created_at" DESC, "template_id" DESC);

-- CreateIndex
CREATE INDEX "video_styles_workspace_id_created_at_style_id_idx" ON "video_styles"("workspace_id", "created_at" DESC, "style_id" DESC);

-- CreateIndex
CREATE INDEX "smart_group_configs_workspace_id_created_at_config_id_idx" ON "smart_group_configs"("workspace_id", "created_at" DESC, "config_id" DESC);

-- CreateIndex
CREATE INDEX "custom_video_types_workspace_id_created_at_config_id_idx" ON "custom_video_types"("workspace_id", "created_at" DESC, "config_id" DESC);

-- CreateIndex
CREATE INDEX "generations_workspace_id_created_at_generation_id_idx" ON "generations"("workspace_id", "created_at" DESC, "generation_id" DESC);

-- CreateIndex
CREATE INDEX "generations_agent_id_idx" ON "generations"("agent_id");

-- CreateIndex
CREATE INDEX "generations_folder_id_idx" ON "generations"("folder_id");

-- CreateIndex
CREATE INDEX "music_generations_workspace_id_created_at_generation_id_idx" ON "music_generations"("workspace_id", "created_at" DESC, "generation_id" DESC);

-- CreateIndex
CREATE INDEX "scheduled_posts_workspace_id_created_at__id_idx" ON "scheduled_posts"("workspace_id", "created_at" DESC, "_id" DESC);

-- CreateIndex
CREATE INDEX "scheduled_posts_video_id_idx" ON "scheduled_posts"("video_id");

-- CreateIndex
CREATE INDEX "scheduled_posts_account_id_idx" ON "scheduled_posts"("account_id");

-- CreateIndex
CREATE INDEX "social_accounts_workspace_id_created_at__id_idx" ON "social_accounts"("workspace_id", "created_at" DESC, "_id" DESC);

-- CreateIndex
CREATE INDEX "renders_workspace_id_render_creation_date_render_id_idx" ON "renders"("workspace_id", "render_creation_date" DESC, "render_id" DESC);

-- CreateIndex
CREATE INDEX "renders_video_id_idx" ON "renders"("video_id");

-- CreateIndex
CREATE INDEX "backgrounds_workspace_id_created_at_background_ref_idx" ON "backgrounds"("workspace_id", "created_at" DESC, "background_ref" DESC);

-- CreateIndex
CREATE INDEX "voices_workspace_id_created_at_voice_ref_idx" ON "voices"("workspace_id", "created_at" DESC, "voice_ref" DESC);

-- CreateIndex
CREATE INDEX "credit_transactions_workspace_id_created_at__id_idx" ON "credit_transactions"("workspace_id", "created_at" DESC, "_id" DESC);

-- CreateIndex
CREATE INDEX "playground_generations_workspace_id_created_at__id_idx" ON "playground_generations"("workspace_id", "created_at" DESC, "_id" DESC);

-- CreateIndex
CREATE INDEX "playground_generations_folder_id_idx" ON "playground_generations"("folder_id");

-- AddForeignKey
ALTER TABLE "scripts" ADD CONSTRAINT "scripts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scripts" ADD CONSTRAINT "scripts_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "videos"("video_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assets" ADD CONSTRAINT "assets_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "characters" ADD CONSTRAINT "characters_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "character_tags" ADD CONSTRAINT "character_tags_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "character_tag_links" ADD CONSTRAINT "character_tag_links_character_id_fkey" FOREIGN KEY ("character_id") REFERENCES "characters"("character_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "character_tag_links" ADD CONSTRAINT "character_tag_links_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "character_tags"("tag_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agents" ADD CONSTRAINT "agents_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_executions" ADD CONSTRAINT "agent_executions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_executions" ADD CONSTRAINT "agent_executions_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("agent_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flows" ADD CONSTRAINT "flows_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_executions" ADD CONSTRAINT "flow_executions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_executions" ADD CONSTRAINT "flow_executions_flow_id_fkey" FOREIGN KEY ("flow_id") REFERENCES "flows"("flow_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "slideshows" ADD CONSTRAINT "slideshows_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "slideshows" ADD CONSTRAINT "slideshows_character_id_fkey" FOREIGN KEY ("character_id") REFERENCES "characters"("character_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "templates" ADD CONSTRAINT "templates_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "video_styles" ADD CONSTRAINT "video_styles_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "smart_group_configs" ADD CONSTRAINT "smart_group_configs_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_video_types" ADD CONSTRAINT "custom_video_types_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generations" ADD CONSTRAINT "generations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generations" ADD CONSTRAINT "generations_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("agent_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generations" ADD CONSTRAINT "generations_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "folders"("folder_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "music_generations" ADD CONSTRAINT "music_generations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduled_posts" ADD CONSTRAINT "scheduled_posts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduled_posts" ADD CONSTRAINT "scheduled_posts_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "videos"("video_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduled_posts" ADD CONSTRAINT "scheduled_posts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "social_accounts"("_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "social_accounts" ADD CONSTRAINT "social_accounts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "renders" ADD CONSTRAINT "renders_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "renders" ADD CONSTRAINT "renders_video_id_fkey" FOREIGN KEY ("video_id") REFERENCES "videos"("video_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "backgrounds" ADD CONSTRAINT "backgrounds_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "voices" ADD CONSTRAINT "voices_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_transactions" ADD CONSTRAINT "credit_transactions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "playground_generations" ADD CONSTRAINT "playground_generations_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "playground_generations" ADD CONSTRAINT "playground_generations_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "folders"("folder_id") ON DELETE SET NULL ON UPDATE CASCADE;
