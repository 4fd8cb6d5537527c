// The prompt an image agent runs with: its template with `{{name}}` placeholders filled from the
// call's variables, the caller's own words after it, and any context before it. A placeholder left
// unfilled is the caller's 422 (naming what is missing), never a prompt with braces in it.
import { validationFailed, type ValidationIssue } from "../validation/issues.js";

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

export interface PromptParts {
  template: string | null;
  variables: Record<string, unknown>;
  customPrompt?: string;
  context?: string;
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function agentPrompt(parts: PromptParts): string {
  const missing = new Set<string>();
  const filled = (parts.template ?? "").replace(PLACEHOLDER, (_match, name: string) => {
    if (!(name in parts.variables)) {
      missing.add(name);
      return "";
    }
    return asText(parts.variables[name]);
  });
  if (missing.size > 0) {
    const issues: ValidationIssue[] = [...missing].map((name) => ({ path: `variables.${name}`, message: `The agent's prompt template uses {{${name}}}; send it in variables.`, type: "any.required" }));
    throw validationFailed(issues);
  }
  const prompt = [parts.context?.trim(), filled.trim(), parts.customPrompt?.trim()].filter(Boolean).join("\n\n");
  if (!prompt) throw validationFailed([{ path: "custom_prompt", message: "The agent has no prompt template: send custom_prompt.", type: "any.required" }]);
  return prompt;
}
