// Types for webvtt-parser (W3C's WebVTT parser, used by the export tests): only what they use.
declare module "webvtt-parser" {
  export interface WebVTTNode {
    type: "text" | "object" | "timestamp";
    name?: string;
    value?: string;
    children?: WebVTTNode[];
  }
  export interface WebVTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
    tree: { children: WebVTTNode[] };
  }
  export interface WebVTTResult {
    cues: WebVTTCue[];
    errors: { message: string; line: number; col?: number }[];
  }
  export class WebVTTParser {
    /** Character references the cue text parser decodes, by their text (`&amp;`). */
    constructor(entities?: Record<string, string>);
    parse(input: string, mode?: "metadata" | "chapters"): WebVTTResult;
  }
  const webvtt: { WebVTTParser: typeof WebVTTParser };
  export default webvtt;
}
