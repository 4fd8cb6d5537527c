// The fonts text layers and captions are drawn in: families the service ships from Debian's font
// packages (fonts-dejavu-core, fonts-noto-core, fonts-noto-cjk, fonts-inter, fonts-liberation2),
// found at their Debian paths. A family is a name of ours (`sans`, `noto_sans_arabic`) over one
// file per weight; a family whose files are missing on this machine is left out of the catalog.
// `sans` (the default) is DejaVu Sans, the font text was drawn in before families existed, so an
// old text layer keeps its look. Every Noto Sans/Serif script family found in fonts-noto-core is
// offered as noto_sans_<script>/noto_serif_<script>.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

export const FONT_DIRECTORIES = {
  dejavu: "/usr/share/fonts/truetype/dejavu",
  noto: "/usr/share/fonts/truetype/noto",
  notoCjk: "/usr/share/fonts/opentype/noto",
  inter: "/usr/share/fonts/opentype/inter",
  liberation: "/usr/share/fonts/truetype/liberation2",
} as const;

/** One weight of a family: a file, and the face inside it for a collection (.ttc). */
export interface FontFace {
  file: string;
  /** PostScript name of the face in a collection. */
  face?: string;
  weight: number;
}

export interface FontFamily {
  /** Our name, as `font` takes it. */
  name: string;
  /** The font's own family name. */
  display_name: string;
  /** The Debian package it comes from. */
  package: string;
  /** What it is for (scripts, style). */
  covers: string;
  faces: FontFace[];
}

export const DEFAULT_FONT = "sans";

interface FamilySpec {
  name: string;
  display_name: string;
  package: string;
  covers: string;
  faces: [weight: number, dir: string, file: string, face?: string][];
}

const D = FONT_DIRECTORIES;
const inter = (prefix: string): FamilySpec["faces"] =>
  ([[100, "Thin"], [200, "ExtraLight"], [300, "Light"], [400, "Regular"], [500, "Medium"], [600, "SemiBold"], [700, "Bold"], [800, "ExtraBold"], [900, "Black"]] as const).map(([weight, style]) => [weight, D.inter, `${prefix}-${style}.otf`]);
const cjk = (kind: "Sans" | "Serif", region: string): FamilySpec["faces"] => [
  [400, D.notoCjk, `Noto${kind}CJK-Regular.ttc`, `Noto${kind}CJK${region}-Regular`],
  [700, D.notoCjk, `Noto${kind}CJK-Bold.ttc`, `Noto${kind}CJK${region}-Bold`],
];

const NAMED_FAMILIES: FamilySpec[] = [
  { name: "sans", display_name: "DejaVu Sans", package: "fonts-dejavu-core", covers: "the default: Latin, Greek, Cyrillic, Armenian, Georgian and symbols", faces: [[200, D.dejavu, "DejaVuSans-ExtraLight.ttf"], [400, D.dejavu, "DejaVuSans.ttf"], [700, D.dejavu, "DejaVuSans-Bold.ttf"]] },
  { name: "serif", display_name: "Noto Serif", package: "fonts-noto-core", covers: "Latin, Greek, Cyrillic (serif)", faces: [[400, D.noto, "NotoSerif-Regular.ttf"], [700, D.noto, "NotoSerif-Bold.ttf"]] },
  { name: "mono", display_name: "DejaVu Sans Mono", package: "fonts-dejavu-core", covers: "Latin, Greek, Cyrillic (monospaced)", faces: [[400, D.dejavu, "DejaVuSansMono.ttf"], [700, D.dejavu, "DejaVuSansMono-Bold.ttf"]] },
  { name: "display", display_name: "Inter Display", package: "fonts-inter", covers: "Latin, Greek, Cyrillic (headlines; weights 100–900)", faces: inter("InterDisplay") },
  { name: "inter", display_name: "Inter", package: "fonts-inter", covers: "Latin, Greek, Cyrillic (weights 100–900)", faces: inter("Inter") },
  { name: "dejavu_serif", display_name: "DejaVu Serif", package: "fonts-dejavu-core", covers: "Latin, Greek, Cyrillic (serif)", faces: [[400, D.dejavu, "DejaVuSerif.ttf"], [700, D.dejavu, "DejaVuSerif-Bold.ttf"]] },
  { name: "liberation_sans", display_name: "Liberation Sans", package: "fonts-liberation2", covers: "Latin, Greek, Cyrillic (Arial's metrics)", faces: [[400, D.liberation, "LiberationSans-Regular.ttf"], [700, D.liberation, "LiberationSans-Bold.ttf"]] },
  { name: "liberation_serif", display_name: "Liberation Serif", package: "fonts-liberation2", covers: "Latin, Greek, Cyrillic (Times New Roman's metrics)", faces: [[400, D.liberation, "LiberationSerif-Regular.ttf"], [700, D.liberation, "LiberationSerif-Bold.ttf"]] },
  { name: "liberation_mono", display_name: "Liberation Mono", package: "fonts-liberation2", covers: "Latin, Greek, Cyrillic (Courier New's metrics)", faces: [[400, D.liberation, "LiberationMono-Regular.ttf"], [700, D.liberation, "LiberationMono-Bold.ttf"]] },
  { name: "noto_sans", display_name: "Noto Sans", package: "fonts-noto-core", covers: "Latin, Greek, Cyrillic", faces: [[400, D.noto, "NotoSans-Regular.ttf"], [700, D.noto, "NotoSans-Bold.ttf"]] },
  { name: "noto_sans_display", display_name: "Noto Sans Display", package: "fonts-noto-core", covers: "Latin, Greek, Cyrillic (headlines)", faces: [[400, D.noto, "NotoSansDisplay-Regular.ttf"], [700, D.noto, "NotoSansDisplay-Bold.ttf"]] },
  { name: "noto_sans_cjk_sc", display_name: "Noto Sans CJK SC", package: "fonts-noto-cjk", covers: "Simplified Chinese (and Japanese kana, Hangul, Latin)", faces: cjk("Sans", "sc") },
  { name: "noto_sans_cjk_tc", display_name: "Noto Sans CJK TC", package: "fonts-noto-cjk", covers: "Traditional Chinese", faces: cjk("Sans", "tc") },
  { name: "noto_sans_cjk_hk", display_name: "Noto Sans CJK HK", package: "fonts-noto-cjk", covers: "Traditional Chinese (Hong Kong)", faces: cjk("Sans", "hk") },
  { name: "noto_sans_cjk_jp", display_name: "Noto Sans CJK JP", package: "fonts-noto-cjk", covers: "Japanese", faces: cjk("Sans", "jp") },
  { name: "noto_sans_cjk_kr", display_name: "Noto Sans CJK KR", package: "fonts-noto-cjk", covers: "Korean", faces: cjk("Sans", "kr") },
  { name: "noto_serif_cjk_sc", display_name: "Noto Serif CJK SC", package: "fonts-noto-cjk", covers: "Simplified Chinese (serif)", faces: cjk("Serif", "sc") },
  { name: "noto_serif_cjk_jp", display_name: "Noto Serif CJK JP", package: "fonts-noto-cjk", covers: "Japanese (serif)", faces: cjk("Serif", "jp") },
  { name: "noto_serif_cjk_kr", display_name: "Noto Serif CJK KR", package: "fonts-noto-cjk", covers: "Korean (serif)", faces: cjk("Serif", "kr") },
];

/** `Devanagari` → `devanagari`, `NKo` → `nko`, `OldItalic` → `old_italic`. */
function snake(camel: string): string {
  return camel.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** The Noto Sans/Serif script families of fonts-noto-core: NotoSans<Script>-Regular.ttf (and -Bold). */
function notoScriptFamilies(taken: Set<string>): FamilySpec[] {
  let files: string[];
  try {
    files = readdirSync(D.noto);
  } catch {
    return [];
  }
  const have = new Set(files);
  return files.flatMap((file) => {
    const match = /^Noto(Sans|Serif)([A-Z][A-Za-z0-9]+)-Regular\.ttf$/.exec(file);
    if (!match) return [];
    const [, kind, script] = match as unknown as [string, string, string];
    const name = `noto_${kind.toLowerCase()}_${snake(script)}`;
    if (taken.has(name)) return [];
    const bold = `Noto${kind}${script}-Bold.ttf`;
    const faces: FamilySpec["faces"] = [[400, D.noto, file], ...(have.has(bold) ? [[700, D.noto, bold] as [number, string, string]] : [])];
    return [{ name, display_name: `Noto ${kind} ${script.replace(/([a-z0-9])([A-Z])/g, "$1 $2")}`, package: "fonts-noto-core", covers: script.replace(/([a-z0-9])([A-Z])/g, "$1 $2"), faces }];
  });
}

function available(spec: FamilySpec): FontFamily | null {
  const faces = spec.faces.map(([weight, dir, file, face]) => ({ weight, file: path.join(dir, file), ...(face && { face }) })).filter((face) => existsSync(face.file));
  return faces.length > 0 ? { name: spec.name, display_name: spec.display_name, package: spec.package, covers: spec.covers, faces } : null;
}

let catalog: ReadonlyMap<string, FontFamily> | undefined;

/** Every family found on this machine, by name (read once). */
export function fontCatalog(): ReadonlyMap<string, FontFamily> {
  if (!catalog) {
    const specs = [...NAMED_FAMILIES, ...notoScriptFamilies(new Set(NAMED_FAMILIES.map((spec) => spec.name)))];
    catalog = new Map(specs.flatMap((spec) => {
      const family = available(spec);
      return family ? [[family.name, family] as const] : [];
    }));
  }
  return catalog;
}

/** Family names, the named ones first, then the Noto script families in alphabetical order. */
export function fontFamilyNames(): string[] {
  return [...fontCatalog().keys()];
}

/** The face of a family nearest to a weight (CSS-like: the closest, lighter on a tie). */
export function faceFor(family: FontFamily, weight: number): FontFace {
  return family.faces.reduce((best, face) => {
    const distance = Math.abs(face.weight - weight);
    const bestDistance = Math.abs(best.weight - weight);
    return distance < bestDistance || (distance === bestDistance && face.weight < best.weight) ? face : best;
  });
}

/** The catalog as the API lists it (GET /api/v1, `fonts`). */
export function fontListing(): { name: string; display_name: string; covers: string; weights: number[]; package: string; default: boolean }[] {
  return [...fontCatalog().values()].map((family) => ({
    name: family.name,
    display_name: family.display_name,
    covers: family.covers,
    weights: family.faces.map((face) => face.weight),
    package: family.package,
    default: family.name === DEFAULT_FONT,
  }));
}
