// faceless.parse_script's splitting, without a model: a scene per paragraph (blank-line separated),
// a paragraph longer than MAX_SCENE_WORDS cut at sentence ends into scenes of at most that many
// words (a sentence longer than that is a scene of its own). Headings (`#…`, `Scene 3:`) and
// bracketed directions (`[music]`) are not narration: a direction becomes the next scene's visual.
export const MAX_SCENE_WORDS = 60;
/** A composition holds at most 100 layers and a scene takes three. */
export const MAX_SCENES = 30;

export interface SplitScene {
  text: string;
  direction: string | null;
}

const words = (text: string) => text.split(/\s+/u).filter(Boolean).length;

function sentences(paragraph: string): string[] {
  return paragraph.match(/[^.!?…]+(?:[.!?…]+["'»”)]*|$)/gu)?.map((part) => part.trim()).filter(Boolean) ?? [paragraph];
}

export function splitScript(script: string): SplitScene[] {
  const scenes: SplitScene[] = [];
  let direction: string | null = null;
  for (const block of script.replace(/\r\n?/gu, "\n").split(/\n\s*\n/u)) {
    const lines: string[] = [];
    for (const raw of block.split("\n")) {
      const line = raw.trim();
      if (!line || /^#+\s/u.test(line) || /^(scene|act|part)\s*\d+\s*[:.-]?\s*$/iu.test(line)) continue;
      const bracket = /^\[(.+)\]$/u.exec(line) ?? /^\((.+)\)$/u.exec(line);
      if (bracket) {
        direction = bracket[1]!.trim();
        continue;
      }
      lines.push(line.replace(/^(scene|act|part)\s*\d+\s*[:.-]\s*/iu, ""));
    }
    const paragraph = lines.join(" ").replace(/\s+/gu, " ").trim();
    if (!paragraph) continue;
    let current = "";
    for (const sentence of sentences(paragraph)) {
      if (current && words(current) + words(sentence) > MAX_SCENE_WORDS) {
        scenes.push({ text: current, direction });
        direction = null;
        current = "";
      }
      current = current ? `${current} ${sentence}` : sentence;
    }
    if (current) {
      scenes.push({ text: current.slice(0, 5_000), direction });
      direction = null;
    }
  }
  return scenes;
}
