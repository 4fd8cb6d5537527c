// App-screenshot projects (catalog 4.7: app_screenshots.list / create / update / delete).
//
// A project holds what every store screenshot of an app shares: a global prompt, global
// references (http(s) URLs, stored as given: nothing is fetched until a generate step reads them)
// and, optionally, the image agent that draws them (an image agent of the same workspace; deleting
// the agent clears it). Its screens are a strict, bounded list of {screen_id, title, prompt,
// references}; update replaces the whole list, keeping the id of every screen sent with its
// screen_id and giving new screens one. Not a contract resource, so the actions are its whole API,
// and the contract lists no record events for it: the actions emit only action.completed.
// app_screenshots.generate draws one store screenshot of a screen (screenshot.ts).
// docs/generation.md has the rules.
import { z } from "zod";
import { id, name, text, url } from "../actions/catalog/define.js";
import type { AppScreenshotProject } from "../generated/prisma/client.js";
import { newId } from "../ids.js";
import type { OwnedTarget } from "../resources/service.js";
import { validationFailed, type ValidationIssue } from "../validation/issues.js";

export const MAX_SCREENS = 20;
export const MAX_GLOBAL_REFERENCES = 10;
export const MAX_SCREEN_REFERENCES = 5;
export const SCREEN_PROMPT_TEXT = 5_000;

export const appScreenshotProjects: OwnedTarget = { model: "AppScreenshotProject", kind: "app_screenshot_project", idField: "project_id" };

export const screenInput = z.strictObject({
  screen_id: id().optional().describe("Keeps an existing screen's id; leave out for a new screen."),
  title: name(),
  prompt: text(SCREEN_PROMPT_TEXT).optional(),
  references: z.array(url()).max(MAX_SCREEN_REFERENCES).optional(),
});

export const screensInput = () => z.array(screenInput).max(MAX_SCREENS);
export const globalReferencesInput = () => z.array(url()).max(MAX_GLOBAL_REFERENCES);

const screen = z
  .object({
    screen_id: z.string(),
    title: z.string(),
    prompt: z.string().describe("What this screen shows, added to the project's global prompt (may be empty)."),
    references: z.array(z.string()).describe("Reference image URLs of this screen, stored as given."),
  })
  .meta({ id: "AppScreen", description: "One screen of an app-screenshot project." });

type Screen = z.output<typeof screen>;

export const projectRecord = z
  .object({
    object: z.literal("app_screenshot_project"),
    project_id: z.string(),
    project_name: z.string(),
    global_prompt: z.string().nullable(),
    global_references: z.array(z.string()).describe("Reference image URLs shared by every screen, stored as given."),
    agent_id: z.string().nullable().describe("The image agent that draws the screens; null when none is set."),
    screens: z.array(screen),
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: "AppScreenshotProject", description: "An app-screenshot project: a global prompt and references, an image agent and its screens." });

export function presentProject(row: AppScreenshotProject): z.input<typeof projectRecord> {
  return {
    object: "app_screenshot_project",
    project_id: row.project_id,
    project_name: row.project_name,
    global_prompt: row.global_prompt,
    global_references: row.global_references as string[],
    agent_id: row.agent_id,
    screens: row.screens as Screen[],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * The stored screens for a replacement list: a screen sent with a screen_id must be one of the
 * project's screens (and appear once); a screen without one gets a new id.
 */
export function nextScreens(current: readonly Screen[], sent: readonly z.output<typeof screenInput>[]): Screen[] {
  const known = new Set(current.map((item) => item.screen_id));
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  sent.forEach((item, index) => {
    if (item.screen_id === undefined) return;
    if (!known.has(item.screen_id)) {
      issues.push({ path: `screens.${index}.screen_id`, message: `No screen '${item.screen_id}' in this project; leave screen_id out for a new screen.`, type: "any.invalid" });
    } else if (seen.has(item.screen_id)) {
      issues.push({ path: `screens.${index}.screen_id`, message: `The screen '${item.screen_id}' is listed twice.`, type: "array.unique" });
    }
    seen.add(item.screen_id);
  });
  if (issues.length > 0) throw validationFailed(issues);
  return sent.map((item) => ({ screen_id: item.screen_id ?? newId("app_screen"), title: item.title, prompt: item.prompt ?? "", references: item.references ?? [] }));
}
