// Media tools: where the ffmpeg and ffprobe binaries and the default text font are. ffmpeg and
// ffprobe are the operating system's (Debian's `ffmpeg` package, 5.1 or later, which gets security
// updates), found on PATH unless CUTROOM_FFMPEG_PATH / CUTROOM_FFPROBE_PATH name them; the start
// refuses an older or missing one (./tool-versions.ts). The font is Debian's fonts-dejavu-core (./fonts/catalog.ts).
import path from "node:path";
import { FONT_DIRECTORIES } from "./fonts/catalog.js";

export const FFMPEG_PATH: string = process.env.CUTROOM_FFMPEG_PATH || "ffmpeg";
export const FFPROBE_PATH: string = process.env.CUTROOM_FFPROBE_PATH || "ffprobe";

/** DejaVu Sans from fonts-dejavu-core (the catalog's `sans`): labels drawn by drawtext (contact sheets, questions). */
export const FONT_PATH: string = path.join(FONT_DIRECTORIES.dejavu, "DejaVuSans.ttf");
