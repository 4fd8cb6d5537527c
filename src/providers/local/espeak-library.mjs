// espeak-ng's own library (Debian's libespeak-ng1, installed beside the espeak-ng package) driven
// through koffi: the synthesiser reports each word's position in the audio while it speaks
// (espeakEVENT_WORD), which the WASM command line cannot. Imported only by espeak-process.mjs, in
// the child process. Answers null when the library is not on this machine.
//
// From each word event (its character position in the text and its time in the audio) every
// whitespace-separated word of the text gets its start; it ends where the next one starts, less
// the silence before it (measured on the samples), and the last one where the voice stops.
import koffi from "koffi";

const AUDIO_OUTPUT_SYNCHRONOUS = 2;
const INITIALIZE_DONT_EXIT = 0x8000;
const EVENT_WORD = 1;
const PARAMETER_RATE = 1;
const POS_CHARACTER = 1;
const CHARS_UTF8 = 1;
const END_PAUSE = 0x1000;
/** Amplitude (of 32767) below which a 10 ms frame counts as silence. */
const SILENCE = 400;

let api;

function load() {
  if (api !== undefined) return api;
  try {
    const lib = koffi.load("libespeak-ng.so.1");
    const Event = koffi.struct("espeak_EVENT", {
      type: "int", unique_identifier: "uint", text_position: "int", length: "int", audio_position: "int", sample: "int", user_data: "void *", id: koffi.array("uint8", 8),
    });
    const Callback = koffi.proto("int SynthCallback(void *wav, int numsamples, void *events)");
    // Named, so the prototype below can take it.
    koffi.struct("espeak_VOICE", {
      name: "const char *", languages: "const char *", identifier: "const char *", gender: "uint8", age: "uint8", variant: "uint8", xx1: "uint8", score: "int", spare: "void *",
    });
    api = {
      Event,
      Callback,
      initialize: lib.func("int espeak_Initialize(int output, int buflength, const char *path, int options)"),
      setCallback: lib.func("void espeak_SetSynthCallback(SynthCallback *callback)"),
      setVoice: lib.func("int espeak_SetVoiceByName(const char *name)"),
      setVoiceByProperties: lib.func("int espeak_SetVoiceByProperties(espeak_VOICE *properties)"),
      setParameter: lib.func("int espeak_SetParameter(int parameter, int value, int relative)"),
      synth: lib.func("int espeak_Synth(const char *text, size_t size, uint position, int position_type, uint end_position, uint flags, void *unique_identifier, void *user_data)"),
      synchronize: lib.func("int espeak_Synchronize()"),
    };
  } catch {
    api = null;
  }
  return api;
}

function wavFile(samples, rate) {
  const data = Buffer.alloc(samples.length * 2);
  for (let index = 0; index < samples.length; index++) data.writeInt16LE(samples[index], index * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return new Uint8Array(Buffer.concat([header, data]));
}

/** The last moment (seconds) in [from, to) where the voice is heard, or `from` when it is silent throughout. */
function lastSound(samples, rate, from, to) {
  const frame = Math.max(1, Math.round(rate / 100));
  for (let end = Math.min(samples.length, Math.round(to * rate)); end - frame >= Math.round(from * rate); end -= frame) {
    let peak = 0;
    for (let index = end - frame; index < end; index++) peak = Math.max(peak, Math.abs(samples[index]));
    if (peak >= SILENCE) return end / rate;
  }
  return from;
}

const round = (value) => Math.round(value * 1000) / 1000;

/** Words of the text (split at whitespace) timed from the word events. */
function timedWords(text, events, samples, rate) {
  const characters = Array.from(text);
  const tokens = [];
  let current;
  characters.forEach((character, index) => {
    if (/\s/u.test(character)) {
      current = undefined;
      return;
    }
    if (!current) tokens.push((current = { from: index, to: index, word: "" }));
    current.to = index;
    current.word += character;
  });
  const seconds = samples.length / rate;
  // A token starts at the first event reported inside it (text_position counts from 1).
  const starts = tokens.map((token) => {
    const event = events.find((item) => item.text_position - 1 >= token.from && item.text_position - 1 <= token.to);
    return event ? Math.min(event.audio_position / 1000, seconds) : undefined;
  });
  // Tokens no event named (a lone dash) start where the one before them ends.
  for (let index = 0; index < starts.length; index++) {
    if (starts[index] === undefined) starts[index] = index === 0 ? 0 : starts[index - 1];
    else if (index > 0 && starts[index] < starts[index - 1]) starts[index] = starts[index - 1];
  }
  return tokens.map((token, index) => {
    const start = starts[index];
    const next = index + 1 < tokens.length ? starts[index + 1] : seconds;
    const end = Math.max(lastSound(samples, rate, start, next), Math.min(next, start + 0.05));
    return { word: token.word, start: round(start), end: round(Math.min(end, seconds)) };
  });
}

/**
 * Speaks `text` with the system library: { wav, words } (words with start and end in seconds), or
 * { error: "voice_missing" }, or null when the library cannot be loaded here.
 */
export function speakWithLibrary({ text, voice, wordsPerMinute }) {
  const espeak = load();
  if (!espeak) return null;
  const rate = espeak.initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, null, INITIALIZE_DONT_EXIT);
  if (rate <= 0) return null;
  const chunks = [];
  const events = [];
  const size = koffi.sizeof(espeak.Event);
  const callback = koffi.register((wav, count, list) => {
    if (wav && count > 0) chunks.push(Int16Array.from(koffi.decode(wav, "int16", count)));
    for (let offset = 0; list; offset += size) {
      const event = koffi.decode(list, offset, espeak.Event);
      if (event.type === 0) break;
      if (event.type === EVENT_WORD) events.push({ text_position: event.text_position, audio_position: event.audio_position });
    }
    return 0;
  }, koffi.pointer(espeak.Callback));
  try {
    espeak.setCallback(callback);
    // By name (`en-us`, `fr`, `en+f3`), else as a language (`en-gb`), as the command line does.
    if (espeak.setVoice(voice) !== 0 && espeak.setVoiceByProperties({ name: null, languages: voice, identifier: null, gender: 0, age: 0, variant: 0, xx1: 0, score: 0, spare: null }) !== 0) {
      return { error: "voice_missing" };
    }
    espeak.setParameter(PARAMETER_RATE, wordsPerMinute, 0);
    if (espeak.synth(text, Buffer.byteLength(text, "utf8") + 1, 0, POS_CHARACTER, 0, CHARS_UTF8 | END_PAUSE, null, null) !== 0) return null;
    espeak.synchronize();
  } finally {
    koffi.unregister(callback);
  }
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  if (total === 0) return null;
  const samples = new Int16Array(total);
  let at = 0;
  for (const chunk of chunks) {
    samples.set(chunk, at);
    at += chunk.length;
  }
  return { wav: wavFile(samples, rate), words: timedWords(text, events, samples, rate) };
}
