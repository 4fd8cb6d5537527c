// Prisma 7 reads its settings here. Only `prisma generate` runs (the schema engine binary
// cannot be downloaded here), so no datasource URL is needed: the service connects through a
// driver adapter at run time (src/db/client.ts) and migrations are applied by src/db/migrate.ts.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
