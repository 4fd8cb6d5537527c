// ESLint (flat config): typescript-eslint's recommended type-checked rules over the service, the
// REST layer, the tests, the benchmark and the tools. `npm test` runs it; docs/lint.md says which
// rules run and why each exception below exists.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";
import layers from "./tools/eslint/layers.js";

/** Node's globals, for the plain JavaScript files (TypeScript files get them from @types/node). */
const nodeGlobals = Object.fromEntries(
  ["process", "console", "Buffer", "URL", "URLSearchParams", "setTimeout", "clearTimeout", "setInterval", "clearInterval"].map((name) => [name, "readonly"]),
);

/** Every rule that reports a use of an `any` value. */
const unsafeAnyRules = {
  "@typescript-eslint/no-explicit-any": "off",
  "@typescript-eslint/no-unsafe-argument": "off",
  "@typescript-eslint/no-unsafe-assignment": "off",
  "@typescript-eslint/no-unsafe-call": "off",
  "@typescript-eslint/no-unsafe-member-access": "off",
  "@typescript-eslint/no-unsafe-return": "off",
};

export default defineConfig(
  {
    // Generated code, data, the committed schema prints, and a config of the separate
    // migration-diff package (its own dependencies and Prisma 6; tools/migration-diff/README.md).
    ignores: ["node_modules/", "src/generated/", "data/", "schema/", "coverage/", "dist/", "tools/migration-diff/prisma.config.ts"],
  },
  {
    // A disable comment that no longer suppresses anything fails the lint.
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The two this lint exists for (already errors in the recommended set; stated so they stay).
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // `_` marks a name left unused on purpose: a field destructured away, a leading callback parameter.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // `async` without `await` is the codebase's way to implement a Promise-returning member
      // (action hooks, stand-in handlers, no-op stoppers): a throw in it becomes a rejection.
      "@typescript-eslint/require-await": "off",
      // Same allowances as only-throw-error: passing on an abort signal's reason or a caught error
      // unchanged is deliberate; rejecting with a literal or a plain object is still an error.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      // A `let` that a callback declared before its one assignment reads stays a `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Imports run one way: down the layers, and into another domain only through its index.ts
    // (tools/eslint/layers.js holds the order; docs/architecture.md, "Layers").
    files: ["src/**/*.ts", "rest/**/*.ts"],
    plugins: { cutroom: layers },
    rules: { "cutroom/layers": "error" },
  },
  {
    // The generic layers that drive the Pothos builder through `any` on purpose: they build
    // object, input and filter types for every resource and action from data (the registry, zod
    // schemas), which Pothos's per-type generics cannot express. rest/openapi.ts and
    // rest/openapi-strict.ts edit Sofa's OpenAPI document, untyped JSON. The `any` stays inside
    // these files.
    files: [
      "src/actions/framework/graphql.ts",
      "src/api-keys/graphql.ts",
      "src/graphql/zod-input.ts",
      "src/graphql/zod-output.ts",
      "src/resources/filter-inputs.ts",
      "src/resources/graphql.ts",
      "src/resources/relations.ts",
      "src/webhooks/graphql.ts",
      "rest/openapi.ts",
      "rest/openapi-strict.ts",
    ],
    rules: unsafeAnyRules,
  },
  {
    // envelop types a plugin's GraphQL arguments as `any` (it supports several graphql-js
    // versions); these plugins hand them straight to graphql-js functions.
    files: ["src/graphql-endpoint/guard-plugins.ts", "src/graphql-endpoint/input-refusals.ts", "src/graphql-endpoint/storable-input.ts"],
    rules: { "@typescript-eslint/no-unsafe-argument": "off", "@typescript-eslint/no-unsafe-return": "off" },
  },
  {
    // Tests read JSON response bodies and database rows through `any` on purpose: `expect` checks
    // their shape at run time, and a typed copy of every body would only restate the assertions.
    files: ["test/**/*.ts"],
    rules: unsafeAnyRules,
  },
  {
    // Plain JavaScript (tools, a child-process script, this file): no type information.
    files: ["**/*.js", "**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: nodeGlobals },
  },
);
