// Models and voices a script may name (docs/scripts.md, "Models" and "Voices"):
// - `model_ref` / `quick_model_ref`: a text model of this deployment's priced catalog
//   (providers.catalog()), `<provider>/<model id>`. Whole-document passes use `model_ref`
//   (default: the deployment's configured text model), per-paragraph edits `quick_model_ref`
//   (default: the cheapest priced text model usable here).
// - `voice_ref`: a voice of the voices library the workspace can see (its id, `vc_…`: the shared
//   global rows and the workspace's own, active ones), or a voice a usable speech provider has built
//   in, `<provider>/<voice id>` (`openai/alloy`, `local/en-us`).
import type { PrismaClient } from "../generated/prisma/client.js";
import { Prisma } from "../generated/prisma/client.js";
import type { Tx } from "../db/transaction.js";
import type { GraphQLContext } from "../graphql/context.js";
import type { CatalogModel } from "../providers/catalog.js";
import type { ProviderRegistry } from "../providers/registry.js";
import { builtInVoices, type BuiltInVoice } from "../providers/voices.js";
import type { Keyset } from "../actions/framework/paging.js";
import { validationFailed } from "../validation/issues.js";
import { languageCode } from "./timing.js";

// ---------------------------------------------------------------------------------------------
// Models

export interface ScriptModels {
  /** The text models usable here, the configured one first. */
  models: CatalogModel[];
  /** What a script without `model_ref` runs its whole-document passes on. */
  documentDefault: string | null;
  /** What a script without `quick_model_ref` runs its per-paragraph edits on. */
  quickDefault: string | null;
}

export function scriptModels(providers: ProviderRegistry): ScriptModels {
  const models = providers.catalog().filter((model) => model.capability === "text");
  const documentDefault = providers.model("text")?.ref ?? null;
  // The cheapest priced one; on a tie, the earlier in the catalog (the configured model first).
  const priced = models.filter((model) => model.price);
  const cheapest = priced.reduce<CatalogModel | undefined>((best, model) => (!best || model.price!.credits < best.price!.credits ? model : best), undefined);
  return { models, documentDefault, quickDefault: cheapest?.ref ?? documentDefault };
}

/** The model a script's passes run on: its own choice, else the deployment's default. */
export function modelFor(script: { model_ref: string | null; quick_model_ref: string | null }, pass: "document" | "quick", providers: ProviderRegistry): string | null {
  const defaults = scriptModels(providers);
  return pass === "document" ? (script.model_ref ?? defaults.documentDefault) : (script.quick_model_ref ?? defaults.quickDefault);
}

/** 422 at `path` unless `ref` is a text model usable here. */
export function assertTextModel(providers: ProviderRegistry, ref: string, path: string): void {
  const usable = scriptModels(providers).models.map((model) => model.ref);
  if (usable.includes(ref)) return;
  throw validationFailed([
    usable.length
      ? { path, message: `'${ref}' is not a text model of this deployment. Must be one of: ${usable.join(", ")} (scripts.models).`, type: "any.only", allowed: usable }
      : { path, message: "This deployment has no text model configured (docs/providers.md), so no model can be chosen.", type: "any.invalid" },
  ]);
}

// ---------------------------------------------------------------------------------------------
// Voices

export interface VoiceEntry {
  voice_ref: string;
  name: string;
  provider: string;
  provider_voice_id: string | null;
  language: string | null;
  gender: string | null;
  accent: string | null;
  description: string | null;
  /** global, workspace, personal (the voices library) or provider (built in). */
  scope: string;
  kind: string;
  preview_url: string | null;
  /** Keyset of the list (library voices newest first, then the built-in ones). */
  keyset: Keyset;
}

export interface VoiceFilter {
  language?: string;
  provider?: string;
  search?: string;
}

type Client = PrismaClient | Tx;

/** Providers whose speech models are usable here (local tools always are). */
function speechProviders(providers: ProviderRegistry): Set<string> {
  return new Set(providers.catalog().filter((model) => model.capability === "speech").map((model) => model.provider));
}

const BUILT_IN_AT = new Date(0);

function fromBuiltIn(voice: BuiltInVoice): VoiceEntry {
  const ref = `${voice.provider}/${voice.voice}`;
  return {
    voice_ref: ref,
    name: voice.name,
    provider: voice.provider,
    provider_voice_id: voice.voice,
    language: voice.language,
    gender: voice.gender,
    accent: null,
    description: voice.description,
    scope: "provider",
    kind: "premade",
    preview_url: null,
    keyset: { at: BUILT_IN_AT, id: ref },
  };
}

interface VoiceRow {
  voice_ref: string;
  display_name: string;
  description: string | null;
  provider: string;
  provider_voice_id: string | null;
  scope: string;
  kind: string;
  labels: unknown;
  preview_url: string | null;
  created_at: Date;
}

function label(labels: unknown, key: string): string | null {
  if (!labels || typeof labels !== "object") return null;
  const value = (labels as Record<string, unknown>)[key];
  return typeof value === "string" ? value : null;
}

function fromRow(row: VoiceRow): VoiceEntry {
  return {
    voice_ref: row.voice_ref,
    name: row.display_name,
    provider: row.provider,
    provider_voice_id: row.provider_voice_id,
    language: label(row.labels, "language"),
    gender: label(row.labels, "gender"),
    accent: label(row.labels, "accent"),
    description: row.description,
    scope: row.scope,
    kind: row.kind,
    preview_url: row.preview_url,
    keyset: { at: row.created_at, id: row.voice_ref },
  };
}

/** A voice speaks a language when its primary subtag is the language's; a voice of no language is multilingual. */
function speaks(language: string | null, wanted: string | undefined): boolean {
  return wanted === undefined || language === null || languageCode(language) === languageCode(wanted);
}

function matches(entry: { name: string; description: string | null; voice_ref: string }, search: string | undefined): boolean {
  if (search === undefined || search === "") return true;
  const needle = search.toLowerCase();
  return [entry.name, entry.description ?? "", entry.voice_ref].some((value) => value.toLowerCase().includes(needle));
}

/**
 * A page of voices the workspace can use: library voices (newest first), then the built-in voices
 * of the usable speech providers; `after` continues after a keyset, `take` rows at most.
 */
export async function voicesPage(client: Client, context: GraphQLContext, filter: VoiceFilter, window: { after?: Keyset; take: number }): Promise<VoiceEntry[]> {
  const { after, take } = window;
  const code = filter.language === undefined ? undefined : languageCode(filter.language);
  const search = filter.search ? `%${filter.search.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : undefined;
  const rows = after && after.at.getTime() <= BUILT_IN_AT.getTime()
    ? []
    : await client.$queryRaw<VoiceRow[]>`
        SELECT voice_ref, display_name, description, provider, provider_voice_id, scope, kind, labels, preview_url, created_at
        FROM voices
        WHERE (workspace_id IS NULL OR workspace_id = ${context.auth.workspaceId}) AND is_active
          ${filter.provider ? Prisma.sql`AND provider = ${filter.provider}` : Prisma.empty}
          ${search ? Prisma.sql`AND (display_name ILIKE ${search} OR coalesce(description, '') ILIKE ${search} OR voice_ref ILIKE ${search})` : Prisma.empty}
          ${code ? Prisma.sql`AND (labels->>'language' IS NULL OR lower(split_part(replace(labels->>'language', '_', '-'), '-', 1)) = ${code})` : Prisma.empty}
          ${after ? Prisma.sql`AND (created_at, voice_ref) < (${after.at}, ${after.id})` : Prisma.empty}
        ORDER BY created_at DESC, voice_ref DESC
        LIMIT ${take}`;
  const library = rows.map(fromRow);
  if (library.length >= take) return library;
  const builtIn = builtInVoices(speechProviders(context.services.providers))
    .map(fromBuiltIn)
    .filter((entry) => (filter.provider === undefined || entry.provider === filter.provider) && speaks(entry.language, filter.language) && matches(entry, filter.search))
    .filter((entry) => !after || after.at.getTime() > BUILT_IN_AT.getTime() || entry.voice_ref < after.id)
    .sort((a, b) => (a.voice_ref < b.voice_ref ? 1 : -1));
  return [...library, ...builtIn].slice(0, take);
}

/** The voice a voice_ref names, if the workspace can use it here. */
export async function voiceByRef(client: Client, context: GraphQLContext, ref: string): Promise<VoiceEntry | undefined> {
  if (ref.includes("/")) {
    const builtIn = builtInVoices(speechProviders(context.services.providers)).map(fromBuiltIn);
    return builtIn.find((entry) => entry.voice_ref === ref);
  }
  const row = await client.voice.findFirst({
    where: { voice_ref: ref, is_active: true, OR: [{ workspace_id: null }, { workspace_id: context.auth.workspaceId }] },
  });
  return row ? fromRow(row) : undefined;
}

/** The voice a voice_ref names, or 422 at `path`. */
export async function requireVoice(client: Client, context: GraphQLContext, ref: string, path: string): Promise<VoiceEntry> {
  const voice = await voiceByRef(client, context, ref);
  if (!voice) {
    throw validationFailed([{ path, message: `'${ref}' is not a voice this workspace can use here: a voice_ref of scripts.voices (a voices library id, or <provider>/<voice id> of a usable speech provider).`, type: "any.invalid" }]);
  }
  return voice;
}

/** The one voice named `name` (ignoring case), or 422 at `path` (none, or several: their refs). */
export async function voiceByName(client: Client, context: GraphQLContext, name: string, path: string): Promise<VoiceEntry> {
  const wanted = name.toLowerCase();
  const rows = await client.voice.findMany({
    where: { is_active: true, display_name: { equals: name, mode: "insensitive" }, OR: [{ workspace_id: null }, { workspace_id: context.auth.workspaceId }] },
    take: 10,
  });
  const found = [
    ...rows.map((row) => fromRow(row as VoiceRow)),
    ...builtInVoices(speechProviders(context.services.providers)).map(fromBuiltIn).filter((entry) => entry.name.toLowerCase() === wanted),
  ];
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw validationFailed([{ path, message: `No voice named '${name}' (scripts.voices lists them).`, type: "any.invalid" }]);
  throw validationFailed([{ path, message: `Several voices are named '${name}': send default_voice_ref, one of ${found.map((entry) => entry.voice_ref).join(", ")}.`, type: "any.invalid", allowed: found.map((entry) => entry.voice_ref) }]);
}
