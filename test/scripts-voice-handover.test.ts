// Done-when of scripts part 2 (voice): an offline voice-over with local/espeak-ng and no provider
// keys — create, write, voice, export vtt, to_video, render — and the MP4 lasts what
// scripts.narration says, within 0.2 s. Runs real workers (the render) in an environment of its own,
// on a default configuration: no outbound allow-list, so the render reads the takes (`take:`
// references) and the re-timed copy (the service's own signed link) from storage, not over HTTP.
import { describe, expect, it } from "vitest";
import { addCredits } from "../src/credits/ledger.js";
import { probeMedia } from "../src/media/probe.js";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createFixture, isolatedEnvironment, useService, type Client } from "./support/service.js";
import { ok, renderEnded } from "./support/action-calls.js";

const environment = isolatedEnvironment("voice-handover", { runWorkers: true, renderPreset: "ultrafast", dispatchIntervalMs: 60_000 });
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;
const run = promisify(execFile);

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/${name}`, input);
const get = (client: Client, name: string, query: string) => client.get(`/api/v1/actions/${name}?${query}`);

describe("an offline voice-over", () => {
  it("creates, writes, voices, exports vtt, hands over to a video and renders an MP4 as long as the narration", async () => {
    const { client, workspaceId } = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 100, actionType: "grant" }));

    const { script_id: scriptId } = ok(await call(client, "scripts.create", { title: "Tides", speaker: "Host", format: "landscape" }));
    const lines = ["The sea rises twice a day.", "The moon pulls the water toward it.", "That is why we have tides."];
    const ids: string[] = [];
    for (const text of lines) ids.push(ok(await call(client, "scripts.insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
    ok(await call(client, "scripts.settings", { script_id: scriptId, default_voice_ref: "local/en-us" }));
    ok(await call(client, "scripts.pace", { script_id: scriptId, paragraph_ids: [ids[1]], rate: 1.25 }));

    const voiced = ok(await call(client, "scripts.voice", { script_id: scriptId }));
    expect(voiced.voiced).toHaveLength(3);
    expect(voiced.voiced.every((entry: Row) => entry.model === "local/espeak-ng")).toBe(true);

    const narration = ok(await get(client, "scripts.narration", `script_id=${scriptId}`));
    expect(narration).toMatchObject({ complete: true, unrecorded: [] });
    const vtt = ok(await get(client, "scripts.export", `script_id=${scriptId}&format=vtt`));
    expect(vtt.timing).toBe("recordings");
    const cues = [...(vtt.content as string).matchAll(/--> (\d\d):(\d\d):(\d\d)\.(\d{3})/g)];
    const [, hours, minutes, seconds, millis] = cues.at(-1)!.map(Number);
    expect(((hours! * 60 + minutes!) * 60 + seconds!) * 1000 + millis!).toBe(narration.runtime_ms);

    const handed = ok(await call(client, "scripts.to_video", { script_id: scriptId }));
    expect(handed).toMatchObject({ object: "script_video", video_format: "landscape", runtime_ms: narration.runtime_ms, voiced: 3, unvoiced: [], credits: { charged: 2 } });
    expect(handed.scenes.map((scene: Row) => [scene.paragraph_id, scene.recording.take_id, scene.recording.rate])).toEqual(narration.parts.map((part: Row) => [part.paragraph_id, part.take_id, part.rate]));
    const audio = handed.video.composition.layers.filter((layer: Row) => layer.type === "audio");
    expect(audio.map((layer: Row) => layer.src)).toEqual([
      `take:${handed.scenes[0].recording.take_id}`,
      expect.stringMatching(/^http:\/\/[^/]+\/files\/handover\//),
      `take:${handed.scenes[2].recording.take_id}`,
    ]);
    expect(ok(await client.get(`/api/v1/scripts/${scriptId}`)).video_id).toBe(handed.video_id);

    const render = ok(await call(client, "renders.create", { video_id: handed.video_id }));
    const finished = await renderEnded(client, handed.video_id, render.render_id, 240_000);
    expect(finished.render_status, JSON.stringify(finished)).toBe("completed");
    const file = path.join(os.tmpdir(), `voice-handover-${render.render_id}.mp4`);
    await writeFile(file, new Uint8Array(await (await fetch(finished.output_url)).arrayBuffer()));
    const probe = await probeMedia(file);
    expect(probe.streams.some((stream) => stream.codec_type === "audio")).toBe(true);
    expect(Math.abs(probe.duration! - narration.runtime_ms / 1000)).toBeLessThanOrEqual(0.2);
    // The narration is in it: the voice is heard, not a silent track.
    const { stderr } = await run(FFMPEG_PATH, ["-hide_banner", "-i", file, "-af", "volumedetect", "-vn", "-f", "null", "-"]);
    expect(Number(/mean_volume: (-?[\d.]+) dB/.exec(stderr)![1])).toBeGreaterThan(-40);
  }, 300_000);
});
