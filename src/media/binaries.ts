// Media tools: where the ffmpeg and ffprobe binaries and the default text font are. ffmpeg and
// ffprobe are the operating system's (Debian's `ffmpeg` package, 5.1 or later, which gets security
// updates), found on PATH unless CUTROOM_FFMPEG_PATH / CUTROOM_FFPROBE_PATH name them; the start
// refuses an older or missing one (./tool-versions.ts). The font ships in dejavu-fonts-ttf.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

export const FFMPEG_PATH: string = process.env.CUTROOM_FFMPEG_PATH || "ffmpeg";
export const FFPROBE_PATH: string = process.env.CUTROOM_FFPROBE_PATH || "ffprobe";

/** DejaVu Sans, the font of text layers. */
export const FONT_PATH: string = path.join(path.dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf", "DejaVuSans.ttf");
