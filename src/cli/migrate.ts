// npm run db:migrate: applies pending migrations to DATABASE_URL, or to the embedded database.
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/database.js";
import { migrate } from "../db/migrate.js";

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
try {
  const applied = await migrate(database.sql);
  console.error(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
} finally {
  await database.close();
}
