// `local/still`: the lip-sync fallback when no lip-sync model is configured. The speaker's photo is
// held over the recording (H.264 + AAC MP4, even dimensions, the recording's length), rendered
// with the project's ffmpeg. Nothing moves: the result says so (`lipSynced: false`, model `still`),
// so a caller can tell the user and price it as what it is.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../../errors/api-error.js";
import { callMeta, limitedCall } from "../call.js";
import { extensionFor, mediaFacts, sniffMediaType, withScratchDir } from "../media-info.js";
import type { ModelChoice } from "../../config/providers.js";
import { targetOf, type ProviderRuntime } from "../runtime.js";
import type { LipsyncRequest, LongRunningProvider } from "../types.js";
import { runTool } from "./run-tool.js";

/** Longest edge of the output; larger photos are scaled down (a still needs no 4K). */
const MAX_EDGE = 1920;

/** At most MAX_EDGE on the long side (aspect kept), then each side floored to even (x264 needs it). */
const SCALE_FILTER =
  `scale=w='if(gte(iw,ih),min(${MAX_EDGE},iw),-1)':h='if(gte(iw,ih),-1,min(${MAX_EDGE},ih))',` +
  "scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p";

export function stillLipsync(choice: ModelChoice, runtime: ProviderRuntime): LongRunningProvider<LipsyncRequest> {
  const target = targetOf(choice);
  return {
    async run(request, context) {
      const imageType = sniffMediaType(request.image.data) ?? request.image.mediaType;
      const audioType = sniffMediaType(request.audio.data) ?? request.audio.mediaType;
      if (!imageType.startsWith("image/")) throw new ApiError("invalid_request", "The speaker's photo is not an image.", { param: "image" });
      if (!audioType.startsWith("audio/") && !audioType.startsWith("video/")) throw new ApiError("invalid_request", "The recording is not audio.", { param: "audio" });
      // -shortest alone overshoots with a looped image (the encoder's lookahead), so the recording's
      // own length, when it can be read, bounds the output exactly.
      const recording = await mediaFacts(request.audio.data, audioType, runtime.workDir);
      const length = recording.durationSeconds !== undefined ? ["-t", recording.durationSeconds.toFixed(3)] : [];
      // Nothing is submitted anywhere, so a resumed call simply renders again.
      const { value, durationMs } = await limitedCall(target, runtime.settings.longTimeoutMs, context, (signal) =>
        withScratchDir(runtime.workDir, async (dir) => {
          const image = `photo.${extensionFor(imageType)}`;
          const audio = `voice.${extensionFor(audioType)}`;
          await writeFile(path.join(dir, image), request.image.data);
          await writeFile(path.join(dir, audio), request.audio.data);
          context?.onProgress?.(0);
          await runTool(runtime.ffmpegPath, [
            "-hide_banner", "-loglevel", "error", "-y",
            "-loop", "1", "-framerate", "25", "-i", image,
            "-i", audio,
            "-map", "0:v", "-map", "1:a",
            "-vf", SCALE_FILTER,
            "-c:v", "libx264", "-preset", "veryfast", "-tune", "stillimage",
            "-c:a", "aac", "-b:a", "128k",
            "-shortest", ...length, "-movflags", "+faststart",
            "still.mp4",
          ], { cwd: dir, signal, what: "rendering the still video" });
          return new Uint8Array(await readFile(path.join(dir, "still.mp4")));
        }),
      );
      context?.onProgress?.(100);
      const facts = await mediaFacts(value, "video/mp4", runtime.workDir);
      return {
        outputs: [{ data: value, mediaType: "video/mp4", ...facts }],
        lipSynced: false,
        meta: callMeta(target, facts.durationSeconds !== undefined ? { seconds: facts.durationSeconds } : {}, durationMs),
      };
    },
  };
}
