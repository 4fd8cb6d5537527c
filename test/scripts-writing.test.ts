// The writing passes that change the document (docs/scripts.md, "Passes that write"), end to end
// through the real text adapter against the provider stand-in: what every prompt carries (the
// style guide, margin notes, tone, audience, language), which model each pass runs on, what it
// writes and logs (undo works), locked paragraphs skipped and counted, credits settled to what
// ran, the per-call idempotency_key, 409 when the script changed during the model call, and the
// figure check of scripts.write_from_link. Pages are served on loopback, which this file allows.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backedFigures, checkParagraph } from "../src/scripts/writing/figures.js";
import { balanceOf, funded } from "./support/action-calls.js";
import { useService, useStandIn, type ApiResponse, type Client } from "./support/service.js";
import { waitFor } from "./support/wait.js";

const overrides = { outboundAllow: ["127.0.0.1"] };
const providers = useStandIn(overrides, { CUTROOM_PROVIDER_MAX_RETRIES: "0" });
const service = useService(overrides);
const prisma = () => service.service.database.prisma;
const standIn = () => providers.standIn;

type Row = Record<string, any>;

const PAGES: Record<string, string> = {
  "/roasting.html": `<!doctype html><html lang="en"><head><title>Home roasting guide</title></head><body><main><article><h1>Home roasting guide</h1>
<p>Green coffee beans cost about $8 per pound, roughly half the price of roasted beans.</p>
<p>The first crack arrives after 9 to 11 minutes at around 196 degrees Celsius. Version 2.1 of the guide was published on 2024-05-01.</p>
<p>Beans should rest for at least 12 hours before brewing, because they release carbon dioxide for a while after roasting.</p></article></main></body></html>`,
  "/beans.html": `<!doctype html><html lang="en"><head><title>Choosing green beans</title></head><body><main><article><h1>Choosing green beans</h1>
<p>Washed beans from Ethiopia roast evenly and are forgiving for beginners, which makes them a good first purchase.</p>
<p>Store green beans in a cool, dry place away from sunlight; kept like that they stay fresh for months.</p></article></main></body></html>`,
};

let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((request, response) => {
    const page = PAGES[request.url ?? ""];
    if (page) response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    else response.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end("<h1>Not found</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

function ok(response: ApiResponse): Row {
  expect(response.status, response.text).toBe(200);
  expect(response.body.error, response.text).toBeUndefined();
  return response.body as Row;
}

function refused(response: ApiResponse, status: number, code: string): Row {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error, response.text).toMatchObject({ code, status });
  return response.body.error as Row;
}

const call = (client: Client, name: string, input: Record<string, unknown>, headers?: Record<string, string>) => client.post(`/api/v1/actions/scripts.${name}`, input, headers ? { headers } : undefined);
const get = (client: Client, name: string, query: Record<string, unknown>) =>
  client.get(`/api/v1/actions/scripts.${name}?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, typeof value === "object" ? JSON.stringify(value) : String(value as string | number | boolean)]))}`);

const ledger = (workspaceId: string) => prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId }, orderBy: [{ created_at: "asc" }, { transaction_id: "asc" }] });
const outbox = (workspaceId: string) => prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId }, orderBy: { seq: "asc" } });
const chats = (since: number) => standIn().calls("openai.chat").slice(since);
const chatCount = () => standIn().calls("openai.chat").length;

/** A script with paragraphs; their ids in order. */
async function scriptWith(client: Client, paragraphs: (string | [string, string])[], meta: Record<string, unknown> = {}) {
  const { script_id: scriptId } = ok(await call(client, "create", { title: "Home roasting", ...meta }));
  const ids: string[] = [];
  for (const paragraph of paragraphs) {
    const [text, role] = typeof paragraph === "string" ? [paragraph, "body"] : paragraph;
    ids.push(ok(await call(client, "insert_paragraph", { script_id: scriptId, text, role })).paragraph.paragraph_id);
  }
  return { scriptId, ids };
}

const open = async (client: Client, scriptId: string) => ok(await get(client, "open", { script_id: scriptId }));
const lock = async (client: Client, scriptId: string, ids: string[]) => ok(await call(client, "lock_paragraphs", { script_id: scriptId, paragraph_ids: ids, locked: true }));

/** A script dressed for the prompt checks: meta, a house style of three kinds, margin notes, a lock. */
async function dressedScript(client: Client) {
  const script = await scriptWith(client, [["Roasting at home is, like, easy.", "hook"], "Utilize a pan and green beans.", ["Thanks for watching, folks.", "outro"]], {
    tone: "Playful and precise",
    audience: "Coffee beginners on a budget",
    language: "en-GB",
    topic: "Roasting coffee at home",
  });
  const [hook, body, outro] = script.ids as [string, string, string];
  ok(await get(client, "add_style_rule", { script_id: script.scriptId, kind: "banned", term: "utilize", replacement: "use" }));
  ok(await get(client, "add_style_rule", { script_id: script.scriptId, kind: "preferred", term: "folks", replacement: "everyone" }));
  ok(await get(client, "add_style_rule", { script_id: script.scriptId, kind: "spoken", term: "GIF", replacement: "jif" }));
  ok(await call(client, "annotate_paragraph", { script_id: script.scriptId, paragraph_id: body, note: "Mention the smoke alarm." }));
  ok(await call(client, "annotate_paragraph", { script_id: script.scriptId, paragraph_id: outro, note: "Sign off with the channel name." }));
  await lock(client, script.scriptId, [outro]);
  return { ...script, hook, body, outro };
}

describe("what every writing prompt carries", () => {
  const passes: [string, (ids: { scriptId: string; hook: string; body: string }) => Record<string, unknown>, "document" | "quick"][] = [
    ["polish", ({ scriptId }) => ({ script_id: scriptId }), "document"],
    ["translate", ({ scriptId }) => ({ script_id: scriptId, target_language: "French" }), "document"],
    ["outline", ({ scriptId }) => ({ script_id: scriptId, chapter_count: 2 }), "document"],
    ["draft_paragraphs", ({ scriptId }) => ({ script_id: scriptId, paragraph_count: 2 }), "document"],
    ["group_into_chapters", ({ scriptId }) => ({ script_id: scriptId }), "document"],
    ["direct_visuals", ({ scriptId }) => ({ script_id: scriptId }), "document"],
    ["write_from_source", ({ scriptId }) => ({ script_id: scriptId, source_text: "Green beans cost about $8 per pound.", paragraph_count: 2 }), "document"],
    ["write_from_link", ({ scriptId }) => ({ script_id: scriptId, urls: [`${base}/roasting.html`], paragraph_count: 2 }), "document"],
    ["rewrite_paragraphs", ({ scriptId, body }) => ({ script_id: scriptId, paragraph_ids: [body], operation: "shorten" }), "quick"],
    ["split_paragraph", ({ scriptId, body }) => ({ script_id: scriptId, paragraph_id: body }), "quick"],
  ];

  for (const [name, input, model] of passes) {
    it(`scripts.${name}: tone, audience, language, banned and preferred rules (not spoken ones), margin notes; on the ${model} model`, async () => {
      const { client } = await funded(service, 100);
      const script = await dressedScript(client);
      const since = chatCount();
      ok(await call(client, name, input(script)));
      const [chat] = chats(since);
      expect(chat, "one model call").toBeDefined();
      expect(chats(since)).toHaveLength(1);
      const prompt = chat!.messages!.user;
      expect(prompt).toContain("Tone: Playful and precise");
      expect(prompt).toContain("Audience: Coffee beginners on a budget");
      expect(prompt).toContain("Language: en-GB");
      expect(prompt).toContain('Never write "utilize"; write "use" instead.');
      expect(prompt).toContain('Prefer "everyone" over "folks".');
      expect(prompt).not.toContain("jif");
      // The paragraph a pass works on brings its note; a whole-document pass shows every note,
      // and a replacing draft the locked paragraphs' (the others are replaced).
      if (name.startsWith("write_from")) expect(prompt).toContain("Instruction for this paragraph: Sign off with the channel name.");
      else expect(prompt).toContain("Instruction for this paragraph: Mention the smoke alarm.");
      // Whole-document passes on model_ref (unset: the configured model), per-paragraph edits on
      // quick_model_ref (unset: the cheapest priced text model).
      expect(chat!.model).toBe(model === "document" ? "gpt-4.1-mini" : "gpt-4o-mini");
    });
  }

  it("a script's own model_ref and quick_model_ref are the models its passes run on", async () => {
    const { client } = await funded(service, 100);
    const { scriptId, ids } = await scriptWith(client, ["One.", "Two."]);
    ok(await call(client, "settings", { script_id: scriptId, model_ref: "openai/gpt-4.1", quick_model_ref: "openai/gpt-4.1-mini" }));
    let since = chatCount();
    expect(ok(await call(client, "polish", { script_id: scriptId })).model).toBe("openai/gpt-4.1");
    expect(chats(since)[0]!.model).toBe("gpt-4.1");
    since = chatCount();
    expect(ok(await call(client, "rewrite_paragraphs", { script_id: scriptId, paragraph_ids: [ids[0]] })).model).toBe("openai/gpt-4.1-mini");
    expect(chats(since)[0]!.model).toBe("gpt-4.1-mini");
  });
});

describe("scripts.polish", () => {
  it("edits the unlocked paragraphs, skips and counts the locked one, logs each change, and undo_change brings one back", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, ["So basically it's good.", "Like, roast it.", "Bye now."]);
    const [first, second, third] = ids as [string, string, string];
    await lock(client, scriptId, [third]);
    standIn().answerNext("openai.chat", { paragraphs: [{ paragraph_id: first, text: "It is good." }, { paragraph_id: second, text: "  Roast it.  " }] });
    const body = ok(await call(client, "polish", { script_id: scriptId, instruction: "Cut filler words.", request: { trace: 7 } }));
    expect(body).toMatchObject({ object: "script_polish", script_id: scriptId, model: "openai/gpt-4.1-mini", locked_skipped: 1, locked_paragraph_ids: [third], request: { trace: 7 }, credits: { cost: 3, charged: 3, balance_after: 7 } });
    expect(body.paragraphs.map((row: Row) => [row.paragraph_id, row.text])).toEqual([[first, "It is good."], [second, "Roast it."]]);
    expect(body.changes.map((row: Row) => [row.paragraph_id, row.kind])).toEqual([[first, "paragraph.text"], [second, "paragraph.text"]]);
    const document = await open(client, scriptId);
    expect(document.paragraphs.map((row: Row) => row.text)).toEqual(["It is good.", "Roast it.", "Bye now."]);
    expect(body.revision).toBe(document.script.revision);
    expect(body.snapshot_id).toMatch(/^\S+$/);

    // One entry undone: that paragraph's words come back, the other edit stays.
    const undone = ok(await call(client, "undo_change", { script_id: scriptId, edit_id: body.changes[0].edit_id }));
    expect(undone.undone).toBe(true);
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => row.text)).toEqual(["So basically it's good.", "Roast it.", "Bye now."]);
    // The whole pass: its restore point.
    ok(await call(client, "restore_snapshot", { script_id: scriptId, snapshot_id: body.snapshot_id }));
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => row.text)).toEqual(["So basically it's good.", "Like, roast it.", "Bye now."]);

    expect((await outbox(workspaceId)).filter((event) => event.type === "action.completed").map((event) => (event.data as Row).object.action)).toContain("scripts.polish");
  });

  it("409 conflict when the script changes while the model is working: nothing applied, the hold given back", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, ["Original words."]);
    standIn().slowNext("openai.chat", 2_000);
    const since = chatCount();
    const pending = call(client, "polish", { script_id: scriptId });
    // The model call is under way: the author writes meanwhile.
    await waitFor("the pass's model call", () => chats(since).length > 0, 15_000, 20);
    ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: ids[0], text: "The author's words." }));
    const error = refused(await pending, 409, "conflict");
    expect(error.param).toBe("script_id");
    expect(error.details.revision_now).toBe(error.details.revision_read + 1);
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => row.text)).toEqual(["The author's words."]);
    expect(await balanceOf(service, workspaceId)).toBe(10);
    const rows = await ledger(workspaceId);
    expect(rows.map((row) => [row.action_type, row.amount])).toEqual([["grant", 10], ["scripts.polish", -3], ["refund", 3]]);
    expect((await outbox(workspaceId)).map((event) => event.type)).toContain("action.failed");
  });

  it("with every paragraph locked there is nothing to polish: no model call, nothing spent, nothing written", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, ["Locked words."]);
    await lock(client, scriptId, ids);
    const since = chatCount();
    const body = ok(await call(client, "polish", { script_id: scriptId }));
    expect(body).toMatchObject({ changes: [], locked_skipped: 1, snapshot_id: null, credits: { cost: 0, charged: 0 } });
    expect(chats(since)).toHaveLength(0);
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });

  it("a test key gets a quote: nothing called, held or written", async () => {
    const fixture = await funded(service, 10);
    const { scriptId } = await scriptWith(fixture.client, ["Words."]);
    const test = await fixture.newKey({ mode: "test" });
    const since = chatCount();
    const quoted = ok(await call(test.client, "polish", { script_id: scriptId }));
    expect(quoted).toMatchObject({ object: "action_quote", action: "scripts.polish", credits: { cost: 3, charged: 0 }, units: 1, livemode: false });
    expect(chats(since)).toHaveLength(0);
    expect(await balanceOf(service, fixture.workspaceId)).toBe(10);
  });
});

describe("scripts.rewrite_paragraphs", () => {
  it("one call per paragraph on the quick model; a locked one is skipped, counted and not paid for", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, ["First paragraph words.", "Second paragraph words.", "Third paragraph words."]);
    const [first, second, third] = ids as [string, string, string];
    await lock(client, scriptId, [second]);
    const since = chatCount();
    const body = ok(await call(client, "rewrite_paragraphs", { script_id: scriptId, paragraph_ids: [first, second, third], operation: "expand", target_words: 40, instruction: "More concrete." }));
    expect(chats(since)).toHaveLength(2);
    for (const chat of chats(since)) {
      expect(chat.model).toBe("gpt-4o-mini");
      expect(chat.messages!.user).toMatch(/Operation: expand[\s\S]*Instruction: More concrete\.[\s\S]*Length: about 40 words/);
    }
    expect(body).toMatchObject({ object: "script_rewrite", locked_skipped: 1, locked_paragraph_ids: [second], credits: { cost: 2, charged: 2, balance_after: 8 } });
    expect(body.changes.map((row: Row) => row.paragraph_id).sort()).toEqual([first, third].sort());
    const document = await open(client, scriptId);
    expect(document.paragraphs[1].text).toBe("Second paragraph words.");
    // Held for three, settled to the two that ran.
    expect((await ledger(workspaceId)).map((row) => [row.action_type, row.amount])).toEqual([["grant", 10], ["scripts.rewrite_paragraphs", -3], ["refund", 1]]);
  });

  it("through GraphQL; the same idempotency_key answers the stored result without a second call or charge", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, ["Words to rewrite."]);
    standIn().answerNext("openai.chat", { text: "Rewritten words." });
    const query = `mutation($input: ScriptsRewriteParagraphsInput!) { scripts_rewrite_paragraphs(input: $input) { ... on ScriptsRewriteParagraphsResult { object paragraphs { paragraph_id text } changes { kind edit_id } credits { cost charged } } } }`;
    const input = { script_id: scriptId, paragraph_ids: ids, idempotency_key: "rewrite-once" };
    const first = await client.graphql(query, { input });
    expect(first.body.errors, first.text).toBeUndefined();
    expect(first.body.data.scripts_rewrite_paragraphs).toMatchObject({ object: "script_rewrite", paragraphs: [{ paragraph_id: ids[0], text: "Rewritten words." }], credits: { cost: 1, charged: 1 } });
    const since = chatCount();
    const again = await client.graphql(query, { input });
    expect(again.body.data.scripts_rewrite_paragraphs).toMatchObject({ paragraphs: [{ text: "Rewritten words." }], credits: { cost: 1, charged: 0 } });
    expect(chats(since)).toHaveLength(0);
    expect(await balanceOf(service, workspaceId)).toBe(9);
  });

  it("a failed model call fails the whole rewrite: 502, nothing written, the hold given back", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, ["First words.", "Second words.", "Third words."]);
    standIn().failNext("openai.chat", { status: 500, after: 1 });
    refused(await call(client, "rewrite_paragraphs", { script_id: scriptId, paragraph_ids: ids }), 502, "upstream_error");
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => row.text)).toEqual(["First words.", "Second words.", "Third words."]);
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });

  it("a paragraph not in the script is 404 at paragraph_ids before anything is held", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId } = await scriptWith(client, ["Words."]);
    const error = refused(await call(client, "rewrite_paragraphs", { script_id: scriptId, paragraph_ids: ["par_missing"] }), 404, "not_found");
    expect(error.param).toBe("paragraph_ids");
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });
});

describe("scripts.translate", () => {
  it("translates every unlocked paragraph, the title and the language field; priced per unlocked paragraph, paid for those translated", async () => {
    const fixture = await funded(service, 10);
    const { client, workspaceId } = fixture;
    const { scriptId, ids } = await scriptWith(client, ["Good morning.", "Roast the beans.", "Keep this line."], { title: "Morning coffee", language: "en" });
    const [first, second, third] = ids as [string, string, string];
    await lock(client, scriptId, [third]);
    // The quote counts the unlocked paragraphs.
    const test = await fixture.newKey({ mode: "test" });
    expect(ok(await call(test.client, "translate", { script_id: scriptId, target_language: "French" }))).toMatchObject({ units: 2, credits: { cost: 2 } });

    // The model leaves the second paragraph out: it is not changed and not paid for.
    standIn().answerNext("openai.chat", { title: "Café du matin", paragraphs: [{ paragraph_id: first, text: "Bonjour." }] });
    const body = ok(await call(client, "translate", { script_id: scriptId, target_language: "French", language_code: "fr" }));
    expect(body).toMatchObject({ object: "script_translation", target_language: "French", language: "fr", title: "Café du matin", locked_skipped: 1, credits: { cost: 1, charged: 1 } });
    const document = await open(client, scriptId);
    expect(document.paragraphs.map((row: Row) => row.text)).toEqual(["Bonjour.", "Roast the beans.", "Keep this line."]);
    expect(document.script).toMatchObject({ title: "Café du matin", language: "fr" });
    expect((await ledger(workspaceId)).map((row) => [row.action_type, row.amount])).toEqual([["grant", 10], ["scripts.translate", -2], ["refund", 1]]);
    void second;

    // The title and language are one `meta` entry: undone together.
    const meta = body.changes.find((row: Row) => row.kind === "meta");
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: meta.edit_id }));
    expect((await open(client, scriptId)).script).toMatchObject({ title: "Morning coffee", language: "en" });
  });
});

describe("scripts.split_paragraph", () => {
  it("the first part keeps the paragraph's id, role, chapter and history; the new parts follow it", async () => {
    const { client } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, [["Roast at home. It is cheap. Open a window.", "example"], "The end."]);
    const [target, last] = ids as [string, string];
    ok(await call(client, "set_paragraph_text", { script_id: scriptId, paragraph_id: target, text: "Roast at home! It is cheap. Open a window." }));
    standIn().answerNext("openai.chat", { parts: ["Roast at home!", "It is cheap.", "Open a window."] });
    const body = ok(await call(client, "split_paragraph", { script_id: scriptId, paragraph_id: target }));
    expect(body).toMatchObject({ object: "script_split", credits: { cost: 1, charged: 1 } });
    expect(body.parts[0]).toBe(target);
    expect(body.parts).toHaveLength(3);
    const document = await open(client, scriptId);
    expect(document.paragraphs.map((row: Row) => [row.paragraph_id, row.text, row.role])).toEqual([
      [target, "Roast at home!", "example"],
      [body.parts[1], "It is cheap.", "example"],
      [body.parts[2], "Open a window.", "example"],
      [last, "The end.", "body"],
    ]);
    // Its history is still its own: the earlier edit and the split's.
    const changes = ok(await get(client, "changes", { script_id: scriptId, paragraph_id: target }));
    expect(changes.data.map((row: Row) => row.action)).toEqual(["scripts.split_paragraph", "scripts.set_paragraph_text", "scripts.insert_paragraph"]);
  });

  it("an answer that does not fit the shape (one part) is 502 upstream_error: nothing written, the hold given back", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, ["One thought. Another thought."]);
    standIn().answerNext("openai.chat", { parts: ["One thought. Another thought."] });
    const revision = (await open(client, scriptId)).script.revision;
    refused(await call(client, "split_paragraph", { script_id: scriptId, paragraph_id: ids[0] }), 502, "upstream_error");
    const document = await open(client, scriptId);
    expect(document.script.revision).toBe(revision);
    expect(document.paragraphs).toHaveLength(1);
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });

  it("a locked paragraph is refused before anything is held or called", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, ["Locked. Words."]);
    await lock(client, scriptId, ids);
    const since = chatCount();
    const error = refused(await call(client, "split_paragraph", { script_id: scriptId, paragraph_id: ids[0] }), 400, "invalid_request");
    expect(error.param).toBe("paragraph_id");
    expect(chats(since)).toHaveLength(0);
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });
});

describe("scripts.write_from_source", () => {
  it("replaces the unlocked paragraphs (locked ones stay in place) with a close draft, and files the page read as a source", async () => {
    const { client } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, [["Locked hook.", "hook"], "Old body.", "Old outro."]);
    await lock(client, scriptId, [ids[0]!]);
    standIn().answerNext("openai.chat", { paragraphs: [{ role: "intro", text: "Green beans are cheap." }, { role: "body", text: "The first crack comes after 9 minutes." }] });
    const since = chatCount();
    const body = ok(await call(client, "write_from_source", { script_id: scriptId, source_url: `${base}/roasting.html` }));
    expect(chats(since)[0]!.messages!.user).toMatch(/Fidelity: close\.[\s\S]*Source: Home roasting guide[\s\S]*196 degrees/);
    expect(body).toMatchObject({ object: "script_draft", fidelity: "close", replace: true, locked_skipped: 1, credits: { cost: 3, charged: 3 } });
    const document = await open(client, scriptId);
    expect(document.paragraphs.map((row: Row) => [row.text, row.role])).toEqual([["Locked hook.", "hook"], ["Green beans are cheap.", "intro"], ["The first crack comes after 9 minutes.", "body"]]);
    expect(body.changes.map((row: Row) => row.kind)).toEqual(["paragraph.delete", "paragraph.delete", "paragraph.insert", "paragraph.insert", "source.add"]);
    expect(body.sources).toMatchObject([{ url: `${base}/roasting.html`, title: "Home roasting guide", kind: "source" }]);

    // Undoing one deletion brings that paragraph back.
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: body.changes[0].edit_id }));
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => row.text)).toContain("Old body.");
  });

  it("replace: false appends; loose fidelity is what the prompt asks; a page that cannot be read is 400 at source_url", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId } = await scriptWith(client, ["Kept paragraph."]);
    standIn().answerNext("openai.chat", { paragraphs: [{ role: "body", text: "Appended." }] });
    const since = chatCount();
    ok(await call(client, "write_from_source", { script_id: scriptId, source_text: "Beans rest for 12 hours.", fidelity: "loose", replace: false }));
    expect(chats(since)[0]!.messages!.user).toContain("Fidelity: loose.");
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => row.text)).toEqual(["Kept paragraph.", "Appended."]);

    const balance = await balanceOf(service, workspaceId);
    const error = refused(await call(client, "write_from_source", { script_id: scriptId, source_url: `${base}/missing.html` }), 400, "invalid_request");
    expect(error.param).toBe("source_url");
    expect(await balanceOf(service, workspaceId)).toBe(balance);
  });

  it("needs source_url or source_text (422 naming the first)", async () => {
    const { client } = await funded(service, 10);
    const { scriptId } = await scriptWith(client, []);
    const error = refused(await call(client, "write_from_source", { script_id: scriptId }), 422, "validation_failed");
    expect(error.details.issues[0]).toMatchObject({ path: "source_url", type: "any.required" });
  });
});

describe("scripts.write_from_link", () => {
  it("figures absent from the pages and first-person claims go to unverified; the pages are filed as sources; 2 credits per page", async () => {
    const { client } = await funded(service, 10);
    const { scriptId } = await scriptWith(client, ["Old words."]);
    standIn().answerNext("openai.chat", {
      paragraphs: [
        { role: "hook", text: "Green beans cost about $8 per pound. That is 60% cheaper than anything!" },
        { role: "body", text: "I have roasted for years. The first crack comes after 9 to 11 minutes. Version 2.1 of the guide says so." },
        { role: "body", text: "Prices rose 12.5% in 2023." },
      ],
      unverified: ["Ethiopian beans are the best."],
    });
    const since = chatCount();
    const body = ok(await call(client, "write_from_link", { script_id: scriptId, urls: [`${base}/roasting.html`, `${base}/beans.html`], angle: "Save money", answers: { experience: "no", channel: "Bean Lab" } }));
    const prompt = chats(since)[0]!.messages!.user;
    expect(prompt).toContain("no first-person claims");
    expect(prompt).toContain("Author's answer, channel: Bean Lab");
    expect(prompt).toMatch(/Page 1: Home roasting guide[\s\S]*Page 2: Choosing green beans/);
    expect(body).toMatchObject({ object: "script_draft", first_person_allowed: false, credits: { cost: 4, charged: 4 } });
    expect(body.unverified).toEqual([
      { statement: "Ethiopian beans are the best.", reason: "model", figures: [] },
      { statement: "That is 60% cheaper than anything!", reason: "figure_not_in_sources", figures: ["60"] },
      { statement: "I have roasted for years.", reason: "first_person", figures: [] },
      { statement: "Prices rose 12.5% in 2023.", reason: "figure_not_in_sources", figures: ["12.5", "2023"] },
    ]);
    // What is left: only backed sentences; a paragraph with nothing left is not written.
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => row.text)).toEqual([
      "Green beans cost about $8 per pound.",
      "The first crack comes after 9 to 11 minutes. Version 2.1 of the guide says so.",
    ]);
    expect(body.sources.map((row: Row) => row.title)).toEqual(["Home roasting guide", "Choosing green beans"]);
    expect(body.pages.map((row: Row) => row.url)).toEqual([`${base}/roasting.html`, `${base}/beans.html`]);
  });

  it("through GraphQL: the typed answer with its unverified statements and sources", async () => {
    const { client } = await funded(service, 10);
    const { scriptId } = await scriptWith(client, []);
    standIn().answerNext("openai.chat", { paragraphs: [{ role: "hook", text: "Beans rest for 12 hours. They rest for 48 hours at most." }], unverified: [] });
    const response = await client.graphql(
      `mutation($input: ScriptsWriteFromLinkInput!) { scripts_write_from_link(input: $input) { ... on ScriptsWriteFromLinkResult { object paragraphs { text role } unverified { statement reason figures } sources { url kind } credits { charged } } } }`,
      { input: { script_id: scriptId, urls: [`${base}/roasting.html`] } },
    );
    expect(response.body.errors, response.text).toBeUndefined();
    expect(response.body.data.scripts_write_from_link).toEqual({
      object: "script_draft",
      paragraphs: [{ text: "Beans rest for 12 hours.", role: "hook" }],
      unverified: [{ statement: "They rest for 48 hours at most.", reason: "figure_not_in_sources", figures: ["48"] }],
      sources: [{ url: `${base}/roasting.html`, kind: "source" }],
      credits: { charged: 2 },
    });
  });

  it("an experience answer allows first-person claims, and its own figures count as the author's", async () => {
    const { client } = await funded(service, 10);
    const { scriptId } = await scriptWith(client, []);
    standIn().answerNext("openai.chat", { paragraphs: [{ role: "hook", text: "I have roasted for 3 years. Beans rest for 12 hours." }], unverified: [] });
    const since = chatCount();
    const body = ok(await call(client, "write_from_link", { script_id: scriptId, urls: [`${base}/roasting.html`], answers: { experience: "I have roasted at home for 3 years" } }));
    expect(chats(since)[0]!.messages!.user).toContain("may speak in the first person: I have roasted at home for 3 years");
    expect(body).toMatchObject({ first_person_allowed: true, unverified: [] });
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => row.text)).toEqual(["I have roasted for 3 years. Beans rest for 12 hours."]);
  });

  it("a draft the pages back none of leaves the script's text as it was, charges nothing and says what it dropped", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId } = await scriptWith(client, ["Old words stay."]);
    standIn().answerNext("openai.chat", { paragraphs: [{ role: "hook", text: "Prices rose 12.5% in 2023." }, { role: "body", text: "I have roasted for years." }], unverified: [] });
    const error = refused(await call(client, "write_from_link", { script_id: scriptId, urls: [`${base}/roasting.html`] }), 422, "validation_failed");
    expect(error.details.unverified.map((row: Row) => row.statement)).toEqual(["Prices rose 12.5% in 2023.", "I have roasted for years."]);
    expect((await open(client, scriptId)).paragraphs.map((row: Row) => row.text)).toEqual(["Old words stay."]);
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });

  it("a page that cannot be read is 400 naming it, before any model call; the hold comes back", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId } = await scriptWith(client, []);
    const since = chatCount();
    const error = refused(await call(client, "write_from_link", { script_id: scriptId, urls: [`${base}/roasting.html`, `${base}/gone.html`] }), 400, "invalid_request");
    expect(error.param).toBe("urls.1");
    expect(chats(since)).toHaveLength(0);
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });
});

describe("figures (write_from_link's check)", () => {
  it("a figure is backed when the pages hold it, thousands commas and leading zeros aside; dates back their parts", () => {
    const backed = backedFigures(["It costs $1,200 and shipped on 2024-05-01 as v2.1, at 09:30."]);
    const check = (text: string) => checkParagraph(text, backed, { firstPerson: true });
    expect(check("It costs 1200 dollars.").unverified).toEqual([]);
    expect(check("It shipped in 2024, on day 1 of month 5.").unverified).toEqual([]);
    expect(check("Version 2.1 at 9:30.").unverified).toEqual([]);
    expect(check("Version 2.2 is out. It costs $1,200.")).toEqual({ text: "It costs $1,200.", unverified: [{ statement: "Version 2.2 is out.", reason: "figure_not_in_sources", figures: ["2.2"] }] });
    expect(checkParagraph("My pan works. In my view, yes. Me too. I'm sure.", backed, { firstPerson: false }).text).toBe("");
    expect(checkParagraph("Myths abound. Imagine it.", backed, { firstPerson: false }).text).toBe("Myths abound. Imagine it.");
  });
});

describe("chapters: scripts.outline, scripts.draft_paragraphs, scripts.group_into_chapters", () => {
  it("outline writes chapters and answers beats without writing a paragraph; a second outline replaces the empty chapters", async () => {
    const { client } = await funded(service, 20);
    const { scriptId } = await scriptWith(client, [], { topic: "Roasting at home" });
    standIn().answerNext("openai.chat", { chapters: [{ title: "Why roast", summary: "The case for it.", beats: ["Cost", "Freshness"] }, { title: "How", summary: "The method.", beats: ["Pan", "First crack"] }] });
    const body = ok(await call(client, "outline", { script_id: scriptId, chapter_count: 2 }));
    expect(body).toMatchObject({ object: "script_outline", chapters_replaced: 0, paragraphs: [], credits: { cost: 2, charged: 2 } });
    expect(body.chapters.map((row: Row) => [row.title, row.position, row.beats])).toEqual([["Why roast", 0, ["Cost", "Freshness"]], ["How", 1, ["Pan", "First crack"]]]);
    let document = await open(client, scriptId);
    expect(document.paragraphs).toEqual([]);
    expect(document.chapters.map((row: Row) => row.title)).toEqual(["Why roast", "How"]);

    // draft_paragraphs appends paragraphs placed in those chapters.
    const [why, how] = body.chapters.map((row: Row) => row.chapter_id);
    standIn().answerNext("openai.chat", { paragraphs: [{ role: "hook", text: "Roast your own.", chapter_id: why }, { role: "body", text: "Use a pan.", chapter_id: how }] });
    const draft = ok(await call(client, "draft_paragraphs", { script_id: scriptId, paragraph_count: 2 }));
    expect(draft.paragraphs.map((row: Row) => [row.text, row.chapter_id, row.role])).toEqual([["Roast your own.", why, "hook"], ["Use a pan.", how, "body"]]);

    // A second outline keeps the chapters that hold paragraphs, replaces none here, adds its own after.
    standIn().answerNext("openai.chat", { chapters: [{ title: "Storage", summary: "", beats: ["Cool and dry"] }] });
    const second = ok(await call(client, "outline", { script_id: scriptId }));
    expect(second.chapters_replaced).toBe(0);
    document = await open(client, scriptId);
    expect(document.chapters.map((row: Row) => row.title)).toEqual(["Why roast", "How", "Storage"]);
    standIn().answerNext("openai.chat", { chapters: [{ title: "Brewing", summary: "", beats: ["Rest first"] }] });
    const third = ok(await call(client, "outline", { script_id: scriptId }));
    expect(third.chapters_replaced).toBe(1);
    expect((await open(client, scriptId)).chapters.map((row: Row) => row.title)).toEqual(["Why roast", "How", "Brewing"]);
  });

  it("group_into_chapters puts every paragraph in exactly one chapter, the first from the top; a locked paragraph keeps its chapter", async () => {
    const { client } = await funded(service, 20);
    const { scriptId, ids } = await scriptWith(client, ["A.", "B.", "C.", "D."]);
    // The model starts its first chapter at the second paragraph: the first still belongs to it.
    standIn().answerNext("openai.chat", { chapters: [{ title: "Later", summary: "", starts_at: ids[2] }, { title: "Start", summary: "Opening.", starts_at: ids[1] }] });
    const body = ok(await call(client, "group_into_chapters", { script_id: scriptId }));
    expect(body).toMatchObject({ object: "script_chapters", chapters_replaced: 0, credits: { cost: 1, charged: 1 } });
    expect(body.chapters.map((row: Row) => row.title)).toEqual(["Start", "Later"]);
    let document = await open(client, scriptId);
    const titleOf = (row: Row) => document.chapters.find((chapter: Row) => chapter.chapter_id === row.chapter_id)?.title ?? null;
    expect(document.paragraphs.map(titleOf)).toEqual(["Start", "Start", "Later", "Later"]);

    // Again with the last paragraph locked: it stays in "Later", which is kept; the rest regroup.
    await lock(client, scriptId, [ids[3]!]);
    standIn().answerNext("openai.chat", { chapters: [{ title: "All", summary: "", starts_at: ids[0] }] });
    const again = ok(await call(client, "group_into_chapters", { script_id: scriptId }));
    expect(again).toMatchObject({ locked_skipped: 1, chapters_replaced: 1 });
    document = await open(client, scriptId);
    expect(document.paragraphs.map(titleOf)).toEqual(["All", "All", "All", "Later"]);
    expect(document.chapters.map((row: Row) => row.title)).toEqual(["All", "Later"]);
    // A move into a chapter is an entry undo_change takes back while its old chapter exists.
    const moved = again.changes.find((row: Row) => row.kind === "paragraph.chapter" && row.paragraph_id === ids[2]);
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: moved.edit_id }));
    document = await open(client, scriptId);
    expect(titleOf(document.paragraphs[2])).toBe("Later");
  });

  it("group_into_chapters on a script without paragraphs is 400 before anything is held", async () => {
    const { client, workspaceId } = await funded(service, 10);
    const { scriptId } = await scriptWith(client, []);
    refused(await call(client, "group_into_chapters", { script_id: scriptId }), 400, "invalid_request");
    expect(await balanceOf(service, workspaceId)).toBe(10);
  });
});

describe("scripts.direct_visuals", () => {
  it("writes each unlocked paragraph's visual, skips the locked one, and undo_change takes one back", async () => {
    const { client } = await funded(service, 10);
    const { scriptId, ids } = await scriptWith(client, ["The city wakes.", "The beans crack.", "Locked."]);
    const [first, second, third] = ids as [string, string, string];
    await lock(client, scriptId, [third]);
    standIn().answerNext("openai.chat", {
      paragraphs: [
        { paragraph_id: first, direction: "Aerial over rooftops at dawn", kind: "broll", broll_keywords: ["city dawn", "rooftops", "city dawn"], image_prompt: "" },
        { paragraph_id: second, direction: "Close-up of beans in a pan", kind: "talking_head", broll_keywords: [], image_prompt: "Coffee beans cracking, macro" },
      ],
    });
    const body = ok(await call(client, "direct_visuals", { script_id: scriptId }));
    expect(body).toMatchObject({ object: "script_visuals", locked_skipped: 1, credits: { cost: 2, charged: 2 } });
    const document = await open(client, scriptId);
    expect(document.paragraphs.map((row: Row) => row.visual)).toEqual([
      { direction: "Aerial over rooftops at dawn", kind: "broll", broll_keywords: ["city dawn", "rooftops"], image_prompt: null, src: null },
      { direction: "Close-up of beans in a pan", kind: "talking_head", broll_keywords: [], image_prompt: "Coffee beans cracking, macro", src: null },
      null,
    ]);
    ok(await call(client, "undo_change", { script_id: scriptId, edit_id: body.changes[0].edit_id }));
    expect((await open(client, scriptId)).paragraphs[0].visual).toBeNull();
  });
});
