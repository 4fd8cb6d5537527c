// The frame a composition is drawn on: its size per video_format, in the composition's pixels,
// and the safe area text and captions stay inside. Portrait video is watched in TikTok, YouTube
// Shorts and Instagram Reels, whose controls cover the bottom of the frame (caption, buttons, the
// music line) and a band at the top: its safe area keeps 440 px clear at the bottom and 220 px at
// the top. Landscape and square keep a 5% title-safe margin, 10% at the bottom (a player's
// controls). docs/renders.md ("Safe area") lists them.

export const FRAME_FORMATS = ["portrait", "landscape", "square"] as const;
export type FrameFormat = (typeof FRAME_FORMATS)[number];

/** Output picture size of each video_format. */
export const FORMAT_SIZES: Readonly<Record<FrameFormat, { width: number; height: number }>> = {
  portrait: { width: 1080, height: 1920 },
  landscape: { width: 1920, height: 1080 },
  square: { width: 1080, height: 1080 },
};

export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const SAFE_AREAS: Readonly<Record<FrameFormat, Insets>> = {
  portrait: { top: 220, right: 120, bottom: 440, left: 120 },
  landscape: { top: 54, right: 96, bottom: 108, left: 96 },
  square: { top: 54, right: 54, bottom: 108, left: 54 },
};

export interface Frame {
  width: number;
  height: number;
  safe: Insets;
}

export function frameOf(format: string | null | undefined): Frame {
  const known = (FRAME_FORMATS as readonly string[]).includes(format ?? "") ? (format as FrameFormat) : "landscape";
  return { ...FORMAT_SIZES[known], safe: SAFE_AREAS[known] };
}

/** The frame of a format whose size this is (the composition's frame at a render's scale), else a 5% margin frame. */
export function frameOfSize(width: number, height: number): Frame {
  const format = FRAME_FORMATS.find((name) => Math.abs(FORMAT_SIZES[name].width - width) <= 2 && Math.abs(FORMAT_SIZES[name].height - height) <= 2);
  if (format) return frameOf(format);
  const x = Math.round(width * 0.05);
  const y = Math.round(height * 0.05);
  return { width, height, safe: { top: y, right: x, bottom: 2 * y, left: x } };
}
