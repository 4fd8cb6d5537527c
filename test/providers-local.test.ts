// The local providers, with no key at all: speech from espeak-ng (WASM, in a child process),
// the still-photo lip-sync fallback rendered with ffmpeg, and page reading through the URL guard.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { ApiError } from "../src/errors/api-error.js";
import { runFfmpeg } from "../src/media/ffmpeg.js";
import { OutboundGuard } from "../src/outbound/url-guard.js";
import { createProviders, type ProviderRegistry } from "../src/providers/registry.js";
import type { Media } from "../src/providers/types.js";
import { startProviderStandIn, type ProviderStandIn } from "./support/provider-standin/index.js";
import { peak, probeBytes, readWav } from "./support/provider-standin/inspect.js";

/** No provider key: only local/espeak-ng, local/still and local/readability. */
function localProviders(allow: string[] = []): ProviderRegistry {
  return createProviders(loadConfig({}).providers, { outbound: new OutboundGuard({ allow }) });
}

async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error("the call succeeded");
}

/** This process's live children running the espeak-ng child script. */
async function espeakChildren(): Promise<number[]> {
  const found: number[] = [];
  for (const entry of (await readdir("/proc")).filter((name) => /^\d+$/.test(name))) {
    const status = await readFile(`/proc/${entry}/status`, "utf8").catch(() => "");
    if (/^PPid:\s*(\d+)/m.exec(status)?.[1] !== String(process.pid) || /^State:\s*Z/m.test(status)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmdline.includes("espeak-process")) found.push(Number(entry));
  }
  return found;
}

describe("local/espeak-ng", () => {
  it("is the speech model without keys and speaks a real, non-silent WAV", async () => {
    const providers = localProviders();
    expect(providers.model("speech")?.ref).toBe("local/espeak-ng");
    const result = await providers.get("speech").synthesize({ text: "The tram to Belém leaves every ten minutes." });
    const wav = readWav(result.audio.data);
    expect(wav).toMatchObject({ format: 1, channels: 1, bitsPerSample: 16, sampleRate: 22_050 });
    expect(wav.durationSeconds).toBeGreaterThan(1.5);
    expect(wav.durationSeconds).toBeLessThan(6);
    expect(peak(wav.samples)).toBeGreaterThan(3000);
    expect(result.audio).toMatchObject({ mediaType: "audio/wav", durationSeconds: expect.closeTo(wav.durationSeconds, 2) });
    // The synthesiser's own word positions, in order and inside the audio.
    expect(result.words?.map((word) => word.word)).toEqual(["The", "tram", "to", "Belém", "leaves", "every", "ten", "minutes."]);
    for (const [index, word] of result.words!.entries()) {
      expect(word.end).toBeGreaterThan(word.start);
      if (index > 0) expect(word.start).toBeGreaterThanOrEqual(result.words![index - 1]!.end);
    }
    expect(result.words!.at(-1)!.end).toBeLessThanOrEqual(wav.durationSeconds);
    expect(result.meta).toMatchObject({ capability: "speech", provider: "local", model: "espeak-ng", usage: { characters: 43, seconds: expect.closeTo(wav.durationSeconds, 2) } });
  });

  it("speaks faster at a higher speed, and encodes MP3 when asked", async () => {
    const speech = localProviders().get("speech");
    const text = "One two three four five six seven eight nine ten.";
    const normal = readWav((await speech.synthesize({ text })).audio.data).durationSeconds;
    const fast = readWav((await speech.synthesize({ text, speed: 2 })).audio.data).durationSeconds;
    expect(fast).toBeLessThan(normal * 0.75);
    const mp3 = await speech.synthesize({ text, format: "mp3", voice: "en-gb" });
    expect(mp3.audio.mediaType).toBe("audio/mpeg");
    const probe = await probeBytes(mp3.audio.data, "mp3");
    expect(probe.streams[0]?.codec_name).toBe("mp3");
    expect(probe.duration).toBeGreaterThan(1);
  });

  it("refuses a voice espeak-ng does not have with 400 naming the parameter", async () => {
    const error = await failureOf(localProviders().get("speech").synthesize({ text: "Hello", voice: "xx-nowhere" }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "invalid_request", param: "voice" });
  });

  it("synthesises in a child process of its own, which ends with the call (the event loop stays free)", async () => {
    const text = Array.from({ length: 24 }, (_, index) => `Sentence number ${index + 1} about the trams, the river and the hills of the city.`).join(" ");
    // While the call runs, this process keeps looking for its espeak child: a look can only
    // happen if the event loop is free, and it can only find one if the WASM runs out of process.
    const seen = new Set<number>();
    let running = true;
    const watch = (async () => {
      while (running) {
        for (const pid of await espeakChildren()) seen.add(pid);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      await localProviders().get("speech").synthesize({ text });
    } finally {
      running = false;
      await watch;
    }
    expect(seen.size).toBeGreaterThanOrEqual(1);
    expect(await espeakChildren()).toEqual([]);
  });

  it("stops at the time limit and reports upstream_error", async () => {
    const providers = createProviders(loadConfig({ CUTROOM_PROVIDER_TIMEOUT_MS: "50" }).providers, { outbound: new OutboundGuard({ allow: [] }) });
    const error = await failureOf(providers.get("speech").synthesize({ text: "This will not finish within fifty milliseconds." }));
    expect(error).toMatchObject({ code: "upstream_error", details: { provider: "local", model: "espeak-ng", reason: "timeout" } });
  });
});

describe("local/still", () => {
  let dir: string;
  let photo: Media;
  let voice: Media;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-still-test-"));
    // Odd dimensions on purpose: the output must still have even ones (x264 needs them).
    await runFfmpeg(["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=301x201", "-frames:v", "1", path.join(dir, "photo.png")], { timeoutMs: 30_000 });
    await runFfmpeg(["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=16000:duration=1.6", path.join(dir, "voice.wav")], { timeoutMs: 30_000 });
    photo = { data: new Uint8Array(await readFile(path.join(dir, "photo.png"))), mediaType: "image/png" };
    voice = { data: new Uint8Array(await readFile(path.join(dir, "voice.wav"))), mediaType: "audio/wav" };
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("holds the photo over the recording: H.264 + AAC MP4, even size, the voice's length, marked not lip-synced", async () => {
    const providers = localProviders();
    expect(providers.model("lipsync")?.ref).toBe("local/still");
    const progress: number[] = [];
    const result = await providers.get("lipsync").run({ image: photo, audio: voice }, { onProgress: (percent) => progress.push(percent) });
    expect(result.lipSynced).toBe(false);
    expect(result.meta).toMatchObject({ capability: "lipsync", provider: "local", model: "still" });
    expect(progress.at(-1)).toBe(100);
    const probe = await probeBytes(result.outputs[0]!.data, "mp4");
    const video = probe.streams.find((stream) => stream.codec_type === "video");
    const audio = probe.streams.find((stream) => stream.codec_type === "audio");
    expect(video).toMatchObject({ codec_name: "h264", width: 300, height: 200 });
    expect(audio?.codec_name).toBe("aac");
    expect(probe.duration).toBeGreaterThan(1.5);
    expect(probe.duration).toBeLessThan(1.8);
    expect(result.meta.usage.seconds).toBeCloseTo(probe.duration!, 1);
    expect(result.outputs[0]).toMatchObject({ mediaType: "video/mp4", width: 300, height: 200 });
  });

  it("refuses a photo that is not an image", async () => {
    const error = await failureOf(localProviders().get("lipsync").run({ image: voice, audio: voice }));
    expect(error).toMatchObject({ code: "invalid_request", param: "image" });
  });
});

describe("local/readability", () => {
  let standIn: ProviderStandIn;
  beforeAll(async () => {
    standIn = await startProviderStandIn();
  });
  afterAll(async () => {
    await standIn.close();
  });
  beforeEach(() => standIn.reset());

  it("reads a loopback page's main text through the URL guard: title, byline, paragraphs, no chrome", async () => {
    const result = await localProviders(["127.0.0.1"]).get("page").read(`${standIn.url}/web/article`);
    expect(result.url).toBe(`${standIn.url}/web/article`);
    expect(result.title).toContain("How the stand-in reads");
    expect(result.byline).toBe("Ada Example");
    const paragraphs = result.text.split("\n\n");
    expect(paragraphs).toEqual(expect.arrayContaining([expect.stringMatching(/^Readable pages keep their main text/), expect.stringMatching(/^The second paragraph/), "What comes back", expect.stringMatching(/^The third paragraph/)]));
    for (const chrome of ["Subscribe", "All rights reserved", "tracking", "font-family"]) expect(result.text).not.toContain(chrome);
    expect(result.meta).toMatchObject({ capability: "page", provider: "local", model: "readability", usage: { requests: 1 } });
  });

  it("follows a redirect, checking the next address again; reads plain text as it is", async () => {
    const providers = localProviders(["127.0.0.1"]);
    const redirected = await providers.get("page").read(`${standIn.url}/web/redirect`);
    expect(redirected.url).toBe(`${standIn.url}/web/article`);
    expect(standIn.calls("web").map((call) => call.status)).toEqual([302, 200]);
    const plain = await providers.get("page").read(`${standIn.url}/web/plain`);
    expect(plain.text).toBe("Plain words.\n\nA second paragraph.");
  });

  it("refuses private addresses the guard does not allow, before connecting", async () => {
    const reader = localProviders(["127.0.0.1"]).get("page");
    for (const [url, reason] of [["https://10.1.2.3/internal", "address_not_public"], ["https://192.168.1.1/", "address_not_public"], [standIn.url.replace("127.0.0.1", "localhost") + "/web/article", "scheme_not_allowed"]] as const) {
      const error = await failureOf(reader.read(url));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: "invalid_request", param: "url", details: { reason } });
    }
    // Without loopback on the allow-list, the stand-in's own page is refused too.
    const error = await failureOf(localProviders().get("page").read(`${standIn.url}/web/article`));
    expect(error).toMatchObject({ code: "invalid_request", param: "url" });
    expect(standIn.calls("web")).toHaveLength(0);
  });

  it("reports a page that is missing as the caller's problem, and one that fails as upstream", async () => {
    const reader = localProviders(["127.0.0.1"]).get("page");
    expect(await failureOf(reader.read(`${standIn.url}/web/missing`))).toMatchObject({ code: "invalid_request", details: { status: 404 } });
    standIn.failNext("web", { status: 503 });
    expect(await failureOf(reader.read(`${standIn.url}/web/article`))).toMatchObject({ code: "upstream_error", details: { provider: "local", capability: "page", provider_status: 503 } });
  });
});
