// The credit ledger (contract 4.1, 6 credits.low, 7 insufficient_credits; src/credits/ledger.ts).
// No action spends credits yet, so the ledger functions are driven directly against the service's
// real PostgreSQL, each inside prisma.$transaction as the actions will call them; what they write
// is then read back through the API (credit_transactions, usage).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { addCredits, InsufficientCreditsError, recordCreditsLow, spendCredits } from "../src/credits/ledger.js";
import { runInRequestContext } from "../src/context/request-context.js";
import { createWorkspace } from "../src/workspaces/workspace-service.js";
import { balanceOf, funded } from "./support/action-calls.js";
import { Client, createFixture, useService } from "./support/service.js";

const service = useService();

type Row = Record<string, any>;

const prisma = () => service.service.database.prisma;

const ledgerOf = (workspaceId: string) => prisma().creditTransaction.findMany({ where: { workspace_id: workspaceId }, orderBy: { created_at: "asc" } });

const spend = (workspaceId: string, amount: number, extra: { keyId?: string; referenceId?: string } = {}) =>
  prisma().$transaction((tx) => spendCredits(tx, { workspaceId, amount, actionType: "images.generate", ...extra }));

const grant = (workspaceId: string, amount: number) =>
  prisma().$transaction((tx) => addCredits(tx, { workspaceId, amount, actionType: "grant", description: "test grant" }));

describe("spendCredits", () => {
  it("takes credits from the balance and writes a ledger row", async () => {
    const { workspaceId, keyId } = await funded(service, 100);
    const result = await spend(workspaceId, 30, { keyId, referenceId: "gen_123" });
    expect(result).toEqual({ transactionId: expect.stringMatching(/.+/), balanceAfter: 70 });
    expect(await balanceOf(service, workspaceId)).toBe(70);

    const row = await prisma().creditTransaction.findUniqueOrThrow({ where: { transaction_id: result.transactionId } });
    expect(row).toMatchObject({
      workspace_id: workspaceId,
      amount: -30,
      balance_after: 70,
      action_type: "images.generate",
      key_id: keyId,
      reference_id: "gen_123",
      request_id: null, // outside a request
    });
  });

  it("records the request id when spent inside a request", async () => {
    const { workspaceId } = await funded(service, 10);
    const result = await runInRequestContext({ requestId: "req_ledgertest00000000000", baseUrl: service.url }, () => spend(workspaceId, 4));
    const row = await prisma().creditTransaction.findUniqueOrThrow({ where: { transaction_id: result.transactionId } });
    expect(row.request_id).toBe("req_ledgertest00000000000");
  });

  it("20 parallel spends of 10 against 100: exactly 10 succeed, the balance ends at 0, never below", async () => {
    const { workspaceId } = await funded(service, 100);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => spend(workspaceId, 10)));

    const succeeded = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(succeeded).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const outcome of refused) {
      expect(outcome.reason).toBeInstanceOf(InsufficientCreditsError);
      expect(outcome.reason.details).toMatchObject({ required: 10, available: 0, shortfall: 10 });
    }
    expect(await balanceOf(service, workspaceId)).toBe(0);

    const spends = (await ledgerOf(workspaceId)).filter((row) => row.amount < 0);
    expect(spends).toHaveLength(10);
    expect(spends.every((row) => row.amount === -10)).toBe(true);
    // Every movement saw its own balance: 90, 80, ..., 0, each once, none negative.
    expect(spends.map((row) => row.balance_after).sort((a, b) => a - b)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    const fulfilledBalances = succeeded.map((outcome) => (outcome as PromiseFulfilledResult<{ balanceAfter: number }>).value.balanceAfter);
    expect(fulfilledBalances.sort((a, b) => a - b)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
  });

  it("throws InsufficientCreditsError (402, required/available/shortfall) and changes nothing", async () => {
    const { workspaceId } = await funded(service, 25);
    const before = await ledgerOf(workspaceId);
    const error = await spend(workspaceId, 40).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    const insufficient = error as InsufficientCreditsError;
    expect(insufficient.code).toBe("insufficient_credits");
    expect(insufficient.status).toBe(402);
    expect(insufficient.details).toMatchObject({ required: 40, available: 25, shortfall: 15, action_type: "images.generate" });
    expect(await balanceOf(service, workspaceId)).toBe(25);
    expect(await ledgerOf(workspaceId)).toEqual(before);
  });

  it("rolls back with the transaction it is part of", async () => {
    const { workspaceId } = await funded(service, 50);
    await expect(
      prisma().$transaction(async (tx) => {
        await spendCredits(tx, { workspaceId, amount: 20, actionType: "renders.create" });
        throw new Error("the paid-for work failed");
      }),
    ).rejects.toThrow("the paid-for work failed");
    expect(await balanceOf(service, workspaceId)).toBe(50);
    expect((await ledgerOf(workspaceId)).filter((row) => row.amount < 0)).toEqual([]);
  });

  it("refuses amounts that are not positive whole numbers", async () => {
    const { workspaceId } = await funded(service, 50);
    for (const amount of [0, -5, 1.5]) await expect(spend(workspaceId, amount)).rejects.toThrow(/positive whole number/);
    expect(await balanceOf(service, workspaceId)).toBe(50);
  });
});

describe("recordCreditsLow", () => {
  it("writes a credits.low outbox event carrying required, available and shortfall", async () => {
    const { workspaceId } = await funded(service, 5);
    const error = await spend(workspaceId, 12).catch((caught: unknown) => caught as InsufficientCreditsError);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    await recordCreditsLow(prisma(), error as InsufficientCreditsError);

    const events = await prisma().outboxEvent.findMany({ where: { workspace_id: workspaceId, type: "credits.low" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ livemode: true, request_id: null });
    expect((events[0]!.data as Row).object).toMatchObject({ object: "credits_low", action_type: "images.generate", required: 12, available: 5, shortfall: 7 });
    expect(await balanceOf(service, workspaceId)).toBe(5);
  });
});

describe("addCredits", () => {
  it("grants credits and writes a positive ledger row", async () => {
    const { workspaceId } = await createFixture(service);
    const first = await grant(workspaceId, 40);
    const second = await grant(workspaceId, 2);
    expect([first.balanceAfter, second.balanceAfter]).toEqual([40, 42]);
    expect(await balanceOf(service, workspaceId)).toBe(42);
    const rows = (await ledgerOf(workspaceId)).sort((a, b) => a.balance_after - b.balance_after);
    expect(rows.map((row) => [row.action_type, row.amount, row.balance_after])).toEqual([
      ["grant", 40, 40],
      ["grant", 2, 42],
    ]);
  });
});

describe("through the API", () => {
  it("GET /api/v1/credit_transactions lists the ledger (usage:read) and /usage shows the balance", async () => {
    const fixture = await funded(service, 100, { scopes: ["usage:read"] });
    await spend(fixture.workspaceId, 30, { keyId: fixture.keyId });
    await spend(fixture.workspaceId, 5, { keyId: fixture.keyId });

    const list = await fixture.client.get("/api/v1/credit_transactions");
    expect(list.status, list.text).toBe(200);
    expect(list.body.object).toBe("list");
    // Rows of one millisecond may come in either order; the balances tell the sequence.
    const rows = [...(list.body.data as Row[])].sort((a, b) => b.balance_after - a.balance_after);
    expect(rows.map((row) => [row.object, row.action_type, row.amount, row.balance_after])).toEqual([
      ["credit_transaction", "grant", 100, 100],
      ["credit_transaction", "images.generate", -30, 70],
      ["credit_transaction", "images.generate", -5, 65],
    ]);
    expect(list.body.data[0].workspace_id).toBeUndefined();
    const spent = await fixture.client.get("/api/v1/credit_transactions?amount[lt]=0&include_total=true");
    expect(spent.body.total).toBe(2);

    const one = await fixture.client.get(`/api/v1/credit_transactions/${rows[1]!._id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ object: "credit_transaction", amount: -30, key_id: fixture.keyId });

    const usage = await fixture.client.get("/api/v1/usage");
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body).toMatchObject({ object: "usage", credit_balance: 65, credits_spent: 35 });

    // Another workspace sees none of it.
    const other = await funded(service, 0);
    const theirs = await other.client.get("/api/v1/credit_transactions");
    expect(theirs.body.data).toEqual([]);
    expect((await other.client.get("/api/v1/usage")).body.credit_balance).toBe(0);
  });

  it("needs usage:read", async () => {
    const fixture = await createFixture(service, { scopes: ["videos:*"] });
    for (const path of ["/api/v1/credit_transactions", "/api/v1/usage"]) {
      const response = await fixture.client.get(path);
      expect(response.status, response.text).toBe(403);
      expect(response.body.error).toMatchObject({ code: "insufficient_scope", details: { required_scopes: ["usage:read"] } });
    }
  });
});

describe("starting credits", () => {
  it("a workspace created with startingCredits gets a grant ledger row; without, none", async () => {
    const empty = await createWorkspace(prisma(), "No credits");
    expect(await balanceOf(service, empty)).toBe(0);
    expect(await ledgerOf(empty)).toEqual([]);

    const funded = await createWorkspace(prisma(), "Starting credits", 250);
    expect(await balanceOf(service, funded)).toBe(250);
    expect((await ledgerOf(funded)).map((row) => [row.action_type, row.amount, row.balance_after])).toEqual([["grant", 250, 250]]);
  });

  it("CUTROOM_STARTING_CREDITS reaches a new workspace made by `npm run key -- create --workspace new`", async () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ["--import", "tsx", "src/cli/key.ts", "create", "--workspace", "new", "--preset", "read_only", "--name", "credits"],
        { cwd: root, env: { ...process.env, DATABASE_URL: inject("databaseUrl"), LOG_LEVEL: "silent", CUTROOM_STARTING_CREDITS: "321" }, timeout: 60_000 },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      ),
    );
    const client = new Client(service.url, stdout.trim());
    const usage = await client.get("/api/v1/usage");
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body.credit_balance).toBe(321);
    const ledger = await client.get("/api/v1/credit_transactions");
    expect((ledger.body.data as Row[]).map((row) => [row.action_type, row.amount, row.balance_after])).toEqual([["grant", 321, 321]]);
  });
});
