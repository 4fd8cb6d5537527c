// Malformed input for the fuzz test (test/fuzz.test.ts), as fast-check arbitraries: strings that
// PostgreSQL or a parser chokes on, JSON of the wrong shape and depth, forged cursors, odd paths.
// The shapes come from the registries (field names, list parameters, filters), so inputs reach
// past the first check of each route instead of all failing at the door.
import fc from "fast-check";

/** Values that have broken (or could break) a layer of the stack: text, numbers, dates, paths. */
const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\udbff\u0000",
  "%",
  "%00",
  "%zz",
  "..",
  "../../etc/passwd",
  "/",
  "//",
  "\\",
  "'; select 1; --",
  '"',
  "-271821-04-20T00:00:00Z",
  "275760-09-13T00:00:00.000Z",
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+01:00",
  "9999-12-31T23:59:59-01:00",
  "2026-02-30T00:00:00Z",
  "-1",
  "0",
  "1e999",
  "99999999999999999999999",
  "2147483648",
  "-2147483649",
  "NaN",
  "Infinity",
  "true",
  "null",
  "[]",
  "{}",
  "a,b,,c",
  ",,,",
  "*",
  "video_created_at",
  "desc",
  "json",
  "ndjson",
  "csv",
  "𝒳é\u200b",
  "\u202e",
  "x".repeat(5000),
] as const;

/** Splices a lone surrogate or a NUL into ordinary text. */
const taintedString = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom("\ud800", "\udc00", "\u0000", "\udbff"), fc.string({ maxLength: 8 }))
  .map(([head, taint, tail]) => `${head}${taint}${tail}`);

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: taintedString },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

const nastyNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -0, 1e308, -1e308, 5e-324, 0.5),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null));

/**
 * Stands for a JSON value nested `depth` levels deep. Values that deep break recursive code —
 * fast-check's own printer and JSON.stringify included — so the arbitraries carry this marker
 * and `toJsonText` writes the nesting into the JSON text.
 */
function deepMarker(depth: number): string {
  return `__fuzz_deep_${depth}__`;
}

function deepJsonText(depth: number): string {
  let text = "1";
  for (let level = 0; level < depth; level++) text = level % 2 === 0 ? `[${text}]` : `{"a":${text}}`;
  return text;
}

/** JSON text of a fuzzed value, with every deep marker expanded. */
export function toJsonText(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(/"__fuzz_deep_(\d+)__"/g, (_match, depth: string) => deepJsonText(Number(depth)));
}

/** Any JSON value, with nasty leaves and keys; sometimes absurdly deep. */
export function nastyJson(keys: readonly string[] = []): fc.Arbitrary<unknown> {
  const key = keys.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: nastyString }) : nastyString;
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(key, tie("value"), { maxKeys: 5 }),
    ),
  }));
  return fc.oneof({ weight: 8, arbitrary: value }, { weight: 1, arbitrary: fc.constantFrom(deepMarker(5000), deepMarker(65)) });
}

/** A body for a route taking a JSON object with these fields: mostly right field names, wrong values. */
export function nastyBody(fields: readonly string[]): fc.Arbitrary<{ raw: string }> {
  const fieldValue = nastyJson(fields);
  const object = fc.dictionary(fields.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: nastyString }) : nastyString, fieldValue, { maxKeys: 6 });
  return fc.oneof(
    { weight: 6, arbitrary: object.map((value) => ({ raw: toJsonText(value) })) },
    { weight: 2, arbitrary: nastyJson(fields).map((value) => ({ raw: toJsonText(value) })) },
    { weight: 1, arbitrary: fc.constantFrom("{", "[1,", "{\"a\":}", "\u0000", "nul", "{}{}", "\ufeff{}", "") .map((raw) => ({ raw })) },
  );
}

/** A base64url cursor whose state is typed wrongly for its sort field (or not a cursor at all). */
export function forgedCursor(sortFields: readonly string[]): fc.Arbitrary<string> {
  const state = fc.record(
    {
      s: fc.oneof(fc.constantFrom(...(sortFields.length > 0 ? sortFields : ["x"])), nastyString),
      o: fc.constantFrom("asc", "desc", "sideways"),
      v: nastyJson(),
      i: fc.oneof(nastyString, nastyNumber),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 4, arbitrary: state.map((value) => Buffer.from(toJsonText(value)).toString("base64url")) },
    { weight: 1, arbitrary: nastyString },
  );
}

/** Query parameters: the route's own names (and filter operators) with nasty values, plus strangers. */
export function nastyQuery(names: readonly string[], cursor?: fc.Arbitrary<string>): fc.Arbitrary<[string, string][]> {
  const name = names.length > 0 ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: nastyString }) : nastyString;
  const pair = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(name, nastyString) },
    ...(cursor ? [{ weight: 3, arbitrary: fc.tuple(fc.constant("cursor"), cursor) }] : []),
  );
  return fc.array(pair, { maxLength: 4 });
}

/** Percent-encodes text as a URL carries it (a lone surrogate has no UTF-8, so it becomes U+FFFD). */
export function encodeSegment(text: string): string {
  return [...Buffer.from(text, "utf8")].map((byte) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`)).join("");
}

/** A path segment: mostly a nasty value encoded, sometimes raw slashes, dots and stray percent signs. */
export const nastySegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: nastyString.map(encodeSegment) },
  { weight: 1, arbitrary: fc.constantFrom("", "/", "//", "%", "%2F", "%2e%2e", "..", ".", "%FF%FE", "a%00b", "%C0%AF") },
);
