// Each capability's happy path through the real adapters (AI SDK, fal client, hand adapters)
// against the provider stand-in, checking the media that comes back with the tests' own readers
// (PNG and WAV headers, ffprobe) and what reached the provider (model, key, request shape).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ProviderRegistry } from "../src/providers/registry.js";
import type { Media } from "../src/providers/types.js";
import { ELEVENLABS_SECONDS_PER_CHARACTER, SPEECH_SECONDS_PER_CHARACTER, STAND_IN_KEYS, startProviderStandIn, type ProviderStandIn } from "./support/provider-standin/index.js";
import { probeBytes, readPng, readWav, standInProviders } from "./support/provider-standin/inspect.js";

let standIn: ProviderStandIn;
let providers: ProviderRegistry;
let photo: Media;

beforeAll(async () => {
  standIn = await startProviderStandIn();
  providers = standInProviders(standIn);
  // A real PNG to send as input, made by the stand-in's image route.
  photo = (await providers.get("image").generate({ prompt: "a portrait", size: "320x240" })).images[0]!;
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => standIn.reset());

describe("text and vision (Chat Completions)", () => {
  it("answers a prompt, sends the key and the model, and reports tokens", async () => {
    const result = await providers.get("text").generateText({ system: "Be brief.", prompt: "Suggest a title for a video about Lisbon trams", temperature: 0.2 });
    expect(result.text).toContain("Lisbon trams");
    expect(result.meta).toMatchObject({ capability: "text", provider: "openai", model: "gpt-4.1-mini" });
    expect(result.meta.usage.input_tokens).toBeGreaterThan(0);
    expect(result.meta.usage.output_tokens).toBeGreaterThan(0);
    expect(result.meta.duration_ms).toBeGreaterThanOrEqual(0);
    const [call] = standIn.calls("openai.chat");
    expect(call).toMatchObject({ model: "gpt-4.1-mini", credential: STAND_IN_KEYS.openai, status: 200 });
    expect(call?.summary).toMatchObject({ messages: 2, images: 0, response_format: "text" });
  });

  it("returns an object validated by the zod schema, having sent it as a JSON schema", async () => {
    const schema = z.object({
      title: z.string().min(10),
      scenes: z.array(z.object({ caption: z.string(), seconds: z.number().int().min(2).max(8) })).min(3).max(5),
      tone: z.enum(["calm", "upbeat", "nostalgic"]),
      hashtags: z.array(z.string()).max(3),
      sponsor: z.string().nullable(),
    });
    const result = await providers.get("text").generateObject({ prompt: "Plan a nostalgic short about the yellow trams of Lisbon", schema, schemaName: "video_plan" });
    expect(schema.parse(result.object)).toEqual(result.object);
    expect(result.object.tone).toBe("nostalgic");
    expect(result.object.scenes.length).toBeGreaterThanOrEqual(3);
    expect(result.object.title).toMatch(/trams|Lisbon|nostalgic|yellow/i);
    expect(standIn.calls("openai.chat")[0]?.summary).toMatchObject({ response_format: "json_schema", schema_name: "video_plan" });
  });

  it("applies the schema's transforms and defaults to the answer", async () => {
    standIn.answerNext("openai.chat", { seconds: "12" });
    const schema = z.object({ seconds: z.string().transform(Number), label: z.string().default("untitled") });
    const result = await providers.get("text").generateObject({ prompt: "How long?", schema, schemaName: "length" });
    expect(result.object).toEqual({ seconds: 12, label: "untitled" });
  });

  it("describes images, sending every one as an image part", async () => {
    const result = await providers.get("vision").describe({ prompt: "What is in these pictures?", images: [photo, photo] });
    expect(result.text).toContain("read 2 images");
    expect(standIn.calls("openai.chat")[0]?.summary).toMatchObject({ images: 2 });
    const object = await providers.get("vision").describeObject({
      prompt: "Describe the portrait",
      images: [photo],
      schema: z.object({ subject: z.string(), colours: z.array(z.string()).min(1) }),
      schemaName: "portrait",
    });
    expect(object.object.colours.length).toBeGreaterThanOrEqual(1);
    expect(object.meta.capability).toBe("vision");
  });
});

describe("images", () => {
  it("generates PNGs of the asked size and count", async () => {
    const result = await providers.get("image").generate({ prompt: "A yellow tram at dusk", size: "256x128", n: 2, quality: "low" });
    expect(result.images).toHaveLength(2);
    for (const image of result.images) {
      expect(readPng(image.data)).toMatchObject({ width: 256, height: 128 });
      expect(image).toMatchObject({ mediaType: "image/png", width: 256, height: 128 });
    }
    expect(result.meta).toMatchObject({ capability: "image", provider: "openai", model: "gpt-image-1", usage: { images: 2 } });
    expect(standIn.calls("openai.images.generations")[0]?.summary).toMatchObject({ n: 2, size: "256x128", quality: "low" });
  });

  it("edits an image sent as multipart, with its mask", async () => {
    const result = await providers.get("image").edit({ prompt: "Paint the tram red", images: [photo], mask: photo });
    expect(readPng(result.images[0]!.data)).toMatchObject({ width: 320, height: 240 });
    expect(standIn.calls("openai.images.edits")[0]?.summary).toMatchObject({ images: 1, image_types: ["image/png"], mask: true });
  });
});

describe("speech and transcription", () => {
  it("speaks through OpenAI's /audio/speech, as WAV or MP3, about as long as the text", async () => {
    const openai = standInProviders(standIn, { CUTROOM_SPEECH_MODEL: "openai/tts-1" });
    const text = "The trams of Lisbon climb the seven hills every morning.";
    const wav = await openai.get("speech").synthesize({ text, voice: "nova", format: "wav" });
    const decoded = readWav(wav.audio.data);
    expect(decoded.durationSeconds).toBeCloseTo(text.length * SPEECH_SECONDS_PER_CHARACTER, 0);
    expect(wav.audio.mediaType).toBe("audio/wav");
    expect(wav.meta).toMatchObject({ provider: "openai", model: "tts-1", usage: { characters: text.length } });
    expect(wav.meta.usage.seconds).toBeCloseTo(decoded.durationSeconds, 1);
    expect(wav.words).toBeUndefined();

    const mp3 = await openai.get("speech").synthesize({ text, format: "mp3" });
    expect(mp3.audio.mediaType).toBe("audio/mpeg");
    const probe = await probeBytes(mp3.audio.data, "mp3");
    expect(probe.streams[0]?.codec_name).toBe("mp3");
    expect(mp3.audio.durationSeconds).toBeCloseTo(probe.duration!, 1);
    expect(standIn.calls("openai.audio.speech").map((call) => call.summary.format)).toEqual(["wav", "mp3"]);
  });

  it("speaks through ElevenLabs with word timings from its character alignment", async () => {
    const text = "Hello, Lisbon! Trams are yellow.";
    const result = await providers.get("speech").synthesize({ text, format: "wav", speed: 1.1 });
    expect(result.meta).toMatchObject({ provider: "elevenlabs", model: "eleven_multilingual_v2" });
    const decoded = readWav(result.audio.data);
    expect(decoded).toMatchObject({ sampleRate: 44_100, channels: 1, bitsPerSample: 16 });
    expect(decoded.durationSeconds).toBeCloseTo(text.length * ELEVENLABS_SECONDS_PER_CHARACTER, 1);
    expect(result.words?.map((word) => word.word)).toEqual(["Hello", "Lisbon", "Trams", "are", "yellow"]);
    const step = ELEVENLABS_SECONDS_PER_CHARACTER;
    expect(result.words?.[1]).toEqual({ word: "Lisbon", start: expect.closeTo(7 * step, 3), end: expect.closeTo(13 * step, 3) });
    const call = standIn.calls("elevenlabs.speech")[0];
    expect(call).toMatchObject({ credential: STAND_IN_KEYS.elevenlabs, model: "eleven_multilingual_v2" });
    expect(call?.summary).toMatchObject({ output_format: "pcm_44100", speed: 1.1 });
  });

  it("transcribes with word timestamps spanning the recording", async () => {
    const speech = await standInProviders(standIn, { CUTROOM_SPEECH_MODEL: "openai/tts-1" }).get("speech").synthesize({ text: "A recording long enough to hold a few words.", format: "mp3" });
    standIn.answerNext("openai.audio.transcriptions", "A recording long enough to hold a few words");
    const result = await providers.get("transcription").transcribe({ audio: speech.audio, language: "en" });
    expect(result.text).toBe("A recording long enough to hold a few words");
    expect(result.words.map((word) => word.word)).toEqual(["A", "recording", "long", "enough", "to", "hold", "a", "few", "words"]);
    expect(result.wordsEstimated).toBeUndefined();
    for (const [index, word] of result.words.entries()) {
      expect(word.end).toBeGreaterThan(word.start);
      if (index > 0) expect(word.start).toBeGreaterThanOrEqual(result.words[index - 1]!.end);
    }
    expect(result.durationSeconds).toBeCloseTo(speech.audio.durationSeconds!, 1);
    expect(result.words.at(-1)!.end).toBeCloseTo(result.durationSeconds!, 1);
    expect(result.meta).toMatchObject({ provider: "openai", model: "whisper-1", usage: { seconds: result.durationSeconds } });
    expect(standIn.calls("openai.audio.transcriptions")[0]?.summary).toMatchObject({ response_format: "verbose_json", timestamp_granularities: expect.arrayContaining(["word"]), language: "en" });
  });
});

describe("web search", () => {
  it("searches SearXNG's JSON API", async () => {
    const result = await providers.get("search").search({ query: "Lisbon tram 28", limit: 3, freshness: "week", language: "en" });
    expect(result.results).toHaveLength(3);
    expect(result.results[0]).toEqual({ title: "Lisbon tram 28 — result 1", url: "https://example.com/lisbon-tram-28/1", snippet: expect.stringContaining("Lisbon tram 28"), published_at: expect.any(String) });
    expect(result.meta).toMatchObject({ provider: "searxng", model: "general", usage: { requests: 1 } });
    expect(standIn.calls("searxng.search")[0]?.summary).toMatchObject({ q: "Lisbon tram 28", format: "json", time_range: "week", language: "en" });
  });

  it("searches Tavily with its key as a bearer token", async () => {
    const tavily = standInProviders(standIn, { CUTROOM_SEARCH_MODEL: "tavily/advanced" });
    const result = await tavily.get("search").search({ query: "fado houses", limit: 2, freshness: "month" });
    expect(result.results.map((hit) => hit.url)).toEqual(["https://example.com/fado-houses/1", "https://example.com/fado-houses/2"]);
    expect(result.meta).toMatchObject({ provider: "tavily", model: "advanced" });
    expect(standIn.calls("tavily.search")[0]).toMatchObject({ credential: STAND_IN_KEYS.tavily, model: "advanced", summary: { max_results: 2, time_range: "month" } });
  });
});

describe("long-running media (fal queue)", () => {
  it("makes a video: submit, polls with progress, result, download of a real H.264 + AAC MP4", async () => {
    const progress: number[] = [];
    const submitted: string[] = [];
    const result = await providers.get("video").run(
      { prompt: "A tram climbing a hill at dusk", durationSeconds: 2, aspectRatio: "9:16" },
      { onSubmitted: async (id) => void submitted.push(id), onProgress: (percent) => progress.push(percent) },
    );
    expect(submitted).toEqual([result.requestId]);
    expect(progress).toEqual([0, 50, 100]);
    const video = result.outputs[0]!;
    expect(video).toMatchObject({ mediaType: "video/mp4", width: 180, height: 320 });
    const probe = await probeBytes(video.data, "mp4");
    expect(probe.streams.map((stream) => stream.codec_name).sort()).toEqual(["aac", "h264"]);
    expect(probe.duration).toBeCloseTo(2, 0);
    expect(result.meta).toMatchObject({ capability: "video", provider: "fal", model: "fal-ai/kling-video/v2/master/text-to-video", usage: { seconds: video.durationSeconds } });
    const submit = standIn.calls("fal.submit")[0];
    expect(submit).toMatchObject({ credential: STAND_IN_KEYS.fal, model: "fal-ai/kling-video/v2/master/text-to-video" });
    expect(submit?.summary).toMatchObject({ input_keys: ["aspect_ratio", "duration", "prompt"], duration: "2", aspect_ratio: "9:16" });
    expect(standIn.calls("fal.status")).toHaveLength(3);
    expect(standIn.calls("media")).toHaveLength(1);
  });

  it("sends a first frame to the image-to-video endpoint, inline as a data URI", async () => {
    await providers.get("video").run({ prompt: "Bring the portrait to life", image: photo, durationSeconds: 1 });
    const submit = standIn.calls("fal.submit")[0];
    expect(submit?.model).toBe("fal-ai/kling-video/v2/master/image-to-video");
    expect(submit?.summary).toMatchObject({ data_uris: ["image_url:image/png"] });
  });

  it("lip-syncs a photo to a recording: a video as long as the voice", async () => {
    const voice = await standInProviders(standIn, { CUTROOM_SPEECH_MODEL: "openai/tts-1" }).get("speech").synthesize({ text: "Bom dia, Lisboa, and welcome aboard.", format: "wav" });
    const result = await providers.get("lipsync").run({ image: photo, audio: voice.audio });
    expect(result.lipSynced).toBe(true);
    const probe = await probeBytes(result.outputs[0]!.data, "mp4");
    expect(probe.duration).toBeCloseTo(voice.audio.durationSeconds!, 0);
    expect(result.meta).toMatchObject({ capability: "lipsync", provider: "fal", model: "fal-ai/kling-video/v1/pro/ai-avatar" });
    expect(standIn.calls("fal.submit")[0]?.summary).toMatchObject({ data_uris: ["image_url:image/png", "audio_url:audio/wav"] });
  });

  it("makes music from a style and lyrics, or instrumental", async () => {
    const song = await providers.get("music").run({ style: "fado", prompt: "melancholic guitar", lyrics: "[verse]\nSaudade in the tram lines", durationSeconds: 3 });
    const decoded = readWav(song.outputs[0]!.data);
    expect(decoded.durationSeconds).toBeCloseTo(3, 1);
    expect(song.meta).toMatchObject({ capability: "music", model: "fal-ai/ace-step", usage: { seconds: 3 } });
    expect(standIn.calls("fal.submit")[0]?.summary).toMatchObject({ tags: "fado, melancholic guitar", lyrics: "[verse]\nSaudade in the tram lines", duration: 3 });
    await providers.get("music").run({ prompt: "calm piano", instrumental: true, lyrics: "ignored", durationSeconds: 2 });
    expect(standIn.calls("fal.submit")[1]?.summary).toMatchObject({ tags: "calm piano", lyrics: "[inst]" });
  });

  it("removes a background: a PNG with an alpha channel, the input's size", async () => {
    const result = await providers.get("cutout").run({ image: photo });
    expect(readPng(result.outputs[0]!.data)).toEqual({ width: 320, height: 240, colourType: 6 });
    expect(result.meta).toMatchObject({ capability: "cutout", model: "fal-ai/birefnet/v2", usage: { images: 1 } });
  });
});
