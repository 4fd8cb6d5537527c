// assets.static_library (catalog 4.7): the library the platform publishes for everyone:
// backgrounds (the shared shelf of the `backgrounds` resource: stills and loops), overlays (PNG
// with transparency) and sounds, each with fresh signed links to the file and its thumbnail. The
// service makes the items itself at startup (src/assets/static-library.ts). `category` keeps one
// of backgrounds, overlays, sounds. Free, read-only: a test key gets the same answer.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { label } from "../../actions/catalog/define.js";
import { validationFailed } from "../../validation/issues.js";
import { CATEGORIES, itemKey, readManifest, SHELF, type Category, type MeasuredItem } from "../static-library.js";

const libraryItem = z
  .object({
    object: z.literal("static_asset"),
    ref: z.string().describe("The item's id; a background's is its background_ref."),
    category: z.enum(CATEGORIES),
    kind: z.enum(["image", "video", "audio"]),
    name: z.string(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    orientation: z.string().nullable().describe("portrait, landscape or square; null for sounds."),
    is_loop: z.boolean().describe("Loops seamlessly (loops and ambient sounds)."),
    content_type: z.string(),
    size_bytes: z.number().int(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    duration_seconds: z.number().nullable(),
    url: z.string().describe("A signed link to the file."),
    thumbnail_url: z.string().nullable().describe("A signed link to a small JPEG of it; null for sounds."),
  })
  .meta({ id: "StaticAsset", description: "An item of the platform's static library." });

export default defineAction({
  name: "assets.static_library",
  method: "GET",
  scopes: ["assets:read"],
  credits: false,
  input: z.strictObject({ category: label().optional() }),
  weight: 1,
  purpose: "platform-provided asset library (backgrounds, overlays, sounds)",
  output: z.object({ object: z.literal("static_library"), category: z.string().nullable(), data: z.array(libraryItem) }),
  async example() {
    return { category: "backgrounds" };
  },
  async run({ graphql }, input) {
    if (input.category !== undefined && !(CATEGORIES as readonly string[]).includes(input.category)) {
      throw validationFailed([{ path: "category", message: `Must be one of: ${CATEGORIES.join(", ")}.`, type: "any.only", allowed: [...CATEGORIES] }]);
    }
    const files = graphql.services.files;
    const manifest: MeasuredItem[] = (await readManifest(files)) ?? [];
    const data = SHELF.filter((item) => input.category === undefined || item.category === (input.category as Category)).flatMap((item) => {
      const measured = manifest.find((entry) => entry.ref === item.ref && entry.key === itemKey(item));
      if (!measured) return [];
      return [{
        object: "static_asset" as const,
        ref: item.ref,
        category: item.category,
        kind: item.kind,
        name: item.name,
        description: item.description,
        tags: item.tags,
        orientation: item.orientation,
        is_loop: item.is_loop,
        content_type: measured.content_type,
        size_bytes: measured.size_bytes,
        width: measured.width,
        height: measured.height,
        duration_seconds: measured.duration_seconds,
        url: files.signedUrl(measured.key),
        thumbnail_url: measured.thumbnail_key ? files.signedUrl(measured.thumbnail_key) : null,
      }];
    });
    return { object: "static_library" as const, category: input.category ?? null, data };
  },
});
