// `local/espeak-ng`: offline speech, the fallback when no speech provider has a key. The WASM
// espeak-ng runs in a child process (espeak-process.mjs) per call, killed at the time limit; MP3,
// when asked for, is encoded from its WAV with the project's ffmpeg. Word timings come from the
// synthesiser itself when the system's espeak-ng library speaks (it reports each word's position
// while it speaks, espeak-library.mjs); the WASM build, the fallback, reports none.
import { fork } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ApiError } from "../../errors/api-error.js";
import { callMeta, limitedCall } from "../call.js";
import { ProviderAnswerError } from "../errors.js";
import { wavInfo, withScratchDir } from "../media-info.js";
import type { ModelChoice } from "../../config/providers.js";
import { targetOf, type ProviderRuntime } from "../runtime.js";
import type { SpeechProvider, SpeechRequest, WordTiming } from "../types.js";
import { runTool } from "./run-tool.js";

const CHILD_SCRIPT = fileURLToPath(new URL("./espeak-process.mjs", import.meta.url));
/** espeak-ng's own default rate; `speed` 1 means this. */
const BASE_WORDS_PER_MINUTE = 175;
const MAX_CHARACTERS = 20_000;

type ChildReply = { wav: Uint8Array; words?: WordTiming[] } | { error: "voice_missing" | "failed" };

/** A voice from the request: an espeak-ng voice (`en-us`, `fr`, `en+f3`), else the language, else US English. */
function voiceOf(request: SpeechRequest): string {
  const voice = request.voice ?? request.language?.toLowerCase() ?? "en-us";
  if (!/^[A-Za-z0-9_-]{1,24}(\+[A-Za-z0-9_-]{1,24})?$/.test(voice)) {
    throw new ApiError("invalid_request", `'${voice}' is not an espeak-ng voice name (e.g. en-us, fr, de).`, { param: "voice" });
  }
  return voice;
}

function synthesizeInChild(job: { text: string; voice: string; wordsPerMinute: number }, signal: AbortSignal): Promise<{ wav: Uint8Array; words?: WordTiming[] }> {
  return new Promise((resolve, reject) => {
    // No inherited environment (it holds provider keys) and no inherited loader flags.
    const child = fork(CHILD_SCRIPT, [], { execArgv: [], env: {}, serialization: "advanced", stdio: ["ignore", "ignore", "ignore", "ipc"] });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      action();
    };
    const onAbort = () => {
      child.kill("SIGKILL");
      settle(() => reject(signal.reason));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    child.once("message", (reply: ChildReply) => {
      if ("wav" in reply) return settle(() => resolve({ wav: new Uint8Array(reply.wav), ...(reply.words?.length && { words: reply.words }) }));
      if (reply.error === "voice_missing") {
        return settle(() => reject(new ApiError("invalid_request", `espeak-ng has no voice '${job.voice}' (try en-us, en-gb, fr, de, es).`, { param: "voice" })));
      }
      settle(() => reject(new ProviderAnswerError("the speech engine produced no audio", "local_failure")));
    });
    child.once("error", () => settle(() => reject(new ProviderAnswerError("the speech engine could not start", "local_failure"))));
    child.once("exit", () => settle(() => reject(new ProviderAnswerError("the speech engine stopped without an answer", "local_failure"))));
    child.send(job);
  });
}

export function espeakSpeech(choice: ModelChoice, runtime: ProviderRuntime): SpeechProvider {
  const target = targetOf(choice);
  return {
    async synthesize(request, options) {
      const text = request.text.trim();
      if (!text) throw new ApiError("invalid_request", "There is no text to speak.", { param: "text" });
      if (text.length > MAX_CHARACTERS) throw new ApiError("invalid_request", `local/espeak-ng speaks at most ${MAX_CHARACTERS} characters per call.`, { param: "text" });
      const voice = voiceOf(request);
      const wordsPerMinute = Math.round(BASE_WORDS_PER_MINUTE * Math.min(2, Math.max(0.5, request.speed ?? 1)));
      const { value, durationMs } = await limitedCall(target, runtime.settings.timeoutMs, options, async (signal) => {
        const { wav, words } = await synthesizeInChild({ text, voice, wordsPerMinute }, signal);
        if (request.format !== "mp3") return { data: wav, mediaType: "audio/wav", words };
        const mp3 = await withScratchDir(runtime.workDir, async (dir) => {
          await writeFile(path.join(dir, "speech.wav"), wav);
          await runTool(runtime.ffmpegPath, ["-hide_banner", "-loglevel", "error", "-y", "-i", "speech.wav", "-codec:a", "libmp3lame", "-b:a", "128k", "speech.mp3"], { cwd: dir, signal, what: "MP3 encoding" });
          return new Uint8Array(await readFile(path.join(dir, "speech.mp3")));
        });
        return { data: mp3, mediaType: "audio/mpeg", seconds: wavInfo(wav)?.durationSeconds, words };
      });
      const seconds = "seconds" in value ? value.seconds : wavInfo(value.data)?.durationSeconds;
      const durationSeconds = seconds === undefined ? undefined : Math.round(seconds * 1000) / 1000;
      return {
        audio: { data: value.data, mediaType: value.mediaType, ...(durationSeconds !== undefined && { durationSeconds }) },
        ...(value.words && { words: value.words }),
        meta: callMeta(target, { characters: text.length, ...(durationSeconds !== undefined && { seconds: durationSeconds }) }, durationMs),
      };
    },
  };
}
