// One store screenshot of an app-screenshot project's screen (app_screenshots.generate): the sizes
// the stores ask for, the prompt a screen is drawn from, and the exact-size finish. Image models
// draw a few fixed shapes, so the image is drawn at the model size nearest the store size's shape
// and then scaled and centre-cropped with sharp to the exact pixels asked; sharp reads the result
// back and anything but those pixels is refused.
import sharp from "sharp";
import type { AppScreenshotProject } from "../generated/prisma/client.js";
import type { GraphQLContext } from "../graphql/context.js";
import { agentPrompt } from "../agents/index.js";
import { loadOwned } from "../resources/service.js";
import { validationFailed } from "../validation/issues.js";
import { agents } from "../agents/index.js";
import { IMAGE_AGENT_TYPE } from "../image_agents/index.js";
import { appScreenshotProjects } from "./projects.js";

/** Store screenshot sizes by name (App Store Connect and Google Play), portrait. */
export const STORE_SIZES: Readonly<Record<string, { width: number; height: number }>> = {
  iphone_6_9: { width: 1320, height: 2868 },
  iphone_6_7: { width: 1290, height: 2796 },
  iphone_6_5: { width: 1242, height: 2688 },
  iphone_5_5: { width: 1242, height: 2208 },
  ipad_13: { width: 2064, height: 2752 },
  ipad_12_9: { width: 2048, height: 2732 },
  android_phone: { width: 1080, height: 1920 },
  android_tablet: { width: 1600, height: 2560 },
};
export const DEFAULT_SIZE = "iphone_6_7";
/** A `WIDTHxHEIGHT` of its own: each side 320 to 3840 pixels, the longer at most twice the shorter (Google Play's rule). */
const MIN_SIDE = 320;
const MAX_SIDE = 3840;
export const QUALITIES = ["auto", "low", "medium", "high"] as const;

export interface Pixels {
  width: number;
  height: number;
}

/** The pixels a `size` asks for: a store size's name or WIDTHxHEIGHT; 422 otherwise. */
export function storeSize(size: string | undefined): Pixels & { name: string } {
  const name = size ?? DEFAULT_SIZE;
  const named = STORE_SIZES[name];
  if (named) return { ...named, name };
  const match = /^(\d{3,4})x(\d{3,4})$/.exec(name);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  const fits = match && [width, height].every((side) => side >= MIN_SIDE && side <= MAX_SIDE) && Math.max(width, height) <= 2 * Math.min(width, height);
  if (!fits) {
    const allowed = Object.keys(STORE_SIZES);
    throw validationFailed([{ path: "size", message: `Use a store size (${allowed.join(", ")}) or WIDTHxHEIGHT with sides of ${MIN_SIDE} to ${MAX_SIDE} pixels, the longer at most twice the shorter.`, type: "any.only", allowed }]);
  }
  return { width, height, name };
}

/** The model size nearest the shape asked: portrait, landscape or square. */
export function drawSize({ width, height }: Pixels): string {
  const ratio = width / height;
  if (ratio < 0.85) return "1024x1536";
  if (ratio > 1.18) return "1536x1024";
  return "1024x1024";
}

/** Scales and centre-crops to the exact pixels, as PNG; refused unless sharp reads those pixels back. */
export async function exactSize(data: Uint8Array, target: Pixels): Promise<{ data: Uint8Array; width: number; height: number }> {
  const png = await sharp(data).resize(target.width, target.height, { fit: "cover", position: "centre" }).png().toBuffer();
  const read = await sharp(png).metadata();
  if (read.width !== target.width || read.height !== target.height) throw new Error(`The screenshot came out ${read.width}x${read.height}, not ${target.width}x${target.height}.`);
  return { data: new Uint8Array(png), width: target.width, height: target.height };
}

export interface ScreenPlan {
  project: AppScreenshotProject;
  screen: { screen_id: string; title: string; prompt: string; references: string[] };
  agentId: string | null;
  prompt: string;
  references: string[];
}

/**
 * The project, the screen and the prompt: the project's image agent's template (if it has one),
 * rendered with the screen's variables (`screen_title`, `screen_prompt`, `project_name`,
 * `global_prompt`), after the global prompt, then the screen's own words. References: the
 * project's global ones, then the screen's.
 */
export async function planScreen(graphql: GraphQLContext, input: { project_id: string; screen_id: string }): Promise<ScreenPlan> {
  const project = (await loadOwned(graphql.prisma, graphql, appScreenshotProjects, input.project_id, {}, "read")) as unknown as AppScreenshotProject;
  const screens = project.screens as unknown as ScreenPlan["screen"][];
  const screen = screens.find((candidate) => candidate.screen_id === input.screen_id);
  if (!screen) throw validationFailed([{ path: "screen_id", message: `No screen '${input.screen_id}' in this project.`, type: "any.invalid" }]);
  let template: string | null = null;
  if (project.agent_id) {
    const agent = await loadOwned(graphql.prisma, graphql, agents, project.agent_id, { select: { agent_type: true, agent_prompt_template: true } }, "read");
    if (agent.agent_type === IMAGE_AGENT_TYPE) template = agent.agent_prompt_template as string | null;
  }
  const variables = { screen_title: screen.title, screen_prompt: screen.prompt, project_name: project.project_name, global_prompt: project.global_prompt ?? "" };
  const screenWords = [`App store screenshot of the screen "${screen.title}".`, screen.prompt].filter(Boolean).join(" ");
  const prompt = agentPrompt({ template, variables, context: project.global_prompt ?? undefined, customPrompt: screenWords });
  return { project, screen, agentId: project.agent_id, prompt, references: [...(project.global_references as string[]), ...screen.references] };
}
