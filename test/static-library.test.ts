// assets.static_library and the backgrounds shelf (docs/generation.md, "Static library"): a
// fresh install makes its own shelf at startup (ffmpeg stills, patterns and loops, overlays with
// transparency, short sounds, with thumbnails), stores it in the file service and serves it by
// signed links. Checked here: every file downloads and is what it says (sharp for images, ffprobe
// for video and audio), the background rows are the shared shelf every workspace reads, and
// seeding again changes nothing but the links.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { createFileService } from "../src/storage/from-config.js";
import sharp from "sharp";
import { seedStaticLibrary, SHELF } from "../src/assets/static-library.js";
import { probeBytes } from "./support/provider-standin/inspect.js";
import { ok } from "./support/action-calls.js";
import { createFixture, isolatedEnvironment, useService } from "./support/service.js";

type Row = Record<string, any>;

// A database of this file's own: every service that starts re-signs the shelf's rows for its own
// address, and a service of another file starting mid-test would re-sign them under this one.
const environment = isolatedEnvironment("static_library");
const service = useService(environment.overrides);
const prisma = () => service.service.database.prisma;

async function download(url: string): Promise<{ type: string | null; data: Buffer }> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return { type: response.headers.get("content-type"), data: Buffer.from(await response.arrayBuffer()) };
}

/** A signed link of this service, at this service's address. */
function here(link: string): string {
  const url = new URL(link);
  return new URL(`${url.pathname}${url.search}`, service.url).toString();
}

describe("assets.static_library", () => {
  it("lists the backgrounds, overlays and sounds the service made, each file real and as described", async () => {
    const { client } = await createFixture(service);
    const library = ok(await client.get("/api/v1/actions/assets.static_library"));
    expect(library).toMatchObject({ object: "static_library", category: null });
    const counts = Object.fromEntries(["backgrounds", "overlays", "sounds"].map((category) => [category, library.data.filter((item: Row) => item.category === category).length]));
    expect(counts).toEqual({ backgrounds: 6, overlays: 2, sounds: 3 });

    for (const item of library.data as Row[]) {
      const file = await download(item.url);
      expect(file.type, item.ref).toBe(item.content_type);
      expect(file.data.length, item.ref).toBe(item.size_bytes);
      if (item.kind === "image") {
        const meta = await sharp(file.data).metadata();
        expect(meta, item.ref).toMatchObject({ format: "png", width: item.width, height: item.height });
        // Overlays are see-through.
        if (item.category === "overlays") expect(meta.hasAlpha, item.ref).toBe(true);
      } else {
        const probe = await probeBytes(new Uint8Array(file.data), item.kind === "video" ? "mp4" : "mp3");
        expect(probe.duration, item.ref).toBeCloseTo(item.duration_seconds, 1);
        expect(probe.streams.some((stream) => stream.codec_type === item.kind), item.ref).toBe(true);
        if (item.kind === "video") expect(probe.duration!).toBeGreaterThan(1.5);
      }
      if (item.kind === "audio") expect(item.thumbnail_url).toBeNull();
      else {
        const thumbnail = await download(item.thumbnail_url);
        expect(thumbnail.type).toBe("image/jpeg");
        expect((await sharp(thumbnail.data).metadata()).width).toBe(96);
      }
    }
    expect(library.data.filter((item: Row) => item.is_loop).map((item: Row) => item.ref).sort()).toEqual(["bg_shelf_aurora_loop", "bg_shelf_scanline_loop", "snd_shelf_ambient_pad"]);
  });

  it("keeps one category; an unknown category is 422 listing the three; a test key reads the same; GraphQL too", async () => {
    const fixture = await createFixture(service);
    const sounds = ok(await fixture.client.get("/api/v1/actions/assets.static_library?category=sounds"));
    expect(sounds.category).toBe("sounds");
    expect(sounds.data.map((item: Row) => item.kind)).toEqual(["audio", "audio", "audio"]);
    const wrong = await fixture.client.get("/api/v1/actions/assets.static_library?category=fonts");
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details.issues[0]).toMatchObject({ path: "category", allowed: ["backgrounds", "overlays", "sounds"] });
    const test = await fixture.newKey({ mode: "test" });
    const overlays = ok(await test.client.get("/api/v1/actions/assets.static_library?category=overlays"));
    expect(overlays.data.map((item: Row) => item.ref)).toEqual(["ovl_shelf_vignette", "ovl_shelf_light_leak"]);
    const answer = await fixture.client.graphql(`{ assets_static_library(input: {category: "backgrounds"}) { object data { ref kind url } } }`);
    expect(answer.body.errors, answer.text).toBeUndefined();
    expect(answer.body.data.assets_static_library.data).toHaveLength(6);
  });
});

describe("the backgrounds shelf", () => {
  it("is read by every workspace through the backgrounds resource, with links that serve the files", async () => {
    for (const { client } of [await createFixture(service), await createFixture(service)]) {
      const page = ok(await client.get("/api/v1/backgrounds?limit=100&sort=sort_order"));
      const shelf = (page.data as Row[]).filter((row) => row.background_ref.startsWith("bg_shelf_"));
      expect(shelf.map((row) => row.background_ref).sort()).toEqual(SHELF.filter((item) => item.category === "backgrounds").map((item) => item.ref).sort());
      const loop = ok(await client.get("/api/v1/backgrounds/bg_shelf_aurora_loop"));
      expect(loop).toMatchObject({ object: "background", kind: "video", is_loop: true, orientation: "portrait", width: 180, height: 320 });
      // Rows carry links signed for the address the service was given: the path and signature are
      // what count, so they are read from this service.
      const video = await download(here(loop.media_url));
      expect(video.type).toBe("video/mp4");
      expect((await probeBytes(new Uint8Array(video.data), "mp4")).streams[0]).toMatchObject({ codec_type: "video", width: 180, height: 320 });
      expect((await download(here(loop.thumbnail_url))).type).toBe("image/jpeg");
    }
  });

  it("seeding again (a restart, or a second process) keeps the files and the rows, and re-signs the links", async () => {
    const before = await prisma().background.findMany({ where: { background_ref: { startsWith: "bg_shelf_" } }, orderBy: { background_ref: "asc" } });
    // The file service of this test's service: the same data directory, the same database's signing secret.
    const files = await createFileService(prisma(), { ...loadConfig({}), dataDir: environment.dataDir });
    const manifestBefore = await files.storage.stat("static/library/manifest.json");
    const [first, second] = await Promise.all([
      seedStaticLibrary(prisma(), files, "http://shelf.example"),
      seedStaticLibrary(prisma(), files, "http://shelf.example"),
    ]);
    expect(second).toEqual(first);
    const after = await prisma().background.findMany({ where: { background_ref: { startsWith: "bg_shelf_" } }, orderBy: { background_ref: "asc" } });
    expect(after.map((row) => [row.background_ref, row.width, row.height, row.duration_seconds, row.created_at])).toEqual(before.map((row) => [row.background_ref, row.width, row.height, row.duration_seconds, row.created_at]));
    expect(after.every((row) => row.media_url.startsWith("http://shelf.example/files/static/library/"))).toBe(true);
    expect((await files.storage.stat("static/library/manifest.json"))?.lastModified).toEqual(manifestBefore?.lastModified);
    // Back to this service's address for whoever reads the rows next.
    await seedStaticLibrary(prisma(), files, service.url);
  });
});
