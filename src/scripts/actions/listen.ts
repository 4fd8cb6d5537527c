// scripts.listen (catalog 4.10): the audio itself (a binary answer, docs/actions.md): one take
// (`take_id`), a paragraph's chosen take (`paragraph_id`), or up to 4 paragraphs' chosen takes
// joined in script order (`paragraph_ids`); `all_takes` joins every kept take of the paragraphs
// named, oldest first, to compare them. One part is answered as stored; several are joined into
// one WAV with ffmpeg. A paragraph named without a take is 400 (`details.unvoiced`). Free.
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { binaryAnswer, binaryFileOutput } from "../../actions/framework/binary.js";
import { flag, id, paragraphIds, request } from "../../actions/catalog/define.js";
import { ApiError } from "../../errors/api-error.js";
import { extensionFor } from "../../providers/media-info.js";
import { validationFailed } from "../../validation/issues.js";
import { readScript } from "../document.js";
import { joinAudio, measuredMs, readStored } from "../voice/audio.js";
import type { TakeRow } from "../voice/takes.js";

export default defineAction({
  name: "scripts.listen",
  method: "GET",
  scopes: ["scripts:read"],
  credits: false,
  input: z.strictObject({
    script_id: id(),
    paragraph_id: id().optional(),
    take_id: id().optional(),
    paragraph_ids: paragraphIds(4).optional(),
    all_takes: flag().optional(),
    request: request().optional(),
  }),
  weight: 1,
  purpose: "returns the audio itself; up to 4 paragraphs; free",
  binary: true,
  output: binaryFileOutput,
  async example(setup) {
    const script = await setup.action("scripts.create", { title: "Example" });
    const paragraph = await setup.action("scripts.insert_paragraph", { script_id: script.script_id, text: "Hello there." });
    await setup.action("scripts.voice", { script_id: script.script_id, voice_ref: "local/en-us" });
    return { script_id: script.script_id, paragraph_id: (paragraph.paragraph as { paragraph_id: string }).paragraph_id };
  },
  async run({ tx, graphql }, input) {
    if (input.paragraph_id !== undefined && input.paragraph_ids !== undefined) {
      throw validationFailed([{ path: "paragraph_ids", message: "Send paragraph_id or paragraph_ids, not both.", type: "any.invalid" }]);
    }
    if (input.take_id !== undefined && (input.all_takes || input.paragraph_ids !== undefined)) {
      throw validationFailed([{ path: "take_id", message: "A take_id names one take: send it without paragraph_ids and all_takes.", type: "any.invalid" }]);
    }
    if (input.take_id === undefined && input.paragraph_id === undefined && input.paragraph_ids === undefined) {
      throw validationFailed([{ path: "paragraph_id", message: "Name what to listen to: paragraph_id, paragraph_ids (up to 4) or take_id.", type: "any.required" }]);
    }
    await readScript(tx, graphql, input.script_id);
    let parts: TakeRow[];
    if (input.take_id !== undefined) {
      const take = await tx.scriptTake.findFirst({ where: { take_id: input.take_id, script_id: input.script_id, ...(input.paragraph_id ? { paragraph_id: input.paragraph_id } : {}) } });
      if (!take) throw new ApiError("not_found", `No take '${input.take_id}' in this script${input.paragraph_id ? " for that paragraph" : ""}.`, { param: "take_id" });
      parts = [take];
    } else {
      const wanted = [...new Set(input.paragraph_ids ?? [input.paragraph_id!])];
      const paragraphs = await tx.scriptParagraph.findMany({ where: { script_id: input.script_id, paragraph_id: { in: wanted } }, orderBy: { position: "asc" } });
      const missing = wanted.filter((paragraphId) => !paragraphs.some((row) => row.paragraph_id === paragraphId));
      const param = input.paragraph_ids ? "paragraph_ids" : "paragraph_id";
      if (missing.length) throw new ApiError("not_found", `No paragraph ${missing.map((paragraphId) => `'${paragraphId}'`).join(", ")} in this script.`, { param, details: { missing } });
      const takes = await tx.scriptTake.findMany({ where: { paragraph_id: { in: wanted } }, orderBy: [{ created_at: "asc" }, { take_id: "asc" }] });
      parts = paragraphs.flatMap((paragraph) => (input.all_takes ? takes.filter((take) => take.paragraph_id === paragraph.paragraph_id) : takes.filter((take) => take.take_id === paragraph.chosen_take_id)));
      const unvoiced = paragraphs.filter((paragraph) => !parts.some((take) => take.paragraph_id === paragraph.paragraph_id)).map((paragraph) => paragraph.paragraph_id);
      if (unvoiced.length) throw new ApiError("invalid_request", `Paragraph ${unvoiced.map((paragraphId) => `'${paragraphId}'`).join(", ")} has no take to listen to (scripts.voice makes one).`, { param, details: { unvoiced } });
    }
    const storage = graphql.services.files.storage;
    const audio = await Promise.all(parts.map(async (take) => ({ data: new Uint8Array(await readStored(storage, take.storage_key)), mediaType: take.content_type })));
    if (audio.length === 1) {
      const [only] = audio;
      return binaryAnswer(graphql, { data: only!.data, contentType: only!.mediaType, filename: `${parts[0]!.take_id}.${extensionFor(only!.mediaType)}`, durationSeconds: parts[0]!.duration_ms / 1000 });
    }
    const joined = await joinAudio(audio);
    return binaryAnswer(graphql, { data: joined, contentType: "audio/wav", filename: `listen-${parts.length}-takes.wav`, durationSeconds: (await measuredMs(joined, "audio/wav")) / 1000 });
  },
});
