// The action catalog (contract document 2): name, method, scopes (all of them required), credit
// flag and price, extra events, strict input schema, rate-limit weight and test-mode behaviour of
// each of the 151 actions. Each action declares all of it in its own file
// (src/<family>/actions/<name>.ts); the composition root lists the files
// (src/platform/actions.generated.ts, written by `npm run generate`) and installs the list here
// once, at start-up, so that this layer and the ones above it (REST, flows) read the catalog
// without importing a single action. The action framework derives the GraphQL fields, REST
// routes, OpenAPI, scope checks, credit charging and events from it.
// Rules: docs/actions.md; prices: docs/credits.md.
import type { z } from "zod";
import { PRICE_UNITS, VIDEO_FIELDS, oneOfFields, type ActionDefinition } from "./catalog/define.js";
import type { LiveAction } from "./framework/action.js";

export { VIDEO_FIELDS } from "./catalog/define.js";
export type { ActionDefinition, ActionPrice } from "./catalog/define.js";

/** The families in the catalog's order (sections 4.2 to 4.10), each with its section. */
export const FAMILIES: readonly { family: string; section: string }[] = [
  ...["renders", "videos", "timeline", "subtitles"].map((family) => ({ family, section: "4.2" })),
  ...["images", "videos_ai", "agents", "generations", "music", "characters"].map((family) => ({ family, section: "4.3" })),
  ...["faceless", "smart_groups", "slideshows"].map((family) => ({ family, section: "4.4" })),
  { family: "tools", section: "4.5" },
  ...["flows", "publishing", "account"].map((family) => ({ family, section: "4.6" })),
  ...["image_agents", "app_screenshots", "voice_projects", "playground", "instructions", "assets"].map((family) => ({ family, section: "4.7" })),
  { family: "scripts", section: "4.8–4.10" },
];

const familyRank = new Map(FAMILIES.map(({ family }, index) => [family, index]));

interface Installed {
  /** Families in the catalog's order, names in alphabetical order within a family. */
  actions: readonly LiveAction[];
  byName: ReadonlyMap<string, LiveAction>;
}

let installed: Installed | undefined;

/**
 * Takes the catalog's actions (the composition root's generated list), checks its invariants and
 * keeps it for the process. Installing the same list again is a no-op; another list is refused.
 */
export function installActions(list: readonly LiveAction[]): void {
  const actions = Object.freeze(
    [...list].sort((a, b) => (familyRank.get(a.family)! - familyRank.get(b.family)!) || a.name.localeCompare(b.name)),
  );
  if (installed) {
    if (installed.actions.length === actions.length && actions.every((action, index) => installed!.actions[index] === action)) return;
    throw new Error("The action catalog is already installed with another list.");
  }
  assertCatalog(actions);
  installed = { actions, byName: new Map(actions.map((action) => [action.name, action])) };
}

function catalog(): Installed {
  if (!installed) throw new Error("The action catalog is not installed: import src/platform/catalogs.ts (the composition root) first.");
  return installed;
}

/** Every action of the catalog, in its order. */
export function allActions(): readonly LiveAction[] {
  return catalog().actions;
}

export function actionByName(name: string): LiveAction | undefined {
  return catalog().byName.get(name);
}

export function actionNames(): string[] {
  return catalog().actions.map((action) => action.name);
}

/** The catalog's own strict schema of an action; undefined for the video marker. */
function declaredSchema(action: ActionDefinition): z.ZodObject | undefined {
  return action.input === VIDEO_FIELDS ? undefined : action.input;
}

/** Input field names of an action (the strict schema's keys), or the video marker. */
export function actionInputFields(action: ActionDefinition): readonly string[] | typeof VIDEO_FIELDS {
  const schema = declaredSchema(action);
  return schema ? Object.keys(schema.shape) : VIDEO_FIELDS;
}

function isOptionalField(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** Fields an action requires (a missing one gives 422 any.required); [] for the video marker. */
export function requiredInputFields(action: ActionDefinition): readonly string[] {
  const schema = declaredSchema(action);
  if (!schema) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([, schema]) => !isOptionalField(schema))
    .map(([field]) => field);
}

/** Fields of which at least one must be sent (e.g. `image_url` or `image_base64`), or []. */
export function oneOfInputFields(action: ActionDefinition): readonly string[] {
  const schema = declaredSchema(action);
  return (schema && oneOfFields(schema)) ?? [];
}

/**
 * The catalog's own invariants, checked when it loads: unique names, a price exactly on credit
 * actions (whole, positive, its unit fields present in the input), an execute scope on every credit
 * action (contract 1: `write` never implies `execute`), and the weight rule's floor.
 */
function assertCatalog(actions: readonly ActionDefinition[]): void {
  const seen = new Set<string>();
  for (const action of actions) {
    const problem = (message: string) => new Error(`Action catalog: ${action.name}: ${message}`);
    if (seen.has(action.name)) throw problem("declared twice");
    if (!familyRank.has(action.family)) throw problem(`unknown family ${action.family}`);
    seen.add(action.name);
    if (!/^[a-z_]+\.[a-z_]+$/.test(action.name)) throw problem("a name is <family>.<name> in snake_case");
    if (action.scopes.length === 0) throw problem("no scope");
    const fields = Object.keys(declaredSchema(action)?.shape ?? {});
    if (action.credits) {
      const { price } = action;
      if (!Number.isInteger(price.credits) || price.credits < 1) throw problem("price.credits must be a whole positive number");
      if (price.per !== undefined && !PRICE_UNITS.includes(price.per)) throw problem(`unknown price unit ${price.per}`);
      for (const field of [price.unit_field, price.times_field]) {
        if (field !== undefined && !fields.includes(field)) throw problem(`price field ${field} is not an input field`);
      }
      if ((price.per ?? "call") === "call" && (price.unit_field || price.times_field || price.max_units)) {
        throw problem("a per-call price takes no unit fields");
      }
      if (price.max_units !== undefined && (!Number.isInteger(price.max_units) || price.max_units < 1)) {
        throw problem("price.max_units must be a whole positive number");
      }
      if (!action.scopes.some((scope) => scope.endsWith(":execute"))) throw problem("spends credits without an execute scope");
      if (action.weight < 1) throw problem("weight below 1");
    } else {
      if (action.price !== undefined) throw problem("a price on an action that spends no credits");
      if (action.weight !== 1) throw problem("an action that spends no credits weighs 1");
    }
  }
}

