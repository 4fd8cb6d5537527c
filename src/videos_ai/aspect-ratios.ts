// AI video (videos_ai.generate, videos_ai.extend, video launches): the picture shapes the video
// models take. The actions live in ./actions; the work is src/generations/media-generation.ts.
export const ASPECT_RATIOS: readonly string[] = ["16:9", "9:16", "1:1"];
