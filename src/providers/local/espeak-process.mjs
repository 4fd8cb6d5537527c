// Runs in a child process of its own, never imported by the service: espeak-ng (GPL-3.0-or-later,
// compiled to WASM) turns one text into a WAV and the process exits. Kept out of the service's
// process for the licence, and so its synchronous synthesis never blocks the event loop. Plain
// JavaScript, so node runs it without a TypeScript loader.
//
// The system's espeak-ng library (espeak-library.mjs) speaks first: it reports where each word
// falls in the audio. Where it cannot be loaded, the WASM build speaks, and reports no words.
//
// Protocol (IPC, advanced serialisation): receives { text, voice, wordsPerMinute }; answers
// { wav: Uint8Array, words?: { word, start, end }[] } or { error: "voice_missing" | "failed" }.
import ESpeakNg from "espeak-ng";
import { speakWithLibrary } from "./espeak-library.mjs";

process.once("message", async (job) => {
  const errors = [];
  let reply;
  try {
    reply = speakWithLibrary(job) ?? undefined;
  } catch {
    reply = undefined;
  }
  if (reply) return process.send(reply, () => process.exit(0));
  try {
    const espeak = await ESpeakNg({
      // The text goes through a file, so a text starting with "-" is never read as an option.
      arguments: ["-w", "/out.wav", "-v", job.voice, "-s", String(job.wordsPerMinute), "-f", "/input.txt"],
      preRun: [(module) => module.FS.writeFile("/input.txt", job.text)],
      print: () => {},
      printErr: (line) => errors.push(line),
    });
    let wav;
    try {
      wav = espeak.FS.readFile("/out.wav");
    } catch {
      wav = undefined;
    }
    if (wav && wav.length > 44) reply = { wav };
    else reply = { error: errors.some((line) => /voice does not exist/i.test(line)) ? "voice_missing" : "failed" };
  } catch {
    reply = { error: "failed" };
  }
  process.send(reply, () => process.exit(0));
});
