import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // One graphql module for everyone, or schemas built in one realm fail in another.
    alias: { graphql: "graphql/index.js" },
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    isolate: false,
  },
});
