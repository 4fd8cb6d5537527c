// The review link over HTTP: scripts.share (on, off, notes, rotation; a minted token), the keyless
// page at /review/<token> (its headers, escaping, 404 for a link that is off or replaced), notes
// posted through its form (the only way notes arrive) with their bounds, scripts.notes and
// scripts.resolve_note (contract section 3's moves), and the address limit keyless routes share.
// The same flows in a real browser: review-browser.test.ts.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { createFixture, useService, type Client } from "../support/service.js";
import { postReviewNote } from "../../src/scripts/review/client.js";
import { NOTE_BODY_MAX } from "../../src/scripts/review/page.js";
import { ok } from "../support/action-calls.js";

// A generous keyless window: the address counter is shared with every test file on this machine.
const service = useService();
// A tight one, for the test that spends it (from an address of its own).
const tight = useService({ anonymousPerMinute: 3 });
const prisma = () => service.service.database.prisma;

type Row = Record<string, any>;  

const post = (client: Client, name: string, input: Record<string, unknown>) => client.post(`/api/v1/actions/scripts.${name}`, input);
const get = (client: Client, name: string, input: Record<string, unknown>) =>
  client.get(`/api/v1/actions/scripts.${name}?${new URLSearchParams(Object.entries(input).map(([key, value]) => [key, String(value)]))}`);

async function sharedScript(client: Client, texts: string[], share: Record<string, unknown> = { enabled: true, allow_notes: true }) {
  const { script_id: scriptId } = ok(await post(client, "create", { title: "Review me" }));
  const ids: string[] = [];
  for (const text of texts) ids.push(ok(await post(client, "insert_paragraph", { script_id: scriptId, text })).paragraph.paragraph_id);
  const shared = ok(await post(client, "share", { script_id: scriptId, ...share }));
  return { scriptId, ids, shared };
}

const page = (url: string, init?: RequestInit) => fetch(url, { redirect: "manual", ...init });

describe("scripts.share", () => {
  it("mints the link on first enabling, keeps it across off and on, and replaces it on rotate", async () => {
    const { client } = await createFixture(service);
    const { scriptId, shared } = await sharedScript(client, ["Hello."], { enabled: true });
    expect(shared).toMatchObject({ object: "script_share", enabled: true, allow_notes: false, rotated: false, revision: 2 });
    expect(shared.url).toMatch(new RegExp(`^${service.url}/review/[A-Za-z0-9_-]{32}$`));
    expect((await page(shared.url)).status).toBe(200);
    // The log says what changed, never the token.
    const edit = await prisma().scriptEdit.findUniqueOrThrow({ where: { edit_id: shared.edit_id } });
    expect(edit).toMatchObject({ kind: "share", before: { enabled: false, allow_notes: false }, after: { enabled: true, allow_notes: false, rotated: false } });
    expect(JSON.stringify(edit)).not.toContain(shared.url.split("/").at(-1));

    // Nothing sent: nothing changes, the link is reported.
    expect(ok(await post(client, "share", { script_id: scriptId }))).toMatchObject({ url: shared.url, edit_id: null });
    // Off: 404; on again: the same link works.
    expect(ok(await post(client, "share", { script_id: scriptId, enabled: false }))).toMatchObject({ enabled: false, url: null });
    expect((await page(shared.url)).status).toBe(404);
    expect(ok(await post(client, "share", { script_id: scriptId, enabled: true })).url).toBe(shared.url);
    // Rotate: a new link; the old one is 404 for good.
    const rotated = ok(await post(client, "share", { script_id: scriptId, rotate: true }));
    expect(rotated).toMatchObject({ enabled: true, rotated: true });
    expect(rotated.url).not.toBe(shared.url);
    expect((await page(shared.url)).status).toBe(404);
    expect((await page(rotated.url)).status).toBe(200);
  });

  it("cannot be steered to a chosen token, and a test key's link works nowhere", async () => {
    const fixture = await createFixture(service);
    const { script_id: scriptId } = ok(await post(fixture.client, "create", {}));
    const chosen = await post(fixture.client, "share", { script_id: scriptId, enabled: true, token: "mine" });
    expect(chosen.status).toBe(422);
    expect(chosen.body.error.details.issues[0]).toMatchObject({ path: "token", type: "object.unknown" });
    const test = await fixture.newKey({ mode: "test" });
    const simulated = ok(await post(test.client, "share", { script_id: scriptId, enabled: true, rotate: true }));
    expect(simulated).toMatchObject({ livemode: false, enabled: true });
    expect((await page(simulated.url)).status).toBe(404);
    expect(await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } })).toMatchObject({ share_enabled: false, share_token: null });
  });
});

describe("the review page", () => {
  it("shows the script without a key, escaped, under a policy that allows no script and no other host", async () => {
    const { client } = await createFixture(service);
    const { shared } = await sharedScript(client, ['<script>alert("x")</script> & <b>bold</b>', "Second line."], { enabled: true });
    const response = await page(shared.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const policy = response.headers.get("content-security-policy")!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).toContain("form-action 'self'");
    expect(policy).not.toMatch(/script-src|unsafe-inline/);
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-ratelimit-window")).toBe("anonymous_minute");
    const html = await response.text();
    expect(html).not.toMatch(/<script|<b>/i);
    expect(html).toContain("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#60;b&#62;bold&#60;/b&#62;");
    expect(html).toContain("Second line.");
    expect(html).toContain("Notes are not open on this link.");
    expect(html).not.toContain("<form");
  });

  it("answers 404 for a token it never minted, and never writes the token into the request log", async () => {
    const { client } = await createFixture(service);
    const { shared } = await sharedScript(client, ["Hi."]);
    const token = shared.url.split("/").at(-1)!;
    for (const url of [`${service.url}/review/not-a-token`, `${service.url}/review/${"A".repeat(32)}`, `${service.url}/review`, `${service.url}/review/${token}/elsewhere`]) {
      expect((await page(url)).status, url).toBe(404);
    }
    expect((await page(`${shared.url}/notes`)).status).toBe(405);
    expect((await page(shared.url, { method: "DELETE" })).status).toBe(405);
    const viewed = await page(shared.url);
    await service.service.guards.requestLog.flush();
    const row = await prisma().requestLog.findUniqueOrThrow({ where: { logged_request_id: viewed.headers.get("x-request-id")! } });
    expect(row).toMatchObject({ route: "/review/{token}", path: "/review/{token}", status: 200, key_id: null });
    expect(await prisma().requestLog.count({ where: { path: { contains: token } } })).toBe(0);
  });

  it("counts keyless review requests against the address's window", async () => {
    const { client } = await createFixture(tight);
    const { script_id: scriptId } = ok(await post(client, "create", {}));
    const { url } = ok(await post(client, "share", { script_id: scriptId, enabled: true }));
    const address = `127.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) {
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          const target = new URL(url);
          const request = http.request({ host: target.hostname, port: target.port, path: target.pathname, localAddress: address }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode!));
          });
          request.on("error", reject);
          request.end();
        }),
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe("notes through the review link", () => {
  it("takes a note from the form (name optional), redirects back, and lists it in scripts.notes", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids, shared } = await sharedScript(client, ["First paragraph.", "Second paragraph, the one with a problem."]);
    const html = await (await page(shared.url)).text();
    expect(html.match(/<form method="post"/g)).toHaveLength(3); // one per paragraph, one for the whole script
    const points = await prisma().scriptSnapshot.count({ where: { script_id: scriptId } });
    const sent = await postReviewNote(shared.url, { paragraph_id: ids[1], name: "  Rosa  ", body: "Too long.\r\nCut it." }, { redirect: "manual" });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe(`${new URL(shared.url).pathname}?sent=1#p-2`);
    expect(await (await page(`${shared.url}?sent=1`)).text()).toContain("your note was sent");
    expect((await postReviewNote(shared.url, { body: "Love the whole thing." }, { redirect: "manual" })).status).toBe(303);

    const notes = ok(await get(client, "notes", { script_id: scriptId, request: '"n"' }));
    expect(notes).toMatchObject({ object: "script_notes", open: 2, resolved: 0, request: "n" });
    expect(notes.notes).toEqual([
      expect.objectContaining({ paragraph_id: ids[1], author_name: "Rosa", body: "Too long.\nCut it.", status: "open", paragraph_position: 1, paragraph_excerpt: "Second paragraph, the one with a problem.", resolved_at: null }),
      expect.objectContaining({ paragraph_id: null, author_name: null, body: "Love the whole thing.", paragraph_position: null }),
    ]);
    // A note is the reviewer's, not a write of the document: no restore point, no new revision.
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId } })).toBe(points);
    expect((await prisma().script.findUniqueOrThrow({ where: { script_id: scriptId } })).revision).toBe(shared.revision);
  });

  it("refuses notes the link does not allow, empty or oversized notes, a paragraph not in the script, and anything but a form", async () => {
    const { client } = await createFixture(service);
    const closed = await sharedScript(client, ["Read only."], { enabled: true });
    expect((await postReviewNote(closed.shared.url, { paragraph_id: closed.ids[0], body: "Let me in." }, { redirect: "manual" })).status).toBe(403);

    const open = await sharedScript(client, ["Open to notes."]);
    const other = await sharedScript(client, ["Elsewhere."]);
    const cases: [Parameters<typeof postReviewNote>[1], number][] = [
      [{ body: "   " }, 422],
      [{ body: "x".repeat(NOTE_BODY_MAX + 1) }, 422],
      [{ body: "Hi", name: "n".repeat(101) }, 422],
      [{ body: "Hi", paragraph_id: other.ids[0] }, 422],
    ];
    for (const [form, status] of cases) expect((await postReviewNote(open.shared.url, form, { redirect: "manual" })).status).toBe(status);
    const json = await page(`${open.shared.url}/notes`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ body: "Hi" }) });
    expect(json.status).toBe(415);
    const huge = await page(`${open.shared.url}/notes`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `body=${"y".repeat(40_000)}` });
    expect(huge.status).toBe(413);
    // A link switched off takes no more notes.
    ok(await post(client, "share", { script_id: open.scriptId, enabled: false }));
    expect((await postReviewNote(open.shared.url, { body: "Too late." }, { redirect: "manual" })).status).toBe(404);
    expect(await prisma().scriptNote.count({ where: { script_id: { in: [closed.scriptId, open.scriptId] } } })).toBe(0);
    // The API has no way to post one.
    expect((await post(client, "notes", { script_id: open.scriptId, body: "x" })).status).toBe(405);
  });
});

describe("scripts.resolve_note", () => {
  it("resolves, reopens and deletes a note, each a logged write; a deleted note is gone", async () => {
    const { client } = await createFixture(service);
    const { scriptId, ids, shared } = await sharedScript(client, ["Needs work."]);
    await postReviewNote(shared.url, { paragraph_id: ids[0], body: "First note." });
    await postReviewNote(shared.url, { paragraph_id: ids[0], body: "Second note." });
    const [first, second] = ok(await get(client, "notes", { script_id: scriptId })).notes;

    const resolved = ok(await post(client, "resolve_note", { script_id: scriptId, note_id: first.note_id, resolved: true }));
    expect(resolved).toMatchObject({ object: "script_note", previous_status: "open", note: { status: "resolved", paragraph_position: 0 } });
    expect(resolved.note.resolved_at).not.toBeNull();
    expect(ok(await get(client, "notes", { script_id: scriptId, open_only: true })).notes.map((note: Row) => note.note_id)).toEqual([second.note_id]);
    expect(ok(await get(client, "notes", { script_id: scriptId }))).toMatchObject({ open: 1, resolved: 1 });
    // Resolving it again changes nothing and logs nothing.
    expect(ok(await post(client, "resolve_note", { script_id: scriptId, note_id: first.note_id, resolved: true })).edit_id).toBeNull();

    const reopened = ok(await post(client, "resolve_note", { script_id: scriptId, note_id: first.note_id, resolved: false }));
    expect(reopened).toMatchObject({ previous_status: "resolved", note: { status: "open", resolved_at: null } });
    // delete wins over resolved.
    const deleted = ok(await post(client, "resolve_note", { script_id: scriptId, note_id: first.note_id, delete: true, resolved: true }));
    expect(deleted.note.status).toBe("deleted");
    expect(ok(await get(client, "notes", { script_id: scriptId })).notes.map((note: Row) => note.note_id)).toEqual([second.note_id]);
    expect((await post(client, "resolve_note", { script_id: scriptId, note_id: first.note_id, resolved: true })).status).toBe(404);

    const edits = await prisma().scriptEdit.findMany({ where: { script_id: scriptId, action: "scripts.resolve_note" }, orderBy: { created_at: "asc" } });
    expect(edits.map((edit) => [edit.kind, (edit.before as Row).status, (edit.after as Row).status])).toEqual([
      ["note.resolve", "open", "resolved"],
      ["note.reopen", "resolved", "open"],
      ["note.delete", "open", "deleted"],
    ]);
    expect(await prisma().scriptSnapshot.count({ where: { script_id: scriptId, action: "scripts.resolve_note" } })).toBe(4);
  });

  it("needs resolved or delete, and finds notes only on their own script", async () => {
    const { client } = await createFixture(service);
    const { scriptId, shared } = await sharedScript(client, ["One."]);
    await postReviewNote(shared.url, { body: "A note." });
    const [note] = ok(await get(client, "notes", { script_id: scriptId })).notes;
    const neither = await post(client, "resolve_note", { script_id: scriptId, note_id: note.note_id });
    expect(neither.status).toBe(422);
    expect(neither.body.error.details.issues).toContainEqual(expect.objectContaining({ path: "resolved", type: "any.required" }));
    expect((await post(client, "resolve_note", { script_id: scriptId, note_id: note.note_id, delete: false })).body.error.details.issues).toContainEqual(expect.objectContaining({ path: "delete", type: "any.invalid" }));
    const { script_id: otherScript } = ok(await post(client, "create", {}));
    const elsewhere = await post(client, "resolve_note", { script_id: otherScript, note_id: note.note_id, resolved: true });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toMatchObject({ code: "not_found", param: "note_id" });
    const stranger = await createFixture(service);
    expect((await post(stranger.client, "resolve_note", { script_id: scriptId, note_id: note.note_id, resolved: true })).body.error.code).toBe("workspace_mismatch");
    expect((await get(stranger.client, "notes", { script_id: scriptId })).body.error.code).toBe("workspace_mismatch");
  });
});
