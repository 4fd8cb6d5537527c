// What keeps a character the same from one image to the next (characters.generate_image,
// characters.smart_variants): its description and look go into every prompt, and its reference
// images (reference_image_url, then the images of `media`) go to the image model with every
// prompt, after any image the call itself hands over. URLs are only fetched by the operation,
// through the URL guard.
import type { Tx } from "../db/transaction.js";
import type { GraphQLContext } from "../graphql/context.js";
import type { ImageSource } from "../generations/index.js";
import { loadOwned } from "../resources/service.js";
import { validationFailed } from "../validation/issues.js";
import { characters } from "./resource.js";

/** The most reference images sent with one prompt. */
export const MAX_REFERENCES = 4;

export interface CharacterLook {
  character_id: string;
  name: string;
  description: string | null;
  visual_prompt: string | null;
  /** The character's own reference images, in order. */
  references: string[];
}

function urlsIn(value: unknown): string[] {
  if (typeof value === "string") return /^https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (typeof record.url === "string") return urlsIn(record.url);
    return ["reference_images", "images", "references"].flatMap((key) => urlsIn(record[key]));
  }
  return [];
}

/** The character (of the workspace) and its look; 422 when nothing says what it looks like. */
export async function characterLook(tx: Tx, graphql: GraphQLContext, characterId: string, extraReference?: string): Promise<CharacterLook> {
  const row = await loadOwned(tx, graphql, characters, characterId, { select: { character_id: true, character_name: true, character_description: true, visual_prompt: true, reference_image_url: true, media: true } }, "read");
  const references = [...new Set([...urlsIn(row.reference_image_url), ...urlsIn(row.media)])];
  const look: CharacterLook = {
    character_id: characterId,
    name: row.character_name as string,
    description: (row.character_description as string | null)?.trim() || null,
    visual_prompt: (row.visual_prompt as string | null)?.trim() || null,
    references,
  };
  if (!look.description && !look.visual_prompt && references.length === 0 && !extraReference) {
    throw validationFailed([{ path: "character_id", message: "This character has no description, visual prompt or reference image to keep it consistent: add one first.", type: "any.invalid" }]);
  }
  return look;
}

/** How far a variant may stray, in words the model follows. */
export function variationWords(strength: number | undefined): string | undefined {
  if (strength === undefined) return undefined;
  if (strength < 0.34) return "Subtle variation: keep the pose and framing, change only the expression and the light.";
  if (strength < 0.67) return "Moderate variation: change the pose, the camera angle and the expression.";
  return "Strong variation: a new pose, camera angle, framing and setting.";
}

/** The prompt of one image of the character: who it is and how it looks, then the scene. */
export function characterPrompt(look: CharacterLook, scene: string | undefined, strength?: number): string {
  return [
    `The same character in every image: ${look.name}.`,
    look.description && `Who they are: ${look.description}`,
    look.visual_prompt && `How they look: ${look.visual_prompt}`,
    look.references.length > 0 && "Keep the face, hair, build, outfit and colours exactly as in the reference images.",
    scene?.trim(),
    variationWords(strength),
  ].filter(Boolean).join("\n");
}

/** The images sent with every prompt: the call's own first, then the character's, at most MAX_REFERENCES. */
export function referenceSources(look: CharacterLook, own: { url: string | undefined; param: string }): ImageSource[] {
  const sources: ImageSource[] = own.url ? [{ url: own.url, param: own.param }] : [];
  for (const url of look.references) if (url !== own.url) sources.push({ url, param: "character.reference_image_url" });
  return sources.slice(0, MAX_REFERENCES);
}
