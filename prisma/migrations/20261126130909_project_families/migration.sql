-- CreateTable
CREATE TABLE "app_screenshot_projects" (
    "project_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_name" TEXT NOT NULL,
    "global_prompt" TEXT,
    "global_references" JSONB NOT NULL DEFAULT '[]',
    "agent_id" TEXT,
    "screens" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_screenshot_projects_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "voice_projects" (
    "project_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_name" TEXT NOT NULL,
    "project_status" TEXT NOT NULL DEFAULT 'draft',
    "project_original_language" TEXT,
    "project_target_language" TEXT,
    "project_main_voice_details" JSONB,
    "original_text_value" TEXT,
    "original_text_last_edit" TIMESTAMPTZ(3),
    "text_segmented_value" JSONB,
    "translated_text_value" TEXT,
    "translated_text_last_edit" TIMESTAMPTZ(3),
    "project_published" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "voice_projects_pkey" PRIMARY KEY ("project_id")
);

-- CreateIndex
CREATE INDEX "app_screenshot_projects_workspace_id_created_at_project_id_idx" ON "app_screenshot_projects"("workspace_id", "created_at" DESC, "project_id" DESC);

-- CreateIndex
CREATE INDEX "app_screenshot_projects_agent_id_idx" ON "app_screenshot_projects"("agent_id");

-- CreateIndex
CREATE INDEX "voice_projects_workspace_id_created_at_project_id_idx" ON "voice_projects"("workspace_id", "created_at" DESC, "project_id" DESC);

-- AddForeignKey
ALTER TABLE "app_screenshot_projects" ADD CONSTRAINT "app_screenshot_projects_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_screenshot_projects" ADD CONSTRAINT "app_screenshot_projects_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("agent_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "voice_projects" ADD CONSTRAINT "voice_projects_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("workspace_id") ON DELETE CASCADE ON UPDATE CASCADE;
