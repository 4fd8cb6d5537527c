// The story a faceless video narrates, written by the text model with structured output: shared by
// faceless.generate_story (answered) and videos.launch_flow's pipeline (split into scenes).
import { z } from "zod";
import type { ProviderAccess } from "../providers/recording.js";

/** Words a narrator speaks per second, to size the script to a target duration. */
const WORDS_PER_SECOND = 2.5;
export const DEFAULT_STORY_SECONDS = 60;

const storyShape = z.object({
  title: z.string().min(1).max(200).describe("The video's title."),
  logline: z.string().max(500).describe("The story in one sentence."),
  paragraphs: z.array(z.string().min(1).max(2_000)).min(1).max(30).describe("The narration, one paragraph per scene."),
});

export interface Story {
  title: string;
  logline: string;
  /** Paragraphs separated by a blank line: faceless.parse_script's input. */
  script: string;
}

export async function writeStory(providers: ProviderAccess, brief: { prompt: string; language: string; seconds: number; keywords?: string }, signal?: AbortSignal): Promise<Story> {
  const words = Math.round(brief.seconds * WORDS_PER_SECOND);
  const answer = await providers.get("text").generateObject(
    {
      system: "You write narrations for faceless videos: a voice over visuals, no on-screen speaker. Short spoken sentences, one paragraph per scene, each scene a picture the viewer can see. No headings, no stage directions.",
      prompt: [
        `Story: ${brief.prompt}`,
        brief.keywords ? `Work in: ${brief.keywords}` : undefined,
        `Language: ${brief.language}`,
        `Length: about ${words} words (${brief.seconds} seconds spoken)`,
        `Scenes: about ${Math.max(1, Math.min(30, Math.round(brief.seconds / 8)))}`,
      ].filter(Boolean).join("\n"),
      schema: storyShape,
      schemaName: "faceless_story",
    },
    { signal },
  );
  const paragraphs = answer.object.paragraphs.map((paragraph) => paragraph.replace(/\s+/gu, " ").trim()).filter(Boolean);
  return { title: answer.object.title.trim(), logline: answer.object.logline.trim(), script: paragraphs.join("\n\n") };
}
