// The ffmpeg check at start (src/media/tool-versions.ts): Debian's 5.1 passes, anything older is
// refused with the fix in the message, and a missing binary says how to install it.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkMediaTools, isSupportedVersion, parseToolVersion } from "../src/media/tool-versions.js";

const run = promisify(execFile);

describe("media tools at start", () => {
  it("reads version lines and accepts 5.1 or later only", () => {
    expect(parseToolVersion("ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026")).toBe("5.1.9-0+deb12u1");
    expect(parseToolVersion("ffprobe version 4.1 Copyright")).toBe("4.1");
    expect(parseToolVersion("something else")).toBeUndefined();
    for (const version of ["5.1.9-0+deb12u1", "5.1", "6.0", "7.1.1", "n6.1.2", "N-112345-gabc"]) expect(isSupportedVersion(version)).toBe(true);
    for (const version of ["4.1", "4.4.2-0ubuntu", "5.0.3", "3.4", "junk"]) expect(isSupportedVersion(version)).toBe(false);
  });

  it("finds the machine's ffmpeg and ffprobe and reports their versions", async () => {
    const versions = await checkMediaTools();
    expect(isSupportedVersion(versions.ffmpeg)).toBe(true);
    expect(isSupportedVersion(versions.ffprobe)).toBe(true);
  });

  it("refuses to start with an old ffmpeg or none, naming the fix", async () => {
    // A stand-in binary printing the 2018 build's version line, named by the settings.
    const dir = await mkdtemp(path.join(os.tmpdir(), "cutroom-old-ffmpeg-"));
    const old = path.join(dir, "ffmpeg");
    await writeFile(old, "#!/bin/sh\necho 'ffmpeg version 4.1 Copyright (c) 2000-2018 the FFmpeg developers'\n", { mode: 0o755 });
    const attempt = async (binary: string) => {
      const script = `
        const { checkMediaTools } = await import(${JSON.stringify(new URL("../src/media/tool-versions.ts", import.meta.url).pathname)});
        try { await checkMediaTools(); console.log("accepted"); } catch (error) { console.log(error.message); }
      `;
      const env = { ...process.env, CUTROOM_FFMPEG_PATH: binary, CUTROOM_FFPROBE_PATH: binary };
      return (await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { env })).stdout;
    };
    try {
      const tooOld = await attempt(old);
      expect(tooOld).toContain("ffmpeg 4.1 is too old");
      expect(tooOld).toContain("apt-get install -y ffmpeg");
      const missing = await attempt(path.join(dir, "nowhere"));
      expect(missing).toContain("could not be run");
      expect(missing).toContain("apt-get install -y ffmpeg");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
