// PostgreSQL closing the service's idle connections (a restart, a failover, an administrator's
// pg_terminate_backend) must not end the process: the pool drops them and the next requests are
// served on new connections. The service runs in this test's own process, on a database of its own.
import pg from "pg";
import { expect, it, vi } from "vitest";
import { createFixture, isolatedEnvironment, useService } from "./support/service.js";
import { logger } from "../src/logger.js";
import { sleep } from "./support/wait.js";

const environment = isolatedEnvironment("db-connection-loss");
const service = useService(environment.overrides);

it("keeps serving after the database closed its idle connections", async () => {
  const { client } = await createFixture(service);
  // Several requests at once, so the pool holds several idle connections.
  const created = await Promise.all(Array.from({ length: 5 }, (_, index) => client.post("/api/v1/folders", { folder_name: `Before ${index}` })));
  expect(created.map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);

  const warnings = vi.spyOn(logger, "warn");
  const admin = new pg.Client({ connectionString: environment.overrides.databaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ terminated: boolean }>(
      "SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    expect(rows.length).toBeGreaterThan(0);
  } finally {
    await admin.end();
  }
  // The pool hears the closed connections; give it a moment to drop them.
  await sleep(200);
  // One short line per closed connection: why, not the pg client it came from.
  const closed = warnings.mock.calls.filter((call) => call[1] === "idle database connection closed");
  warnings.mockRestore();
  expect(closed.length).toBeGreaterThan(0);
  for (const [fields] of closed) expect(fields).toEqual({ err: { type: "error", message: "terminating connection due to administrator command", code: "57P01" } });

  const listed = await client.get("/api/v1/folders?limit=10");
  expect(listed.status, listed.text).toBe(200);
  expect(listed.body.data).toHaveLength(5);
  const after = await client.post("/api/v1/folders", { folder_name: "After" });
  expect(after.status, after.text).toBe(201);
});
