// REST success bodies end with livemode and request_id (contract 2.1.3): printed onto the record's
// JSON without copying it, they read exactly as the record with the members added would.
import { expect, it } from "vitest";
import { printWithEnvelope, withEnvelope } from "../rest/responses.js";
import { runInRequestContext } from "../src/context/request-context.js";
import type { AuthContext } from "../src/context/auth-context.js";

it("prints the envelope's members after the record's own, as the copied record would", () => {
  const bodies: unknown[] = [
    { object: "video", video_id: "vid_1", video_name: 'Quote " and \\ slash', published: false, folder_ids: ["fld_1"] },
    Object.assign(Object.create(null) as object, { object: "folder", folder_id: "fld_1" }),
    {},
    null,
    // A record that has a member of that name keeps the envelope's value in the member's place.
    { object: "event", livemode: false, event_id: "evt_1" },
  ];
  for (const livemode of [true, false]) {
    const context = { requestId: "req_test", baseUrl: "http://localhost", auth: { livemode } as AuthContext };
    runInRequestContext(context, () => {
      for (const body of bodies) {
        const printed = printWithEnvelope(body);
        expect(printed).toBe(JSON.stringify(withEnvelope((body ?? {}) as Record<string, unknown>)));
        expect(JSON.parse(printed)).toMatchObject({ livemode, request_id: "req_test" });
      }
    });
  }
});
