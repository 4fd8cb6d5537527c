// smart_groups.action (catalog 4.4): runs one of the actions a group declares (its `actions`):
// - regenerate (quiz, ranking, dialogue): the text model writes the group's items again;
// - extend (every type): the text model adds items that follow the group's own;
// - shuffle (quiz, qcm): the questions in a new random order; reverse (ranking): last becomes first.
// The group is written back (video.updated) in the call's one write, 409 conflict if the video
// changed meanwhile. Flat 2 credits for the model actions; shuffle and reverse call no model and
// are settled to 0. Any other action is 422 at `action` listing the group's own.
import { randomInt } from "node:crypto";
import { z } from "zod";
import { defineAction } from "../../actions/framework/action.js";
import { id, label } from "../../actions/catalog/define.js";
import type { ProviderAccess } from "../../providers/recording.js";
import { validationFailed } from "../../validation/issues.js";
import { TYPE_BRIEFS, groupAnswer, groupOf, itemsSchema, loadGroups, storedItems, writeGroups } from "../groups.js";
import type { SmartGroup } from "../shape.js";

const ITEMS = 5;
/** A group's items are bounded by the shape. */
const MAX_ITEMS = 100;

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

async function written(providers: ProviderAccess, group: SmartGroup, mode: "regenerate" | "extend", language: string) {
  const type = group.type === "qcm" ? "quiz" : group.type;
  const room = Math.max(1, Math.min(ITEMS, MAX_ITEMS - group.items.length));
  const answer = await providers.get("text").generateObject({
    system: `You write interactive segments for short videos. Write ${TYPE_BRIEFS[type]}. Facts must be right; keep every line short enough to read on screen.`,
    prompt: [
      `Topic: ${group.topic ?? group.title}`,
      `Language: ${language}`,
      mode === "extend" ? `Add ${room} items that follow these, repeating none:\n${JSON.stringify(group.items)}` : `Write ${ITEMS} new items replacing these:\n${JSON.stringify(group.items)}`,
    ].join("\n"),
    schema: itemsSchema(type, mode === "extend" ? room : ITEMS * 2),
    schemaName: `smart_group_${type}`,
  });
  const items = answer.object.items as Record<string, unknown>[];
  return (mode === "extend" ? [...group.items, ...storedItems(type, items, group.items.length + 1)].slice(0, MAX_ITEMS) : storedItems(type, items)) as SmartGroup["items"];
}

export default defineAction({
  name: "smart_groups.action",
  method: "POST",
  scopes: ["videos:execute"],
  credits: true,
  input: z.strictObject({
    video_id: id(),
    group_id: id(),
    action: label(),
  }),
  price: { credits: 2, per: "call" },
  weight: 2,
  purpose: "execute one of a smart group's declared actions",
  mode: "model",
  uses: ["text"],
  output: groupAnswer.extend({ action: z.string(), items_before: z.number().int(), items_after: z.number().int() }),
  async example(setup) {
    const created = await setup.action("smart_groups.create_qcm", {
      video_id: (await setup.create("videos", { video_name: "Tides" })).video_id,
      questions: [{ question: "What pulls the tides?", choices: ["The Moon", "The wind"], correct_index: 0 }],
    });
    return { video_id: created.video_id, group_id: (created.group as { group_id: string }).group_id, action: "extend" };
  },
  async check({ graphql }, input) {
    const group = groupOf(await loadGroups(graphql.prisma, graphql, input.video_id), input.group_id);
    if (!group.actions.includes(input.action)) {
      throw validationFailed([{ path: "action", message: `The ${group.type} group '${group.group_id}' declares: ${group.actions.join(", ")}.`, type: "any.only", allowed: group.actions }]);
    }
  },
  async run({ db, graphql, providers, ran, commit }, input) {
    const video = await loadGroups(db, graphql, input.video_id);
    const group = groupOf(video, input.group_id);
    let items: SmartGroup["items"];
    if (input.action === "shuffle") {
      items = shuffled(group.items as object[]) as SmartGroup["items"];
      ran(0);
    } else if (input.action === "reverse") {
      items = (group.items as { rank: number }[]).toReversed().map((item, index) => ({ ...item, rank: index + 1 })) as SmartGroup["items"];
      ran(0);
    } else {
      items = await written(providers, group, input.action === "extend" ? "extend" : "regenerate", video.video_lang ?? "en");
    }
    const changed = { ...group, items, updated_at: new Date().toISOString() } as SmartGroup;
    return commit(async (tx) => {
      await writeGroups(tx, graphql, video, video.groups.map((item) => (item.group_id === group.group_id ? changed : item)), true);
      return { object: "smart_group" as const, video_id: video.video_id, group: changed, action: input.action, items_before: group.items.length, items_after: items.length };
    });
  },
});
