#!/usr/bin/env node
// Writes a Prisma migration (prisma/migrations/<timestamp>_<name>/migration.sql)
// from the difference between two versions of the Prisma schema.
//
// Why: Prisma 7's `prisma migrate` needs a schema-engine binary that cannot be
// downloaded here. Prisma 6.19, installed in this folder only, can diff two
// schemas with its WASM schema engine (see prisma.config.ts), fully offline.
//
// Usage (from the repo root):
//   node tools/migration-diff/diff.mjs <migration_name>
//     [--from <old.prisma> | --from-empty]   default: prisma/schema.prisma at git HEAD
//     [--to <new.prisma>]                    default: prisma/schema.prisma
//     [--out <migrations dir>]               default: prisma/migrations
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const toolDir = dirname(fileURLToPath(import.meta.url));
const SCHEMA = "prisma/schema.prisma";

// Keep Prisma 6 from looking for (and trying to download) native engines.
// The schema's url is never used to connect: it only satisfies Prisma 6's validation.
const prismaEnv = {
  ...process.env,
  PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false",
  PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
  DATABASE_URL: "postgresql://unused@localhost:5432/unused",
};

// Throws rather than exiting, so that `finally` still removes the temp dir.
class UsageError extends Error {}
function fail(message) {
  throw new UsageError(message);
}

function parseArgs(argv) {
  const opts = { name: undefined, from: undefined, fromEmpty: false, to: SCHEMA, out: "prisma/migrations" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i] ?? fail(`${arg} needs a value`);
    if (arg === "--from") opts.from = value();
    else if (arg === "--from-empty") opts.fromEmpty = true;
    else if (arg === "--to") opts.to = value();
    else if (arg === "--out") opts.out = value();
    else if (arg.startsWith("--")) fail(`unknown option ${arg}`);
    else if (opts.name === undefined) opts.name = arg;
    else fail(`unexpected argument ${arg}`);
  }
  if (!opts.name) fail("usage: diff.mjs <migration_name> [--from <old.prisma> | --from-empty] [--to <new.prisma>] [--out <dir>]");
  if (opts.from && opts.fromEmpty) fail("use either --from or --from-empty, not both");
  return opts;
}

// The old schema: an explicit file, nothing, or the committed schema at HEAD
// (nothing if there is no commit yet or the file was not committed).
function readFromSchema(opts) {
  if (opts.fromEmpty) return "";
  if (opts.from) return readFileSync(opts.from, "utf8");
  try {
    return execFileSync("git", ["show", `HEAD:${SCHEMA}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    console.log(`migration-diff: no ${SCHEMA} at git HEAD, diffing from an empty schema`);
    return "";
  }
}

// Top-level `generator`/`datasource` blocks, with the index just past their closing
// brace. Braces inside strings and // comments are skipped.
function findBlocks(src, keyword) {
  const blocks = [];
  const head = new RegExp(`^[ \\t]*${keyword}\\s+\\w+\\s*\\{`, "gm");
  for (let m; (m = head.exec(src)); ) {
    let depth = 0, i = m.index + m[0].length - 1;
    for (; i < src.length; i++) {
      const c = src[i];
      if (c === '"') { for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === "\\") i++; }
      else if (c === "/" && src[i + 1] === "/") { while (i < src.length && src[i] !== "\n") i++; }
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) break;
    }
    blocks.push({ start: m.index, end: i + 1, text: src.slice(m.index, i + 1) });
    head.lastIndex = i + 1;
  }
  return blocks;
}

// Prisma 7 schema -> a schema Prisma 6 accepts: the datasource needs
// `url = env(...)`, and Prisma 6 does not know the generators (prisma-client with
// Prisma 7 options, prisma-pothos-types). Generators do not change the SQL, so
// they are dropped; previewFeatures can change what the schema may contain, so
// they are kept on a plain prisma-client-js generator.
function toPrisma6(src) {
  const previewFeatures = new Set();
  for (const g of findBlocks(src, "generator")) {
    const list = g.text.match(/previewFeatures\s*=\s*\[([^\]]*)\]/);
    for (const f of list?.[1].match(/"[^"]*"/g) ?? []) previewFeatures.add(f);
  }
  let out = src;
  for (const g of findBlocks(src, "generator").reverse()) out = out.slice(0, g.start) + out.slice(g.end);

  const [ds] = findBlocks(out, "datasource");
  if (!ds) fail("schema has no datasource block");
  if (!/^\s*url\s*=/m.test(ds.text)) {
    const withUrl = ds.text.replace(/\}$/, '  url = env("DATABASE_URL")\n}');
    out = out.slice(0, ds.start) + withUrl + out.slice(ds.end);
  }
  if (previewFeatures.size) {
    out += `\ngenerator client {\n  provider        = "prisma-client-js"\n  previewFeatures = [${[...previewFeatures].join(", ")}]\n}\n`;
  }
  return out;
}

// An empty datamodel, rather than Prisma's --from-empty, because --from-empty
// adds a `CREATE SCHEMA IF NOT EXISTS "public"` that `migrate dev` never writes.
const EMPTY_SCHEMA = 'datasource db {\n  provider = "postgresql"\n  url      = env("DATABASE_URL")\n}\n';

function ensureInstalled() {
  if (existsSync(join(toolDir, "node_modules", "prisma"))) return;
  console.log("migration-diff: installing its dependencies in tools/migration-diff ...");
  // prismaEnv also keeps Prisma's postinstall (where npm runs it) from downloading engines.
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: toolDir, stdio: "inherit", env: prismaEnv });
  if (r.status !== 0) fail("npm install failed in tools/migration-diff");
}

function timestamp(d = new Date()) {
  // UTC, like Prisma's own migration folder names.
  return d.toISOString().replace(/\D/g, "").slice(0, 14);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  // Same shape as the names `prisma migrate dev` gives folders.
  const name = opts.name.replace(/[^A-Za-z0-9_]/g, "_");
  if (!existsSync(opts.to)) fail(`${opts.to} not found`);
  const fromSrc = readFromSchema(opts);
  const toSrc = readFileSync(opts.to, "utf8");
  ensureInstalled();

  const tmp = mkdtempSync(join(tmpdir(), "migration-diff-"));
  try {
    const fromFile = join(tmp, "from.prisma");
    const toFile = join(tmp, "to.prisma");
    writeFileSync(fromFile, fromSrc.trim() ? toPrisma6(fromSrc) : EMPTY_SCHEMA);
    writeFileSync(toFile, toPrisma6(toSrc));

    // --exit-code: 0 = no difference, 2 = difference, anything else = error.
    const r = spawnSync(
      process.execPath,
      [join(toolDir, "node_modules", "prisma", "build", "index.js"), "migrate", "diff",
        "--config", join(toolDir, "prisma.config.ts"),
        "--from-schema-datamodel", fromFile, "--to-schema-datamodel", toFile,
        "--script", "--exit-code"],
      { cwd: toolDir, env: prismaEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    if (r.status === 0) {
      console.log("migration-diff: no schema changes, nothing written");
      return;
    }
    if (r.status !== 2) {
      process.stderr.write(r.stderr ?? "");
      process.stderr.write(r.stdout ?? "");
      fail(`prisma migrate diff failed (exit ${r.status ?? r.signal})`);
    }

    const dir = join(opts.out, `${timestamp()}_${name}`);
    if (existsSync(dir)) fail(`${dir} already exists`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "migration.sql");
    writeFileSync(file, r.stdout);
    const rel = relative(process.cwd(), resolve(file));
    console.log(rel.startsWith("..") ? resolve(file) : rel);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`migration-diff: ${err.message}`);
  process.exitCode = 1;
}
