// The migrated database matches schema.prisma: every model, column, type and nullability. The
// Prisma schema engine cannot run here, so migrations are hand-kept SQL; this is what keeps them
// honest. Also the migration runner itself (src/db/migrate.ts) on databases of its own.
import { createHash, randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrate, MIGRATIONS_DIR } from "../src/db/migrate.js";
import { pgRunner } from "../src/db/sql-runner.js";
import { modelFields, modelNames } from "../src/graphql/datamodel.js";
import { expectedColumnType, readPrismaSchema, type PrismaSchema } from "./support/prisma-schema.js";

// Read once at collection time (the per-model tests are generated from it). If the file cannot be
// read, the reader test below reports why, instead of the whole file failing to load.
let schema: PrismaSchema = { models: [], enums: [] };
let schemaError: { error: unknown } | undefined;
try {
  schema = readPrismaSchema();
} catch (error) {
  schemaError = { error };
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: "YES" | "NO";
  datetime_precision: number | null;
}

describe("the schema.prisma reader", () => {
  it("reads the same models and scalar fields as Prisma's generated datamodel", () => {
    // Guards the reader itself: if it missed or misread a field, the drift test below would be
    // checking the wrong thing. (A mismatch can also mean the client is stale: npm run generate:client.)
    if (schemaError) throw schemaError.error;
    expect(schema.models.map((model) => model.name).sort()).toEqual([...modelNames()].sort());
    for (const model of schema.models) {
      const generated = modelFields(model.name)
        .filter((field) => field.kind !== "object")
        .map(({ name, type, isRequired, isList }) => ({ name, type, isRequired, isList }));
      const parsed = model.fields.map(({ name, type, isRequired, isList }) => ({ name, type, isRequired, isList }));
      expect(parsed, `model ${model.name}`).toEqual(generated);
    }
  });
});

describe("the migrated database", () => {
  let client: pg.Client;
  let columns: ColumnRow[];

  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    columns = (
      await client.query<ColumnRow>(
        `SELECT table_name, column_name, data_type, udt_name, is_nullable, datetime_precision
           FROM information_schema.columns
          WHERE table_schema = 'public'
          ORDER BY table_name, ordinal_position`,
      )
    ).rows;
  });
  afterAll(async () => {
    await client?.end();
  });

  it("has a table for every model, and no table schema.prisma does not declare", async () => {
    const tables = (
      await client.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      )
    ).rows.map((row) => row.table_name);
    const declared = schema.models.map((model) => model.table);
    const missing = declared.filter((table) => !tables.includes(table));
    const undeclared = tables.filter((table) => table !== "_prisma_migrations" && !declared.includes(table));
    expect({ missing, undeclared }, "tables of the public schema").toEqual({ missing: [], undeclared: [] });
    expect(tables).toContain("_prisma_migrations");
  });

  for (const model of schema.models) {
    describe(`model ${model.name} (table ${model.table})`, () => {
      const tableColumns = () => columns.filter((column) => column.table_name === model.table);

      it("has exactly one column per scalar field: none missing, none extra", () => {
        const actual = tableColumns().map((column) => column.column_name).sort();
        const expected = model.fields.map((field) => field.column).sort();
        const missing = expected.filter((name) => !actual.includes(name));
        const extra = actual.filter((name) => !expected.includes(name));
        expect({ missing, extra }, `columns of ${model.table}`).toEqual({ missing: [], extra: [] });
      });

      it("gives every column the type and nullability its field declares", () => {
        const byName = new Map(tableColumns().map((column) => [column.column_name, column]));
        const mismatches: string[] = [];
        for (const field of model.fields) {
          const column = byName.get(field.column);
          if (!column) continue; // reported by the column-set test
          const expected = expectedColumnType(field, schema);
          const label = `${model.table}.${field.column} (${field.type}${field.isList ? "[]" : ""}${field.isRequired ? "" : "?"}${field.nativeType ? ` @db.${field.nativeType.name}` : ""})`;
          if (column.data_type !== expected.dataType || column.udt_name !== expected.udtName) {
            mismatches.push(`${label}: type is ${column.data_type}/${column.udt_name}, expected ${expected.dataType}/${expected.udtName}`);
          }
          if (expected.datetimePrecision !== undefined && column.datetime_precision !== expected.datetimePrecision) {
            mismatches.push(`${label}: precision is ${column.datetime_precision}, expected ${expected.datetimePrecision}`);
          }
          // Prisma creates list columns as nullable arrays (`TEXT[]`, no NOT NULL) even for a
          // required list such as `scopes String[]`; Prisma Client never writes NULL to them.
          // A hand-written NOT NULL would be drift from what `prisma migrate diff` produces.
          const nullable = field.isList ? true : !field.isRequired;
          if ((column.is_nullable === "YES") !== nullable) {
            mismatches.push(`${label}: is ${column.is_nullable === "YES" ? "nullable" : "NOT NULL"}, expected ${nullable ? "nullable" : "NOT NULL"}`);
          }
        }
        expect(mismatches).toEqual([]);
      });
    });
  }
});

// --- the runner, on databases of its own --------------------------------------------------------

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
}

async function migrationNames(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
}

async function fileChecksum(dir: string, name: string): Promise<string> {
  return createHash("sha256").update(await readFile(path.join(dir, name, "migration.sql"))).digest("hex");
}

describe("the migration runner", () => {
  const created: string[] = [];
  const pools: pg.Pool[] = [];
  let tempDir: string;

  async function freshDatabase(): Promise<string> {
    const name = `cutroom_migtest_${process.pid}_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    created.push(name);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    return url.toString();
  }

  function pool(url: string): pg.Pool {
    const opened = new pg.Pool({ connectionString: url, max: 2 });
    // pool.end() resolves before its connections have closed; DROP DATABASE ... WITH (FORCE) in
    // afterAll then terminates them, and the pool re-emits that as an error nobody else handles.
    opened.on("error", () => undefined);
    pools.push(opened);
    return opened;
  }

  async function appliedRows(db: pg.Pool): Promise<MigrationRow[]> {
    return (
      await db.query<MigrationRow>(
        `SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
      )
    ).rows;
  }

  beforeAll(async () => {
    tempDir = await mkdtemp(path.join(os.tmpdir(), "cutroom-migrations-"));
  });

  afterAll(async () => {
    await Promise.all(pools.map((opened) => opened.end()));
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  });

  it("applies every migration in order and records each with the sha256 of its file; a second run applies nothing", async () => {
    const names = await migrationNames(MIGRATIONS_DIR);
    expect(names.length).toBeGreaterThan(0);
    const db = pool(await freshDatabase());
    const runner = pgRunner(db);

    expect(await migrate(runner)).toEqual(names);

    const rows = await appliedRows(db);
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      expect(row.checksum).toBe(await fileChecksum(MIGRATIONS_DIR, row.migration_name));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    // The schema really exists, not just the bookkeeping.
    const tables = await db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    const present = tables.rows.map((row) => row.table_name);
    expect(present.length).toBeGreaterThan(1);
    expect(schema.models.map((model) => model.table).filter((table) => !present.includes(table))).toEqual([]);

    expect(await migrate(runner)).toEqual([]);
    expect(await appliedRows(db)).toEqual(rows);
  });

  it("applies each migration once when several processes migrate at the same time (advisory lock)", async () => {
    const names = await migrationNames(MIGRATIONS_DIR);
    const url = await freshDatabase();
    // Separate pools: separate sessions, as separate service instances starting together.
    const results = await Promise.all(Array.from({ length: 4 }, () => migrate(pgRunner(pool(url)))));
    expect(results.flat().sort()).toEqual(names);
    expect(results.filter((applied) => applied.length > 0)).toHaveLength(1);
    const rows = await appliedRows(pools.at(-1)!);
    expect(rows.map((row) => row.migration_name)).toEqual(names);
  });

  it("refuses a migration edited after it was applied, with a clear error, and changes nothing", async () => {
    const dir = path.join(tempDir, "edited");
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const db = pool(await freshDatabase());
    const runner = pgRunner(db);
    await migrate(runner, dir);
    const before = await appliedRows(db);

    const [first] = await migrationNames(dir);
    const file = path.join(dir, first!, "migration.sql");
    await writeFile(file, `${await readFile(file, "utf8")}\n-- an edit after the fact\nCREATE TABLE "sneaky" (id INTEGER);\n`);

    await expect(migrate(runner, dir)).rejects.toThrow(`Migration ${first} was edited after it was applied; add a new migration instead.`);
    expect(await appliedRows(db)).toEqual(before);
    const sneaky = await db.query(`SELECT to_regclass('public.sneaky') AS found`);
    expect(sneaky.rows[0].found).toBeNull();
  });

  it("applies a migration added later, and rolls back a failing one without recording it", async () => {
    const dir = path.join(tempDir, "added");
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const db = pool(await freshDatabase());
    const runner = pgRunner(db);
    await migrate(runner, dir);

    await mkdir(path.join(dir, "99990101000000_add_notes"));
    await writeFile(path.join(dir, "99990101000000_add_notes", "migration.sql"), `CREATE TABLE "notes" ("id" TEXT PRIMARY KEY);\n`);
    expect(await migrate(runner, dir)).toEqual(["99990101000000_add_notes"]);
    const added = (await appliedRows(db)).find((row) => row.migration_name === "99990101000000_add_notes");
    expect(added?.checksum).toBe(await fileChecksum(dir, "99990101000000_add_notes"));

    await mkdir(path.join(dir, "99990102000000_broken"));
    await writeFile(
      path.join(dir, "99990102000000_broken", "migration.sql"),
      `CREATE TABLE "half_done" ("id" TEXT);\nALTER TABLE "no_such_table" ADD COLUMN "x" TEXT;\n`,
    );
    await expect(migrate(runner, dir)).rejects.toThrow(/^Migration 99990102000000_broken failed: .*no_such_table/);
    expect((await appliedRows(db)).map((row) => row.migration_name)).not.toContain("99990102000000_broken");
    const halfDone = await db.query(`SELECT to_regclass('public.half_done') AS found`);
    expect(halfDone.rows[0].found).toBeNull();
  });
});
