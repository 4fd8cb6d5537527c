-- AlterTable
ALTER TABLE "script_edits" ADD COLUMN     "undoes_edit_id" TEXT;
