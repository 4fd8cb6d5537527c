import { describe, expect, it } from "vitest";
import { createFixture, useService } from "./support/service.js";

const service = useService();
const show = (label: string, r: { status: number; headers: Headers; text: string }, n = 1500) =>
  console.log(`### ${label} ${r.status} allow=${r.headers.get("allow")} ct=${r.headers.get("content-type")} cd=${r.headers.get("content-disposition")} xtm=${r.headers.get("x-test-mode")}\n${r.text.slice(0, n)}`);

describe("probe", () => {
  it("probes", async () => {
    const { client } = await createFixture(service);
    show("null post", await client.request("POST", "/api/v1/videos", { rawBody: "null", headers: { "content-type": "application/json" } }));
    const b = await client.post("/api/v1/batch", { requests: [
      { id: "c", method: "PUT", path: "/v1/videos" },
      { id: "d", method: "GET", path: "/v1/videos/vid_nope" },
      { id: "e", method: "POST", path: "/v1/videos", body: { nope: 1 } },
      { id: "f", method: "POST", path: "/v1/../../graphql", body: { query: "{ videos { data { video_id } } }" } },
    ] });
    console.log(JSON.stringify(b.body, null, 1).slice(0, 4000));
    await client.post("/api/v1/videos", { video_name: "x", video_json: { a: [1, 2] }, config: { fps: 30 }, published: true });
    await client.post("/api/v1/videos", { video_name: 'he said "hi", ok' });
    const j = await client.get("/api/v1/videos");
    console.log(Object.keys(j.body.data[0]).join(","));
    show("csv", await client.get("/api/v1/videos?format=csv"), 3000);
    show("csv fields", await client.get("/api/v1/videos?format=csv&fields=video_name,config&expand=video_json"), 3000);
    show("ndjson", await client.get("/api/v1/videos", { headers: { accept: "application/x-ndjson" } }), 3000);
    show("xml", await client.get("/api/v1/videos?format=xml"));
    show("acc xml", await client.get("/api/v1/videos", { headers: { accept: "application/xml" } }));
    show("bad filter csv", await client.get("/api/v1/videos?format=csv&published=maybe"));
    show("bad cursor csv", await client.get("/api/v1/videos?format=csv&cursor=zzz"));
    show("empty csv", await client.get("/api/v1/videos?format=csv&video_format=square"));
    show("empty ndjson", await client.get("/api/v1/videos?format=ndjson&video_format=square"));
    show("csv limit0", await client.get("/api/v1/videos?format=csv&limit=0"));
  });
});
