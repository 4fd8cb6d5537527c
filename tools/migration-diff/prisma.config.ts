// Config for the Prisma 6.19 CLI in this folder only (the project itself uses Prisma 7).
//
// engine "js" + an adapter makes Prisma 6 use its WASM schema engine, so no
// schema-engine binary has to be downloaded. That engine still opens a
// connection through the adapter at start-up, even for a schema-to-schema
// `migrate diff`, and runs one handshake query. A real adapter (@prisma/adapter-pg)
// would then need a running Postgres, so this adapter answers the handshake
// itself and refuses anything else: if a later Prisma asks for more, the tool
// fails loudly instead of producing SQL from made-up database state.
import { defineConfig } from "prisma/config";

// Values of ColumnTypeEnum in @prisma/driver-adapter-utils (same in Prisma 6 and 7).
const BOOLEAN = 5, TEXT = 7, INT32 = 0;
// Claimed server version: the Postgres the project targets (15.x on these machines).
const PG_VERSION = "PostgreSQL 15.0 (migration-diff offline adapter)";
const PG_VERSION_NUM = 150000;

const unexpected = (what: string, sql?: string): never => {
  throw new Error(`migration-diff offline adapter: unexpected ${what}${sql ? `: ${sql}` : ""}`);
};

const connection = {
  provider: "postgres" as const,
  adapterName: "@prisma/adapter-pg",
  async queryRaw({ sql }: { sql: string }) {
    // The engine's handshake: does the schema exist, and which server version.
    if (/^SELECT EXISTS\(SELECT 1 FROM pg_namespace WHERE nspname = \$1\), version\(\)/.test(sql)) {
      return {
        columnNames: ["exists", "version", "numeric_version"],
        columnTypes: [BOOLEAN, TEXT, INT32],
        rows: [[true, PG_VERSION, PG_VERSION_NUM]],
      };
    }
    return unexpected("query", sql);
  },
  executeRaw: async ({ sql }: { sql: string }) => unexpected("statement", sql),
  executeScript: async (script: string) => unexpected("script", script),
  startTransaction: async () => unexpected("transaction"),
  getConnectionInfo: () => ({ schemaName: "public", supportsRelationJoins: true }),
  dispose: async () => {},
};

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  adapter: async () =>
    ({
      provider: "postgres",
      adapterName: "@prisma/adapter-pg",
      connect: async () => connection,
      connectToShadowDb: async () => connection,
    }) as any,
});
