// Media tools: where the ffmpeg and ffprobe binaries and the text font are. The binaries ship in
// npm packages (@ffmpeg-installer/ffmpeg, a 2018 static build with x264, freetype, lame and aac;
// @ffprobe-installer/ffprobe), and the font in dejavu-fonts-ttf, so `npm ci` installs all three.
import { createRequire } from "node:module";
import path from "node:path";
import ffmpeg from "@ffmpeg-installer/ffmpeg";
import ffprobe from "@ffprobe-installer/ffprobe";

const require = createRequire(import.meta.url);

export const FFMPEG_PATH: string = ffmpeg.path;
export const FFPROBE_PATH: string = ffprobe.path;

/** DejaVu Sans, the font of text layers. */
export const FONT_PATH: string = path.join(path.dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf", "DejaVuSans.ttf");
