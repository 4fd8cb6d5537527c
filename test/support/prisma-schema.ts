// A small reader of prisma/schema.prisma for the migration drift test: models, their table
// names (@@map), and their scalar fields with type, optionality (`?`), list (`[]`), native type
// (@db.*) and column name (@map). Relation fields (whose type is another model) are skipped:
// they have no column. It reads only what that test needs, and throws on anything it does not
// understand rather than guessing, so a schema feature it cannot read fails loudly.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const SCHEMA_PATH = fileURLToPath(new URL("../../prisma/schema.prisma", import.meta.url));

export const PRISMA_SCALARS = ["String", "Boolean", "Int", "BigInt", "Float", "Decimal", "DateTime", "Json", "Bytes"] as const;
export type PrismaScalar = (typeof PRISMA_SCALARS)[number];

export interface PrismaScalarField {
  /** Field name in the Prisma model. */
  name: string;
  /** Column name in the database: @map("...") or the field name. */
  column: string;
  /** A Prisma scalar type, or the name of an enum. */
  type: string;
  isEnum: boolean;
  /** false when the type ends with `?` */
  isRequired: boolean;
  /** true when the type ends with `[]` */
  isList: boolean;
  /** `@db.Timestamptz(3)` gives { name: "Timestamptz", args: ["3"] } */
  nativeType?: { name: string; args: string[] };
}

export interface PrismaModel {
  name: string;
  /** Table name: @@map("...") or the model name. */
  table: string;
  fields: PrismaScalarField[];
}

export interface PrismaEnum {
  name: string;
  /** Type name in the database: @@map("...") or the enum name. */
  dbName: string;
}

export interface PrismaSchema {
  models: PrismaModel[];
  enums: PrismaEnum[];
}

/** Drops a `//` comment (including `///` doc comments) that is not inside a string. */
function stripComment(line: string): string {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === "\\" && inString) {
      i++;
    } else if (char === '"') {
      inString = !inString;
    } else if (!inString && char === "/" && line[i + 1] === "/") {
      return line.slice(0, i);
    }
  }
  return line;
}

interface Block {
  keyword: string;
  name: string;
  lines: string[];
}

function blocks(source: string): Block[] {
  const result: Block[] = [];
  let current: Block | undefined;
  for (const raw of source.split(/\r?\n/)) {
    const line = stripComment(raw).trim();
    if (!line) continue;
    if (!current) {
      const open = /^(\w+)\s+(\w+)\s*\{$/.exec(line);
      if (!open) throw new Error(`schema.prisma: expected a block opening, got '${line}'`);
      current = { keyword: open[1]!, name: open[2]!, lines: [] };
    } else if (line === "}") {
      result.push(current);
      current = undefined;
    } else {
      current.lines.push(line);
    }
  }
  if (current) throw new Error(`schema.prisma: block ${current.keyword} ${current.name} is not closed`);
  return result;
}

function mapArgument(text: string, attribute: "@map" | "@@map"): string | undefined {
  const pattern = attribute === "@map" ? /(?<!@)@map\(\s*(?:name:\s*)?"([^"]+)"\s*\)/ : /@@map\(\s*(?:name:\s*)?"([^"]+)"\s*\)/;
  return pattern.exec(text)?.[1];
}

export function parsePrismaSchema(source: string): PrismaSchema {
  const all = blocks(source);
  const modelNames = new Set(all.filter((block) => block.keyword === "model").map((block) => block.name));
  const enums: PrismaEnum[] = all
    .filter((block) => block.keyword === "enum")
    .map((block) => ({ name: block.name, dbName: mapArgument(block.lines.join("\n"), "@@map") ?? block.name }));
  const enumNames = new Set(enums.map((entry) => entry.name));

  const models: PrismaModel[] = [];
  for (const block of all.filter((candidate) => candidate.keyword === "model")) {
    let table = block.name;
    const fields: PrismaScalarField[] = [];
    for (const line of block.lines) {
      if (line.startsWith("@@")) {
        table = mapArgument(line, "@@map") ?? table;
        continue;
      }
      const match = /^(\w+)\s+(\w+)(\[\])?(\?)?(?:\s+(.*))?$/.exec(line);
      if (!match) throw new Error(`schema.prisma: cannot read the field line '${line}' in model ${block.name}`);
      const [, name, type, list, optional, attributes = ""] = match as unknown as [string, string, string, string?, string?, string?];
      if (modelNames.has(type)) continue; // a relation field: no column of its own
      const isEnum = enumNames.has(type);
      if (!isEnum && !(PRISMA_SCALARS as readonly string[]).includes(type)) {
        throw new Error(`schema.prisma: field ${block.name}.${name} has type ${type}, which is neither a Prisma scalar this reader knows, nor an enum or a model declared in the file`);
      }
      const native = /@db\.(\w+)(?:\(([^)]*)\))?/.exec(attributes);
      fields.push({
        name,
        column: mapArgument(attributes, "@map") ?? name,
        type,
        isEnum,
        isRequired: !optional,
        isList: Boolean(list),
        nativeType: native
          ? { name: native[1]!, args: native[2] ? native[2].split(",").map((arg) => arg.trim()).filter(Boolean) : [] }
          : undefined,
      });
    }
    models.push({ name: block.name, table, fields });
  }
  return { models, enums };
}

export function readPrismaSchema(path = SCHEMA_PATH): PrismaSchema {
  return parsePrismaSchema(readFileSync(path, "utf8"));
}

/** What information_schema.columns shows for a column PostgreSQL created for a field. */
export interface ExpectedColumnType {
  /** information_schema.columns.data_type, e.g. `text`, `timestamp with time zone`, `ARRAY` */
  dataType: string;
  /** information_schema.columns.udt_name, e.g. `text`, `timestamptz`, `_text` */
  udtName: string;
  /** For DateTime columns: the fractional-second precision. */
  datetimePrecision?: number;
}

/**
 * The PostgreSQL type Prisma's migration engine gives a field (its default mapping, or the one the
 * @db.* attribute asks for). Lists are arrays of the element type: data_type ARRAY, udt_name `_<element>`.
 */
export function expectedColumnType(field: PrismaScalarField, schema: PrismaSchema): ExpectedColumnType {
  const element = elementType(field, schema);
  if (field.isList) return { dataType: "ARRAY", udtName: `_${element.udtName}` };
  return element;
}

function elementType(field: PrismaScalarField, schema: PrismaSchema): ExpectedColumnType {
  const native = field.nativeType?.name;
  const unsupported = () => new Error(`No expected PostgreSQL type for ${field.type} @db.${native}: extend expectedColumnType()`);
  if (field.isEnum) {
    const dbName = schema.enums.find((entry) => entry.name === field.type)!.dbName;
    return { dataType: "USER-DEFINED", udtName: dbName };
  }
  switch (field.type as PrismaScalar) {
    case "String":
      if (!native || native === "Text") return { dataType: "text", udtName: "text" };
      if (native === "VarChar") return { dataType: "character varying", udtName: "varchar" };
      if (native === "Char") return { dataType: "character", udtName: "bpchar" };
      if (native === "Uuid") return { dataType: "uuid", udtName: "uuid" };
      throw unsupported();
    case "Boolean":
      return { dataType: "boolean", udtName: "bool" };
    case "Int":
      if (!native || native === "Integer") return { dataType: "integer", udtName: "int4" };
      if (native === "SmallInt") return { dataType: "smallint", udtName: "int2" };
      throw unsupported();
    case "BigInt":
      return { dataType: "bigint", udtName: "int8" };
    case "Float":
      if (!native || native === "DoublePrecision") return { dataType: "double precision", udtName: "float8" };
      if (native === "Real") return { dataType: "real", udtName: "float4" };
      throw unsupported();
    case "Decimal":
      return { dataType: "numeric", udtName: "numeric" };
    case "DateTime": {
      // Prisma's default for DateTime is timestamp(3) (without time zone).
      const precision = field.nativeType?.args[0] !== undefined ? Number(field.nativeType.args[0]) : 3;
      if (!native || native === "Timestamp") return { dataType: "timestamp without time zone", udtName: "timestamp", datetimePrecision: precision };
      if (native === "Timestamptz") return { dataType: "timestamp with time zone", udtName: "timestamptz", datetimePrecision: precision };
      if (native === "Date") return { dataType: "date", udtName: "date", datetimePrecision: 0 };
      throw unsupported();
    }
    case "Json":
      if (!native || native === "JsonB") return { dataType: "jsonb", udtName: "jsonb" };
      if (native === "Json") return { dataType: "json", udtName: "json" };
      throw unsupported();
    case "Bytes":
      return { dataType: "bytea", udtName: "bytea" };
  }
  throw unsupported();
}
