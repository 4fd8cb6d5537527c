// Filming and clips (docs/scripts.md, "Filming and clips"), offline with local/still and real
// workers: scripts.film reports what is missing, quotes, answers at once and bills per second of
// clip; the operation films each clip from the speaker's photo (fetched through the URL guard) and
// the chosen take; scripts.clips, choose_clip and delete_clip follow contract section 3 (the file
// stays on storage, nothing is refunded); to_video hands the chosen clip over.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCredits } from "../src/credits/ledger.js";
import { FFMPEG_PATH } from "../src/media/binaries.js";
import { createFixture, isolatedEnvironment, useService, type Client } from "./support/service.js";
import { balanceOf, ok, refused } from "./support/action-calls.js";
import { waitFor } from "./support/wait.js";

const environment = isolatedEnvironment("scripts-film", { runWorkers: true, outboundAllow: ["127.0.0.1"], dispatchIntervalMs: 60_000 });
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;

let faceServer: Server;
let faceUrl: string;
let faceDir: string;

beforeAll(async () => {
  faceDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-film-face-"));
  const file = path.join(faceDir, "face.png");
  await promisify(execFile)(FFMPEG_PATH, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=320x240:d=1", "-frames:v", "1", file]);
  const png = await readFile(file);
  faceServer = createServer((request, response) => {
    if (request.url !== "/face.png") return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "image/png", "content-length": String(png.length) }).end(png);
  });
  await new Promise<void>((resolve) => faceServer.listen(0, "127.0.0.1", resolve));
  faceUrl = `http://127.0.0.1:${(faceServer.address() as AddressInfo).port}/face.png`;
});
afterAll(async () => {
  faceServer?.closeAllConnections();
  await new Promise((resolve) => faceServer?.close(resolve));
  await rm(faceDir, { recursive: true, force: true });
});

const call = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const clipsOf = async (client: Client, scriptId: string) => ok(await client.get(`/api/v1/actions/scripts.clips?script_id=${scriptId}`));

async function settled(client: Client, scriptId: string): Promise<Row> {
  return waitFor(
    "no clip to be running",
    async () => {
      const clips = await clipsOf(client, scriptId);
      return clips.paragraphs.some((paragraph: Row) => paragraph.attempts.some((clip: Row) => clip.status === "running")) ? undefined : clips;
    },
    60_000,
    250,
  );
}

describe("filming", () => {
  it("reports what is missing, bills per second of clip, films from the photo and the take, and follows section 3", async () => {
    const { client, workspaceId } = await createFixture(service);
    await prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount: 200, actionType: "grant" }));
    const { script_id: scriptId } = ok(await call(client, "create", { speaker: "Host" }));
    const ids: string[] = [];
    for (const text of ["A short opening line.", "Not recorded."]) ids.push(ok(await call(client, "insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);

    // Nothing to film yet: no face, no recording — reported, nothing spent, nothing queued.
    const nothing = ok(await call(client, "film", { script_id: scriptId }));
    expect(nothing).toMatchObject({ operation_id: null, clips: [], credits: { cost: 0, charged: 0 } });
    expect(nothing.skipped).toEqual([
      { paragraph_id: ids[0], reason: "missing", missing: ["face", "recording"] },
      { paragraph_id: ids[1], reason: "missing", missing: ["face", "recording"] },
    ]);
    ok(await call(client, "set_speaker_face", { script_id: scriptId, image_url: faceUrl }));
    const voiced = ok(await call(client, "voice", { script_id: scriptId, paragraph_ids: [ids[0]], voice_ref: "local/en-us" }));
    const takeMs = voiced.voiced[0].duration_ms as number;
    const seconds = Math.ceil(takeMs / 1000);

    const quote = ok(await call(client, "film", { script_id: scriptId, dry_run: true }));
    expect(quote).toMatchObject({ model: "local/still", lip_synced: false, quote: { paragraphs: 1, seconds, credits: seconds * 3 }, credits: { charged: 0 } });
    expect(quote.skipped).toEqual([{ paragraph_id: ids[1], reason: "missing", missing: ["recording"] }]);
    refused(await call(client, "film", { script_id: scriptId, model_id: "fal/fal-ai/nothing" }), 422, "validation_failed");

    const before = await balanceOf(service, workspaceId);
    const started = ok(await call(client, "film", { script_id: scriptId }));
    expect(started).toMatchObject({ operation_id: expect.stringMatching(/^op_/), clips: [{ paragraph_id: ids[0], take_id: voiced.voiced[0].chosen_take_id, seconds, credits: seconds * 3, status: "running" }], credits: { cost: seconds * 3, charged: seconds * 3, held: true } });
    const first = started.clips[0].clip_id;
    let clips = await settled(client, scriptId);
    expect(clips.paragraphs[0]).toMatchObject({ status: "ready", chosen_clip_id: first, attempts: [{ clip_id: first, status: "completed", model: "local/still", lip_synced: false, credits: seconds * 3, chosen: true }] });
    expect(Math.abs(clips.paragraphs[0].attempts[0].duration_ms - takeMs)).toBeLessThan(150);
    expect(clips.speakers_with_face).toMatchObject([{ name: "Host", face_url: faceUrl }]);
    expect(clips.models.map((model: Row) => model.model_id)).toContain("local/still");
    expect(await balanceOf(service, workspaceId)).toBe(before - seconds * 3);

    // Already filmed against that take: left alone unless force.
    const again = ok(await call(client, "film", { script_id: scriptId, paragraph_ids: [ids[0]] }));
    expect(again).toMatchObject({ operation_id: null, clips: [], skipped: [{ paragraph_id: ids[0], reason: "filmed" }] });
    const second = ok(await call(client, "film", { script_id: scriptId, paragraph_ids: [ids[0]], force: true })).clips[0].clip_id;
    clips = await settled(client, scriptId);
    expect(clips.paragraphs[0].attempts.map((clip: Row) => clip.clip_id)).toEqual([second, first]);
    expect(clips.paragraphs[0].chosen_clip_id).toBe(second);

    const chosen = ok(await call(client, "choose_clip", { script_id: scriptId, paragraph_id: ids[0], clip_id: first }));
    expect(chosen).toMatchObject({ chosen_clip_id: first, previous_clip_id: second, changed: true });
    const fileUrl = clips.paragraphs[0].attempts[1].url as string;
    const balance = await balanceOf(service, workspaceId);
    const deleted = ok(await call(client, "delete_clip", { script_id: scriptId, paragraph_id: ids[0], clip_id: first }));
    expect(deleted).toMatchObject({ deleted_clip_id: first, chosen_clip_id: second, chosen_changed: true, file_kept: true, credits_refunded: 0 });
    expect((await fetch(fileUrl)).status).toBe(200);
    expect(await balanceOf(service, workspaceId)).toBe(balance);
    refused(await call(client, "choose_clip", { script_id: scriptId, paragraph_id: ids[0], clip_id: first }), 404, "not_found");
    const last = ok(await call(client, "delete_clip", { script_id: scriptId, paragraph_id: ids[0], clip_id: second }));
    expect(last).toMatchObject({ chosen_clip_id: null, chosen_changed: true });

    // The hand-over carries the chosen clip where one exists.
    const third = ok(await call(client, "film", { script_id: scriptId, paragraph_ids: [ids[0]] })).clips[0].clip_id;
    await settled(client, scriptId);
    const handed = ok(await call(client, "to_video", { script_id: scriptId }));
    expect(handed.scenes.map((scene: Row) => scene.clip?.clip_id ?? null)).toEqual([third, null]);
    expect(handed.unvoiced).toEqual([ids[1]]);
  });
});
