// The prompt an agent runs with: its template rendered by a real template engine (Liquid, through
// liquidjs: `{{ name }}`, filters such as `{{ name | upcase }}`, `{% if %}` / `{% for %}`) with the
// call's variables, the caller's own words after it, and any context before it. A variable the
// template uses and the call left out is the caller's 422 naming every one missing, never a prompt
// with a hole in it. A template that does not parse is a 422 on the agent. Rendering is bounded
// (template length, render time, memory), so a template cannot hold the service up.
// Used by agents.execute, images.generate, image_agents.generate and app_screenshots.generate.
import { Liquid, LiquidError } from "liquidjs";
import { validationFailed, type ValidationIssue } from "../validation/issues.js";

const engine = new Liquid({
  strictVariables: true,
  strictFilters: true,
  // Objects and lists print as JSON, as the `{{name}}` placeholders always did; text as itself.
  outputEscape: (value: unknown) => (typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)),
  parseLimit: 100_000,
  renderLimit: 1_000,
  memoryLimit: 10_000_000,
});

export interface PromptParts {
  template: string | null;
  variables: Record<string, unknown>;
  customPrompt?: string;
  context?: string;
}

/** Does `path` (`user.name`) resolve in the variables? */
function resolves(variables: Record<string, unknown>, path: string): boolean {
  let value: unknown = variables;
  for (const segment of path.split(".")) {
    if (value === null || typeof value !== "object" || !Object.prototype.hasOwnProperty.call(value, segment)) return false;
    value = (value as Record<string, unknown>)[segment];
  }
  return true;
}

const missingIssue = (path: string): ValidationIssue => ({ path: `variables.${path}`, message: `The agent's prompt template uses {{ ${path} }}; send it in variables.`, type: "any.required" });

function templateError(error: unknown): never {
  const message = error instanceof Error ? error.message.split(", line:")[0] : "it does not parse";
  throw validationFailed([{ path: "agent_id", message: `The agent's prompt template cannot be used: ${message}. Fix agent_prompt_template.`, type: "any.invalid" }]);
}

/** The agent's template rendered with the variables; 422 naming every variable it lacks. */
export function renderTemplate(template: string, variables: Record<string, unknown>): string {
  let parsed: ReturnType<Liquid["parse"]>;
  let used: string[];
  try {
    parsed = engine.parse(template);
    used = engine.globalFullVariablesSync(parsed).map(String);
  } catch (error) {
    templateError(error);
  }
  const missing = [...new Set(used.filter((path) => !resolves(variables, path)).map((path) => (path in variables || resolves(variables, path.split(".")[0]!) ? path : path.split(".")[0]!)))];
  if (missing.length > 0) throw validationFailed(missing.map(missingIssue));
  try {
    return engine.renderSync(parsed, variables) as string;
  } catch (error) {
    const undefinedName = error instanceof LiquidError && /^undefined variable: ([^,]+)/.exec(error.message)?.[1];
    if (undefinedName) throw validationFailed([missingIssue(undefinedName)]);
    templateError(error);
  }
}

export function agentPrompt(parts: PromptParts): string {
  const filled = parts.template ? renderTemplate(parts.template, parts.variables) : "";
  const prompt = [parts.context?.trim(), filled.trim(), parts.customPrompt?.trim()].filter(Boolean).join("\n\n");
  if (!prompt) throw validationFailed([{ path: "custom_prompt", message: "The agent has no prompt template: send custom_prompt.", type: "any.required" }]);
  return prompt;
}
