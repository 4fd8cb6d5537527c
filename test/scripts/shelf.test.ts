// The workspace's style guide and snippet shelf through the scripts actions: scripts.add_style_rule
// and scripts.style_guide, scripts.save_snippet, scripts.snippets and scripts.insert_snippet. Both
// belong to the workspace (every script of it sees them; no other workspace does).
import { describe, expect, it } from "vitest";
import { createFixture, useService, type ApiResponse, type Client } from "../support/service.js";
import { ok } from "../support/action-calls.js";

const service = useService();
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;  

const post = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const get = (client: Client, name: string, input: Record<string, unknown>) =>
  client.get(`/api/v1/actions/scripts.${name}?${new URLSearchParams(Object.entries(input).map(([key, value]) => [key, Array.isArray(value) ? value.join(",") : String(value)]))}`);

function issuesOf(response: ApiResponse): Row[] {
  expect(response.status, response.text).toBe(422);
  expect(response.body.error.code).toBe("validation_failed");
  return response.body.error.details.issues;
}

async function newScript(client: Client, title = "Shelf"): Promise<string> {
  return ok(await post(client, "create", { title })).script_id;
}

describe("the style guide", () => {
  it("adds rules of the three kinds, rewrites a rule sent again by kind and term, and lists them by kind", async () => {
    const { client } = await createFixture(service);
    const scriptId = await newScript(client);
    const banned = ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "banned", term: "  utilize ", replacement: "use", note: "Plain words.", brief: "Never write utilize." }));
    expect(banned).toMatchObject({ object: "script_style_rule", created: true, rule: { kind: "banned", term: "utilize", replacement: "use", note: "Plain words.", brief: "Never write utilize." } });
    ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "preferred", term: "in order to", replacement: "to" }));
    ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "spoken", term: "GIF", replacement: "jif" }));
    // The same kind and term again: the rule is rewritten whole (the note left out is cleared).
    const again = ok(await get(client, "add_style_rule", { script_id: scriptId, kind: "banned", term: "utilize", replacement: "employ" }));
    expect(again).toMatchObject({ created: false, rule: { rule_id: banned.rule.rule_id, replacement: "employ", note: null, brief: null } });

    // Every script of the workspace sees the one guide.
    const guide = ok(await get(client, "style_guide", { script_id: await newScript(client, "Another") }));
    expect(guide).toMatchObject({ object: "script_style_guide", rules: 3 });
    expect([guide.banned, guide.preferred, guide.spoken].map((rules: Row[]) => rules.map((rule) => `${rule.term} -> ${rule.replacement}`))).toEqual([["utilize -> employ"], ["in order to -> to"], ["GIF -> jif"]]);

    const stranger = await createFixture(service);
    expect(ok(await get(stranger.client, "style_guide", { script_id: await newScript(stranger.client) })).rules).toBe(0);
  });

  it("needs a replacement for preferred and spoken rules, a term with words, and stays a GET", async () => {
    const { client, workspaceId } = await createFixture(service);
    const scriptId = await newScript(client);
    expect(issuesOf(await get(client, "add_style_rule", { script_id: scriptId, kind: "preferred", term: "utilise" }))).toContainEqual(expect.objectContaining({ path: "replacement", type: "any.required" }));
    expect(issuesOf(await get(client, "add_style_rule", { script_id: scriptId, kind: "spoken", term: "SQL", replacement: " " }))).toContainEqual(expect.objectContaining({ path: "replacement", type: "any.required" }));
    expect(issuesOf(await get(client, "add_style_rule", { script_id: scriptId, kind: "banned", term: "   " }))).toContainEqual(expect.objectContaining({ path: "term", type: "string.empty" }));
    expect(issuesOf(await get(client, "add_style_rule", { script_id: scriptId, kind: "loud", term: "x" }))).toContainEqual(expect.objectContaining({ path: "kind", type: "any.only" }));
    // The catalog lists it as GET (with scripts:read) although it writes.
    expect((await post(client, "add_style_rule", { script_id: scriptId, kind: "banned", term: "x" })).status).toBe(405);
    expect(await prisma().styleRule.count({ where: { workspace_id: workspaceId } })).toBe(0);
  });

  it("writes nothing with a test key", async () => {
    const fixture = await createFixture(service);
    const scriptId = await newScript(fixture.client);
    const test = await fixture.newKey({ mode: "test" });
    const simulated = ok(await get(test.client, "add_style_rule", { script_id: scriptId, kind: "banned", term: "synergy" }));
    expect(simulated).toMatchObject({ livemode: false, created: true, rule: { term: "synergy" } });
    expect(await prisma().styleRule.count({ where: { workspace_id: fixture.workspaceId } })).toBe(0);
  });
});

describe("the snippet shelf", () => {
  it("saves a paragraph (its words and role) or words sent as text, exactly as they are", async () => {
    const { client, workspaceId } = await createFixture(service);
    const scriptId = await newScript(client);
    const { paragraph } = ok(await post(client, "insert_paragraph", { script_id: scriptId, text: "If this helped,  share it.", role: "cta" }));
    const fromParagraph = ok(await get(client, "save_snippet", { script_id: scriptId, paragraph_id: paragraph.paragraph_id, title: "Share ask", tags: ["cta", "cta", "short"] }));
    expect(fromParagraph).toMatchObject({ object: "script_snippet", snippet: { title: "Share ask", text: "If this helped,  share it.", role: "cta", tags: ["cta", "short"], words: 5, source_script_id: scriptId } });
    const fromText = ok(await get(client, "save_snippet", { script_id: scriptId, text: "Thanks for watching.\nSee you soon." }));
    expect(fromText.snippet).toMatchObject({ text: "Thanks for watching.\nSee you soon.", role: null, title: null, tags: [] });
    // Both: the words sent are saved, the paragraph gives the role.
    const both = ok(await get(client, "save_snippet", { script_id: scriptId, paragraph_id: paragraph.paragraph_id, text: "Share it with a friend." }));
    expect(both.snippet).toMatchObject({ text: "Share it with a friend.", role: "cta" });
    expect(await prisma().scriptSnippet.count({ where: { workspace_id: workspaceId } })).toBe(3);
  });

  it("refuses a save without words, and a paragraph of another script", async () => {
    const { client } = await createFixture(service);
    const scriptId = await newScript(client);
    expect(issuesOf(await get(client, "save_snippet", { script_id: scriptId, title: "Nothing" }))).toContainEqual(expect.objectContaining({ path: "paragraph_id", type: "any.required" }));
    expect(issuesOf(await get(client, "save_snippet", { script_id: scriptId, text: "  " }))).toContainEqual(expect.objectContaining({ path: "text", type: "string.empty" }));
    const other = await newScript(client, "Other");
    const { paragraph } = ok(await post(client, "insert_paragraph", { script_id: other, text: "Elsewhere." }));
    const missing = await get(client, "save_snippet", { script_id: scriptId, paragraph_id: paragraph.paragraph_id });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "not_found", param: "paragraph_id" });
  });

  it("lists the workspace's shelf newest first, searches title, words and tags, and pages by cursor", async () => {
    const { client } = await createFixture(service);
    const scriptId = await newScript(client);
    for (const [text, title, tags] of [["Hello there.", "Greeting", ["intro"]], ["Smash that button.", "Button", ["cta"]], ["Bye for now.", "Farewell", ["outro", "cta"]]] as const) {
      ok(await get(client, "save_snippet", { script_id: scriptId, text, title, tags: [...tags] }));
    }
    const all = ok(await get(client, "snippets", { script_id: scriptId }));
    expect(all).toMatchObject({ object: "list", has_more: false, next_cursor: null, limit: 25 });
    expect(all.data.map((snippet: Row) => snippet.title)).toEqual(["Farewell", "Button", "Greeting"]);
    expect(ok(await get(client, "snippets", { script_id: scriptId, search: "BUTTON" })).data.map((snippet: Row) => snippet.title)).toEqual(["Button"]);
    expect(ok(await get(client, "snippets", { script_id: scriptId, search: "there" })).data.map((snippet: Row) => snippet.title)).toEqual(["Greeting"]);
    expect(ok(await get(client, "snippets", { script_id: scriptId, search: "cta" })).data.map((snippet: Row) => snippet.title)).toEqual(["Farewell", "Button"]);

    const first = ok(await get(client, "snippets", { script_id: scriptId, limit: 2 }));
    expect(first).toMatchObject({ has_more: true, limit: 2 });
    const second = ok(await get(client, "snippets", { script_id: scriptId, limit: 2, cursor: first.next_cursor }));
    expect([...first.data, ...second.data].map((snippet: Row) => snippet.title)).toEqual(["Farewell", "Button", "Greeting"]);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect((await get(client, "snippets", { script_id: scriptId, limit: 0 })).body.error).toMatchObject({ code: "validation_failed", message: "limit must be an integer from 1 to 100." });

    const stranger = await createFixture(service);
    expect(ok(await get(stranger.client, "snippets", { script_id: await newScript(stranger.client) })).data).toEqual([]);
  });

  it("inserts a snippet unchanged after a paragraph, as a logged write with its restore point", async () => {
    const { client } = await createFixture(service);
    const scriptId = await newScript(client);
    const first = ok(await post(client, "insert_paragraph", { script_id: scriptId, text: "First." })).paragraph;
    ok(await post(client, "insert_paragraph", { script_id: scriptId, text: "Last." }));
    const chapter = await prisma().scriptChapter.create({ data: { chapter_id: "chp_shelf_test_0000000001", script_id: scriptId, position: 0, title: "Only" } });
    await prisma().scriptParagraph.update({ where: { paragraph_id: first.paragraph_id }, data: { chapter_id: chapter.chapter_id } });
    const { snippet } = ok(await get(client, "save_snippet", { script_id: scriptId, text: "Odd   spacing, kept.\n Really.", role: "punchline" }));

    const inserted = ok(await post(client, "insert_snippet", { script_id: scriptId, snippet_id: snippet.snippet_id, after_paragraph_id: first.paragraph_id, request: "r-1" }));
    expect(inserted).toMatchObject({
      object: "script_paragraph",
      paragraph: { position: 1, text: "Odd   spacing, kept.\n Really.", role: "punchline", chapter_id: chapter.chapter_id, word_count: 4 },
      snippet: { snippet_id: snippet.snippet_id },
      snippets: [],
      request: "r-1",
    });
    const rows = await prisma().scriptParagraph.findMany({ where: { script_id: scriptId }, orderBy: { position: "asc" } });
    expect(rows.map((row) => row.text)).toEqual(["First.", "Odd   spacing, kept.\n Really.", "Last."]);
    const edit = await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: inserted.edit_id } });
    expect(edit).toMatchObject({ action: "scripts.insert_snippet", kind: "paragraph.insert", paragraph_id: inserted.paragraph.paragraph_id });
    const point = await prisma().scriptSnapshot.findFirstOrThrow({ where: { script_id: scriptId, action: "scripts.insert_snippet" } });
    expect((point.document as Row).paragraphs.map((paragraph: Row) => paragraph.text)).toEqual(["First.", "Last."]);
    expect(inserted.revision).toBe(3);
  });

  it("lists the shelf without snippet_id (query filters) and writes nothing; another workspace's snippet is 404", async () => {
    const { client } = await createFixture(service);
    const scriptId = await newScript(client);
    ok(await get(client, "save_snippet", { script_id: scriptId, text: "Hello there.", title: "Greeting" }));
    ok(await get(client, "save_snippet", { script_id: scriptId, text: "Bye for now.", title: "Farewell" }));
    const shelf = ok(await post(client, "insert_snippet", { script_id: scriptId, query: "bye" }));
    expect(shelf).toMatchObject({ object: "script_snippet_shelf", paragraph: null, edit_id: null, revision: 0, has_more: false });
    expect(shelf.snippets.map((snippet: Row) => snippet.title)).toEqual(["Farewell"]);
    expect(ok(await post(client, "insert_snippet", { script_id: scriptId })).snippets).toHaveLength(2);
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId } })).toBe(0);

    const stranger = await createFixture(service);
    const theirs = ok(await get(stranger.client, "save_snippet", { script_id: await newScript(stranger.client), text: "Not yours." })).snippet;
    const refused = await post(client, "insert_snippet", { script_id: scriptId, snippet_id: theirs.snippet_id });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatchObject({ code: "not_found", param: "snippet_id" });
    expect(await prisma().scriptParagraph.count({ where: { script_id: scriptId } })).toBe(0);
  });
});
