// Scope grammar (contract section 5): `<group>:<action>`, with `*` allowed on either side and
// matched at request time, so `videos:*` covers an action added later and `*:read` covers every
// read. `write` never implies `execute`: only an exact or wildcard action grants it.

export const SCOPE_GROUPS = {
  videos: ["read", "write", "delete", "execute"],
  scripts: ["read", "write", "delete", "execute"],
  renders: ["read", "write", "delete", "execute"],
  generations: ["read", "write", "delete", "execute"],
  assets: ["read", "write", "delete"],
  folders: ["read", "write", "delete"],
  characters: ["read", "write", "delete", "execute"],
  backgrounds: ["read"],
  voices: ["read", "write", "delete", "execute"],
  templates: ["read", "write", "delete"],
  music: ["read", "write", "delete", "execute"],
  agents: ["read", "write", "delete", "execute"],
  flows: ["read", "write", "delete", "execute"],
  publishing: ["read", "write", "delete", "execute"],
  webhooks: ["read", "write", "delete"],
  workspace: ["read", "write"],
  usage: ["read"],
  api_keys: ["read", "write", "delete"],
} as const satisfies Record<string, readonly ScopeAction[]>;

type ScopeAction = "read" | "write" | "delete" | "execute";
export type ScopeGroup = keyof typeof SCOPE_GROUPS;
/** A concrete scope a route or action requires (never a wildcard). */
export type Scope = { [G in ScopeGroup]: `${G}:${(typeof SCOPE_GROUPS)[G][number]}` }[ScopeGroup];

const SCOPE_ACTIONS: readonly ScopeAction[] = ["read", "write", "delete", "execute"];

export const PRESETS = {
  read_only: ["*:read"],
  content_editor: [
    "videos:read", "videos:write", "scripts:read", "scripts:write", "assets:read", "assets:write",
    "folders:read", "folders:write", "templates:read", "characters:read", "voices:read",
    "backgrounds:read", "usage:read",
  ],
  automation: [
    "videos:*", "scripts:*", "renders:*", "generations:*", "assets:*", "folders:*", "characters:read",
    "voices:read", "backgrounds:read", "music:*", "templates:read", "publishing:*", "usage:read",
  ],
  full_access: [
    "videos:*", "scripts:*", "renders:*", "generations:*", "assets:*", "folders:*", "characters:*",
    "backgrounds:*", "voices:*", "templates:*", "music:*", "agents:*", "flows:*", "publishing:*",
    "webhooks:*", "workspace:*", "usage:*",
  ],
} as const satisfies Record<string, readonly string[]>;

export type PresetName = keyof typeof PRESETS;

export function isPresetName(value: string): value is PresetName {
  return Object.hasOwn(PRESETS, value);
}

function isScopeGroup(value: string): value is ScopeGroup {
  return Object.hasOwn(SCOPE_GROUPS, value);
}

/**
 * Checks that a granted scope is well formed: a known group (or `*`) and an action that group
 * offers (or `*`). Returns a reason when it is not.
 */
export function scopeGrammarError(scope: string): string | undefined {
  const match = /^([a-z_*]+):([a-z*]+)$/.exec(scope);
  if (!match) return "a scope is written <group>:<action>, e.g. videos:read";
  const [, group, action] = match as unknown as [string, string, string];
  if (group !== "*" && !isScopeGroup(group)) return `unknown scope group '${group}'`;
  if (action === "*") return undefined;
  if (!SCOPE_ACTIONS.includes(action as ScopeAction)) return `unknown scope action '${action}'`;
  if (group !== "*" && !(SCOPE_GROUPS[group] as readonly string[]).includes(action)) {
    return `the ${group} group has no '${action}' action`;
  }
  return undefined;
}

/** Does one granted scope (possibly a wildcard) cover one required scope? */
export function scopeCovers(granted: string, required: string): boolean {
  const [grantedGroup, grantedAction] = granted.split(":");
  const [requiredGroup, requiredAction] = required.split(":");
  const groupOk = grantedGroup === "*" || grantedGroup === requiredGroup;
  const actionOk = grantedAction === "*" || grantedAction === requiredAction;
  return groupOk && actionOk;
}

export function hasScope(granted: readonly string[], required: string): boolean {
  return granted.some((scope) => scopeCovers(scope, required));
}

/** All listed scopes are needed (the rule we chose for actions listing several; see docs/auth.md). */
export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  return required.filter((scope) => !hasScope(granted, scope));
}
