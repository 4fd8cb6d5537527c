// The text layout and font choice on their own (no ffmpeg): lines broken with the font's metrics,
// right-to-left order, and the font the service picks for text it writes itself (hand-overs,
// exports, narration), which always passes the font pre-flight.
import { describe, expect, it } from "vitest";
import { layoutText } from "../src/media/fonts/layout.js";
import { compositionShape } from "../src/video-model/timeline/composition.js";
import { checkCompositionText, drawableText } from "../src/video-model/timeline/text-checks.js";
import { catalogFont } from "../src/video-model/timeline/text-fit.js";

describe("text layout", () => {
  const sans = catalogFont("sans", 400);

  it("breaks lines between words by measured width, a narrower glyph run fitting more", () => {
    const block = layoutText({ text: "iiii iiii iiii iiii WWWW WWWW WWWW WWWW", font: sans, size: 40, width: 300, align: "left", lineHeight: 1.2 });
    expect(block.lines.length).toBeGreaterThan(1);
    expect(block.lines.every((line) => line.width <= 300)).toBe(true);
    // The thin i's share lines; the wide W's need more of them for the same number of letters.
    const words = block.lines.map((line) => line.pieces.length);
    expect(words[0]).toBeGreaterThan(words.at(-1)!);
  });

  it("breaks a word wider than the box between graphemes, and CJK between ideographs", () => {
    const long = layoutText({ text: "Supercalifragilisticexpialidocious", font: sans, size: 60, width: 250, align: "left", lineHeight: 1.2 });
    expect(long.brokeWord).toBe(true);
    expect(long.lines.every((line) => line.width <= 250)).toBe(true);
    const cjk = layoutText({ text: "日本語の文章は単語の間に空白がありません", font: catalogFont("noto_sans_cjk_jp", 400), size: 60, width: 400, align: "left", lineHeight: 1.2 });
    expect(cjk.brokeWord).toBe(false);
    expect(cjk.lines.length).toBeGreaterThan(1);
  });

  it("orders an Arabic line right to left, a Latin word inside it kept left to right", () => {
    const block = layoutText({ text: "مرحبا Cutroom بالعالم", font: catalogFont("noto_sans_arabic", 400), size: 40, width: 1000, align: "center", lineHeight: 1.2 });
    const pieces = [...block.lines[0]!.pieces].sort((a, b) => a.x - b.x).map((piece) => piece.text.trim());
    expect(pieces).toEqual(["بالعالم", "Cutroom", "مرحبا"]);
  });
});

describe("the font for text the service writes", () => {
  it("keeps sans when it draws the text, picks the script's family otherwise, drops what no font draws", () => {
    expect(drawableText("Hello, Привет")).toEqual({ font: "sans", text: "Hello, Привет" });
    expect(drawableText("こんにちは世界").font).toBe("noto_sans_cjk_jp");
    expect(drawableText("नमस्ते").font).toBe("noto_sans_devanagari");
    for (const text of ["Party time 🎉🎉", "こんにちは 🎉", "नमस्ते दुनिया!", "plain"]) {
      const shown = drawableText(text);
      const composition = compositionShape.parse({ duration: 1, layers: [{ type: "text", text: shown.text, font: shown.font, auto_fit: true }] });
      expect(checkCompositionText(composition, "landscape"), text).toEqual([]);
    }
  });
});
