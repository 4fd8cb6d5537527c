// The checked-in OpenAPI document passes the linters integrators point at it: Redocly CLI with its
// recommended rules (redocly.yaml) and Spectral with spectral:oas (.spectral.yaml), 0 errors each.
// Both run as their CLIs, the way a person or CI runs them; a failure prints every error.
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCUMENT = "schema/openapi.json";

/** Runs a CLI of node_modules/.bin; its stdout whatever the exit code (a linter exits 1 on errors). */
function run(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Redocly's telemetry and update notice would reach out to the network; a test never does.
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
    execFile(path.join(ROOT, "node_modules/.bin", bin), args, { cwd: ROOT, env, timeout: 300_000, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("the OpenAPI document under the linters", () => {
  it("Redocly's recommended rules report 0 errors", async () => {
    const result = await run("redocly", ["lint", DOCUMENT, "--config", "redocly.yaml", "--format", "json"]);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{"))) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[] };
    const errors = report.problems.filter((problem) => problem.severity === "error").map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer ?? "?"}: ${problem.message}`);
    expect(errors, result.stderr.slice(0, 2000)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 300_000);

  it("Spectral's spectral:oas reports 0 errors", async () => {
    const result = await run("spectral", ["lint", DOCUMENT, "--ruleset", ".spectral.yaml", "--format", "json", "--quiet"]);
    const start = result.stdout.indexOf("[");
    expect(start, `${result.stdout.slice(0, 2000)}\n${result.stderr.slice(0, 2000)}`).toBeGreaterThanOrEqual(0);
    const problems = JSON.parse(result.stdout.slice(start, result.stdout.lastIndexOf("]") + 1)) as { code: string; severity: number; message: string; path: string[] }[];
    // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
    const errors = problems.filter((problem) => problem.severity === 0).map((problem) => `${problem.code} at ${problem.path.join(".")}: ${problem.message}`);
    expect(errors).toEqual([]);
  }, 300_000);
});
