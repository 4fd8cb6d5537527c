// Smaller findings of issue "Reliability and security, round two" (7): an error never echoes
// megabytes of what the client sent; links and doc_url never carry the request's Host header
// (anyone can set it) when no public base URL is configured; a subscription with a field that
// does not exist gets GraphQL's validation error, not "cannot be read".
import { describe, expect, it } from "vitest";
import { createFixture, useService } from "./support/service.js";
import { sendRaw } from "./support/raw-http.js";

const service = useService();

describe("what an error echoes", () => {
  it("cuts a 4 MB GraphQL id short in the not_found message", async () => {
    const { client } = await createFixture(service);
    const id = `vid_${"x".repeat(4 * 1024 * 1024)}`;
    const answer = await client.graphql(`query ($id: ID!) { video(video_id: $id) { video_id } }`, { id });
    expect(answer.text.length).toBeLessThan(10_000);
    expect(answer.body.errors[0].extensions).toMatchObject({ code: "not_found" });
    expect(answer.body.errors[0].message).toContain(`(${id.length} characters)`);
  });

  it("cuts a 4 MB REST path id short in the not_found message", async () => {
    const { client } = await createFixture(service);
    const id = `vid_${"y".repeat(12_000)}`;
    const answer = await client.get(`/api/v1/videos/${id}`);
    expect(answer.status).toBe(404);
    expect(answer.text.length).toBeLessThan(5_000);
  });
});

describe("links when CUTROOM_PUBLIC_BASE_URL is unset", () => {
  it("point at the listener, not at a Host header the client chose", async () => {
    const { key } = await createFixture(service);
    const answer = await sendRaw(service.url, `GET /api/v1/videos/vid_missing HTTP/1.1\r\nhost: evil.example\r\nauthorization: Bearer ${key}\r\nconnection: close\r\n\r\n`);
    expect(answer.status).toBe(404);
    const body = JSON.parse(answer.body) as { error: { doc_url: string } };
    expect(body.error.doc_url).toBe(`${service.url}/docs/api/errors#not_found`);
    expect(answer.body).not.toContain("evil.example");
  });
});

describe("a subscription with a field that does not exist", () => {
  it("gets the validation error in the envelope", async () => {
    const { key } = await createFixture(service);
    const response = await fetch(`${service.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: "subscription { events(types: [\"video.*\"]) { no_such_field } }" }),
    });
    const text = await response.text();
    expect(text).not.toContain("cannot be read");
    expect(text).toContain("no_such_field");
    expect(text).toContain("invalid_request");
  });
});
