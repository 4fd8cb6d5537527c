// The timeline actions (src/timeline/actions/): whisper_analyze, analyze_subtitles,
// translate_subtitles and generate_questions, through the API against the provider stand-in
// (transcriptions with word times over the recording's real length; chat answers in the asked
// JSON shape). Media are served on loopback, allow-listed for the URL guard.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { useService, useStandIn, type Client } from "./support/service.js";
import { balanceOf, funded, ok } from "./support/action-calls.js";

const run = promisify(execFile);
const overrides = { outboundAllow: ["127.0.0.1"] };
const providers = useStandIn(overrides);
const service = useService(overrides);

type Row = Record<string, any>;

let server: Server;
let audioUrl = "";
let shortUrl = "";
beforeAll(async () => {
  const { stdout } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=200:duration=2", "-ac", "1", "-ar", "16000", "-f", "wav", "-"], { encoding: "buffer", maxBuffer: 1 << 20 });
  const wav = stdout as unknown as Buffer;
  const { stdout: longer } = await run(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=300:duration=1.5", "-ac", "1", "-ar", "16000", "-f", "wav", "-"], { encoding: "buffer", maxBuffer: 1 << 20 });
  const short = longer as unknown as Buffer;
  server = createServer((request, response) => {
    const body = request.url === "/short.wav" ? short : wav;
    response.writeHead(200, { "content-type": "audio/wav", "content-length": String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  audioUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice.wav`;
  shortUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/short.wav`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const call = (client: Client, name: string, body: unknown) => client.post(`/api/v1/actions/${name}`, body);

describe("timeline.whisper_analyze", () => {
  it("answers every word with its time over the file's real length, for 3 credits", async () => {
    const { client, workspaceId } = await funded(service, 10);
    providers.standIn.answerNext("openai.audio.transcriptions", "one two three four");
    const answer = ok(await call(client, "timeline.whisper_analyze", { audio_url: audioUrl }));
    expect(answer).toMatchObject({ object: "transcription", audio_url: audioUrl, duration_seconds: 2, text: "one two three four", words_estimated: false, credits: { charged: 3 } });
    expect(answer.words).toEqual([
      { word: "one", start: 0, end: 0.5 }, { word: "two", start: 0.5, end: 1 }, { word: "three", start: 1, end: 1.5 }, { word: "four", start: 1.5, end: 2 },
    ]);
    const sent = providers.standIn.calls("openai.audio.transcriptions").at(-1)!;
    expect(sent.summary).toMatchObject({ response_format: "verbose_json", timestamp_granularities: expect.arrayContaining(["word"]) });
    expect(await balanceOf(service, workspaceId)).toBe(7);
  });
});

describe("timeline.analyze_subtitles", () => {
  it("stores the groups as the video's subtitle track and leaves the composition alone", async () => {
    const { client } = await funded(service, 10);
    const composition = { duration: 2, layers: [{ type: "audio", src: audioUrl }] };
    const video = (await client.post("/api/v1/videos", { video_name: "Analyze", composition })).body as Row;
    providers.standIn.answerNext("openai.audio.transcriptions", "alpha beta gamma delta");
    // Without audio_url: the video's own audio layer is transcribed.
    const answer = ok(await call(client, "timeline.analyze_subtitles", { video_id: video.video_id }));
    expect(answer).toMatchObject({ object: "subtitle_analysis", source_url: audioUrl, word_count: 4, words_per_group: 3 });
    expect((answer.groups as Row[]).map((group) => group.words.length)).toEqual([3, 1]);
    const stored = (await client.get(`/api/v1/videos/${video.video_id}`)).body as Row;
    expect(stored.video_captions).toMatchObject({ source_url: audioUrl, groups: answer.groups });
    expect(stored.composition.layers.map((layer: Row) => layer.type)).toEqual(["audio"]);
  });
});

describe("timeline.translate_subtitles", () => {
  it("translates line by line, keeping each line's time and spreading a group's words over it", async () => {
    const { client } = await funded(service, 10);
    providers.standIn.answerNext("openai.chat", { lines: ["Bonjour tout le monde", "À bientôt"] });
    const answer = ok(await call(client, "timeline.translate_subtitles", {
      target_lang: "fr",
      subtitles: [
        { start: 1, end: 3, words: [{ word: "Hello", start: 1, end: 2 }, { word: "everyone", start: 2, end: 3 }] },
        { start: 3, end: 4, text: "See you soon", speaker: "A" },
      ],
    }));
    expect(answer).toMatchObject({ object: "subtitle_translation", target_lang: "fr", credits: { charged: 2 } });
    expect(answer.subtitles[0]).toEqual({ start: 1, end: 3, words: [
      { word: "Bonjour", start: 1, end: 1.5, emphasis: false }, { word: "tout", start: 1.5, end: 2, emphasis: false },
      { word: "le", start: 2, end: 2.5, emphasis: false }, { word: "monde", start: 2.5, end: 3, emphasis: false },
    ] });
    expect(answer.subtitles[1]).toEqual({ start: 3, end: 4, text: "À bientôt", speaker: "A" });
  });

  it("refuses a line with neither text nor words, before holding anything", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const refused = await call(client, "timeline.translate_subtitles", { target_lang: "fr", subtitles: [{ text: "fine" }, { start: 0 }] });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.issues).toEqual([expect.objectContaining({ path: "subtitles.1" })]);
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });
});

describe("timeline.generate_questions", () => {
  it("writes the asked number of questions in the question layer's shape, 1 credit each", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const answer = ok(await call(client, "timeline.generate_questions", { topic: "Volcanoes", count: 3 }));
    expect(answer).toMatchObject({ object: "question_set", topic: "Volcanoes", preset: "quiz", credits: { charged: 3 } });
    expect(answer.questions).toHaveLength(3);
    for (const question of answer.questions as Row[]) {
      expect(question.answers).toHaveLength(4);
      expect(question.correct).toBeGreaterThanOrEqual(0);
      expect(question.correct).toBeLessThan(4);
    }
    expect(await balanceOf(service, workspaceId)).toBe(7);
    // A would-you-rather has two options and no right answer; a misspelt preset is a 422 with a suggestion.
    const dilemmas = ok(await call(client, "timeline.generate_questions", { topic: "Holidays", count: 1, preset: "would_you_rather" }));
    expect(dilemmas.questions[0]).toMatchObject({ answers: [expect.any(String), expect.any(String)], correct: null });
    const refused = await call(client, "timeline.generate_questions", { topic: "x", preset: "true_fals" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.issues[0]).toMatchObject({ path: "preset", did_you_mean: "true_false" });
  });

  it("a test key gets a quote of count credits and reaches no provider", async () => {
    const owner = await funded(service, 10);
    const test = await owner.newKey({ mode: "test" });
    const before = providers.standIn.calls().length;
    const quote = ok(await call(test.client, "timeline.generate_questions", { topic: "Volcanoes", count: 4 }));
    expect(quote).toMatchObject({ object: "action_quote", livemode: false, units: 4, credits: { cost: 4, charged: 0 } });
    expect(providers.standIn.calls().length).toBe(before);
  });
});

describe("timeline.sync_voice", () => {
  it("sets block durations from the real audio (ffprobe), lays the blocks out and times the groups; free", async () => {
    const { client, workspaceId } = await funded(service, 5);
    const video = (await client.post("/api/v1/videos", {
      video_name: "Sync",
      blocks: [
        { block_id: "q", group_id: "g1", text: "Question", audio_url: audioUrl, duration: 9, pause_after: 0.5 },
        { block_id: "a", group_id: "g1", text: "Answer", audio_url: shortUrl },
        { block_id: "outro", text: "Bye" , duration: 1 },
      ],
      groups: [{ group_id: "g1" }],
    })).body as Row;
    const answer = ok(await call(client, "timeline.sync_voice", { video_id: video.video_id }));
    expect(answer).toMatchObject({ object: "timeline_sync", measured: [{ block_id: "q", index: 0, duration: 2 }, { block_id: "a", index: 1, duration: 1.5 }], without_audio: [2], total_duration: 5 });
    const stored = (await client.get(`/api/v1/videos/${video.video_id}`)).body as Row;
    expect(stored.blocks.map((block: Row) => [block.block_id, block.start, block.duration])).toEqual([["q", 0, 2], ["a", 2.5, 1.5], ["outro", 4, 1]]);
    expect(stored.groups).toEqual([{ group_id: "g1", start: 0, duration: 4 }]);
    expect(await balanceOf(service, workspaceId)).toBe(5);

    // A scope that names what is not there is a 422; nothing is written.
    const refused = await call(client, "timeline.sync_voice", { video_id: video.video_id, scope: "block", block_id: "nope" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.issues[0]).toMatchObject({ path: "block_id" });
  });
});
