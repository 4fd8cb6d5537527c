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
  lenientIf: true,
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

const missingIssue = (path: string): ValidationIssue => ({ path: `variables.${path}`, message: `The agent's prompt template uses {{ ${path} }}; send it in variables.`, type: "any.required" });

function templateError(error: unknown): never {
  const message = error instanceof Error ? error.message.split(", line:")[0] : "it does not parse";
  throw validationFailed([{ path: "agent_id", message: `The agent's prompt template cannot be used: ${message}. Fix agent_prompt_template.`, type: "any.invalid" }]);
}

/** A stand-in value at `path` (`user.name`), so a trial render can go on to the next missing one. */
function fillIn(variables: Record<string, unknown>, path: string): boolean {
  const segments = path.split(".");
  let holder: Record<string, unknown> = variables;
  for (const segment of segments.slice(0, -1)) {
    const next = holder[segment];
    if (next === undefined) holder[segment] = {};
    else if (next === null || typeof next !== "object") return false;
    holder = holder[segment] as Record<string, unknown>;
  }
  holder[segments.at(-1)!] = "";
  return true;
}

/** Most missing variables one call is told about. */
const MAX_MISSING = 50;

/**
 * The agent's template rendered with the variables. A variable it prints (or loops over) that the
 * call left out is a 422 naming every one missing: trial renders fill each in turn until the
 * template renders. One tested by `{% if %}` / `{% unless %}` or given a `| default:` may be left
 * out (Liquid's lenientIf).
 */
export function renderTemplate(template: string, variables: Record<string, unknown>): string {
  let parsed: ReturnType<Liquid["parse"]>;
  try {
    parsed = engine.parse(template);
  } catch (error) {
    templateError(error);
  }
  const missing: string[] = [];
  const trial: Record<string, unknown> = structuredClone(variables);
  for (;;) {
    try {
      const text = engine.renderSync(parsed, trial) as string;
      if (missing.length > 0) throw validationFailed(missing.map(missingIssue));
      return text;
    } catch (error) {
      const undefinedName = error instanceof LiquidError ? /undefined variable: ([^,]+)/.exec(error.message)?.[1] : undefined;
      if (!undefinedName) {
        if (missing.length > 0 && !(error instanceof LiquidError)) throw error;
        if (missing.length > 0) throw validationFailed(missing.map(missingIssue));
        templateError(error);
      }
      missing.push(undefinedName);
      if (missing.length >= MAX_MISSING || !fillIn(trial, undefinedName)) throw validationFailed(missing.map(missingIssue));
    }
  }
}

export function agentPrompt(parts: PromptParts): string {
  const filled = parts.template ? renderTemplate(parts.template, parts.variables) : "";
  const prompt = [parts.context?.trim(), filled.trim(), parts.customPrompt?.trim()].filter(Boolean).join("\n\n");
  if (!prompt) throw validationFailed([{ path: "custom_prompt", message: "The agent has no prompt template: send custom_prompt.", type: "any.required" }]);
  return prompt;
}
