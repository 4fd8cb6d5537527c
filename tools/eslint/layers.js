// The import structure, as a lint rule (docs/architecture.md, "Layers"). Every folder of src/ (and
// rest/) is a unit in one ordered list of layers; a file may import its own unit and units of
// lower layers, never a higher one. The domains (every folder of src/ not named below) share one
// layer: a domain imports another only through that domain's face, `src/<domain>/index.ts`. The
// composition root (src/platform/, src/cli/, src/service.ts, src/worker.ts, src/main.ts) may
// import anything: it is where the lists are assembled and handed down.
import path from "node:path";

/** From the ground up. A unit is a folder of src/ (or a top-level file of src/, or rest/). */
export const LAYERS = [
  "generated", "contract.ts", "ids.ts", "logger.ts", "response.ts", "side-by-side.ts", "testing",
  "config", "context", "errors", "validation", "web",
  "redis", "db", "storage", "outbound", "media",
  "auth", "outbox", "credits", "workspaces", "guards", "providers",
  "jobs", "operations", "graphql", "registry", "resources", "actions",
  "@domains",
  "graphql-endpoint", "reference", "rest", "http",
];

/** The composition root: imports anything, imported by nothing of the layers. */
export const ROOT = ["platform", "cli", "service.ts", "worker.ts", "main.ts"];

/** The unit a repository-relative path belongs to, or undefined outside src/ and rest/. */
export function unitOf(relative) {
  const parts = relative.split("/");
  if (parts[0] === "rest") return "rest";
  if (parts[0] !== "src" || parts.length < 2) return undefined;
  // src/config.ts and src/config/ are one unit: the configuration and its parts.
  if (parts[1] === "config.ts") return "config";
  return parts[1];
}

function rankOf(unit) {
  if (ROOT.includes(unit)) return Infinity;
  const index = LAYERS.indexOf(unit);
  return index === -1 ? LAYERS.indexOf("@domains") : index;
}

const isDomain = (unit) => !ROOT.includes(unit) && !LAYERS.includes(unit);

/** Why `from` may not import `to` (repository-relative paths), or undefined when it may. */
export function refusal(from, to) {
  const source = unitOf(from);
  const target = unitOf(to);
  if (!source || !target || source === target || ROOT.includes(source)) return undefined;
  if (ROOT.includes(target)) return `${target} is the composition root: it hands its lists down; nothing below imports it`;
  const sourceRank = rankOf(source);
  const targetRank = rankOf(target);
  if (targetRank > sourceRank) {
    const name = (unit) => (isDomain(unit) ? `the domain ${unit}` : unit);
    return `${name(source)} is below ${name(target)}: a lower layer never imports a higher one`;
  }
  if (isDomain(source) && isDomain(target) && to !== `src/${target}/index.ts`) {
    return `another domain's inside: import src/${target}/index.ts, its public face`;
  }
  return undefined;
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Imports run one way: down the layers, and into another domain only through its index.ts." },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join("/");
    if (!unitOf(file)) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
      const target = path.relative(root, path.resolve(path.dirname(context.filename), specifier)).split(path.sep).join("/").replace(/\.js$/, ".ts");
      const why = refusal(file, target);
      if (why) context.report({ node, message: `Import of ${target}: ${why}.` });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node.source, node.source.value),
    };
  },
};

export default { rules: { layers: rule } };
