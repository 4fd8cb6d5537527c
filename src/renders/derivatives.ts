// The pictures every video render also stores, read from the output itself: a poster (a JPEG
// frame at `poster_at`, default one third in), a thumbnail (a JPEG at most 320 pixels on its longer
// side, from the same frame) and a contact sheet (one PNG grid with a frame of every stretch
// between visual layer changes, each labelled with its time in the composition: a storyboard to
// check a render at a glance).
import path from "node:path";
import type { Composition } from "./composition.js";
import { num } from "./filter-values.js";
import { FONT_PATH } from "../media/binaries.js";
import { escapeFilterValue } from "./filter-values.js";
import { runFfmpeg } from "../media/ffmpeg.js";

export const THUMBNAIL_SIDE = 320;
const CELL_SIDE = 320;
const MAX_CELLS = 24;

export interface Derivative {
  kind: "poster" | "thumbnail" | "contact_sheet";
  path: string;
  content_type: string;
}

/**
 * The moments of a contact sheet, in composition time: the middle of each stretch between two
 * changes of the visual layers (a layer starting or ending), labelled with the stretch's start.
 */
export function contactSheetMoments(composition: Composition, range: { start: number; end: number }): { label: number; at: number }[] {
  const changes = new Set<number>([range.start, range.end]);
  for (const layer of composition.layers) {
    if (layer.type === "audio" || layer.type === "tone") continue;
    for (const time of [layer.start, layer.end]) if (time > range.start && time < range.end) changes.add(Math.round(time * 1000) / 1000);
  }
  const times = [...changes].sort((a, b) => a - b);
  let moments = times.slice(0, -1).map((start, index) => ({ label: start, at: (start + times[index + 1]!) / 2 }));
  if (moments.length > MAX_CELLS) moments = Array.from({ length: MAX_CELLS }, (_, index) => moments[Math.floor((index * moments.length) / MAX_CELLS)]!);
  return moments;
}

/** Size of a cell: the frame scaled to fit a 320 × 320 square, even. */
function cellSize(frame: { width: number; height: number }): { width: number; height: number } {
  const scale = CELL_SIDE / Math.max(frame.width, frame.height);
  return { width: Math.max(2, Math.round((frame.width * scale) / 2) * 2), height: Math.max(2, Math.round((frame.height * scale) / 2) * 2) };
}

export interface DerivativeInput {
  outputPath: string;
  workDir: string;
  composition: Composition;
  range: { start: number; end: number };
  frame: { width: number; height: number };
  /** Seconds into the output. */
  posterAt: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export async function makeDerivatives(input: DerivativeInput): Promise<Derivative[]> {
  const base = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"];
  const duration = input.range.end - input.range.start;
  const last = Math.max(0, duration - 0.05);
  const posterAt = Math.min(Math.max(0, input.posterAt), last);
  const poster = path.join(input.workDir, "poster.jpg");
  const thumbnail = path.join(input.workDir, "thumbnail.jpg");
  const sheet = path.join(input.workDir, "contact-sheet.png");
  const options = { timeoutMs: input.timeoutMs, signal: input.signal, cwd: input.workDir };

  await runFfmpeg([
    ...base, "-ss", num(posterAt), "-i", input.outputPath,
    "-filter_complex", `[0:v]split[p][t];[t]scale=w=${THUMBNAIL_SIDE}:h=${THUMBNAIL_SIDE}:force_original_aspect_ratio=decrease[small]`,
    "-map", "[p]", "-frames:v", "1", "-q:v", "2", "-update", "1", poster,
    "-map", "[small]", "-frames:v", "1", "-q:v", "4", "-update", "1", thumbnail,
  ], options);

  const moments = contactSheetMoments(input.composition, input.range);
  const cell = cellSize(input.frame);
  const columns = Math.ceil(Math.sqrt(moments.length));
  const font = escapeFilterValue(FONT_PATH);
  const inputs = moments.flatMap((moment) => ["-ss", num(Math.min(Math.max(0, moment.at - input.range.start), last)), "-i", input.outputPath]);
  const cells = moments.map((moment, index) =>
    `[${index}:v]trim=end_frame=1,setpts=PTS-STARTPTS,scale=${cell.width}:${cell.height},setsar=1,format=rgb24,` +
    `drawtext=fontfile=${font}:text='${num(moment.label).replace(".", "\\.")} s':fontsize=${Math.max(10, Math.round(cell.height / 9))}:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=4:x=6:y=h-text_h-8[c${index}]`);
  const layout = moments.map((_, index) => `${(index % columns) * cell.width}_${Math.floor(index / columns) * cell.height}`).join("|");
  const grid = moments.length === 1 ? "[c0]null[sheet]" : `${moments.map((_, index) => `[c${index}]`).join("")}xstack=inputs=${moments.length}:layout=${layout}:fill=black[sheet]`;
  await runFfmpeg([...base, ...inputs, "-filter_complex", [...cells, grid].join(";"), "-map", "[sheet]", "-frames:v", "1", "-update", "1", sheet], options);

  return [
    { kind: "poster", path: poster, content_type: "image/jpeg" },
    { kind: "thumbnail", path: thumbnail, content_type: "image/jpeg" },
    { kind: "contact_sheet", path: sheet, content_type: "image/png" },
  ];
}
