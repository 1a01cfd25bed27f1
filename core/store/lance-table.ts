// How chunks lie in a LanceDB table: the native modules (loaded lazily), the columns and their
// Arrow schema, and the conversion of records to rows and back. Node only.
import type * as LanceDb from "@lancedb/lancedb";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type * as Arrow from "apache-arrow";
import type { Field, Schema } from "apache-arrow";
import { requireWithCodeCache } from "../files/code-cache.js";
import { lanceJsFile } from "../paths.js";
import type { ChunkRecord, StoreRow } from "../types.js";

/** LanceDB's JavaScript and the Arrow it uses. */
interface LanceJs {
  lancedb: typeof LanceDb;
  arrow: typeof Arrow;
}

let lanceJsModules: LanceJs | null = null;

/**
 * LanceDB and Arrow, loaded on first use: from the one file the build makes of them
 * (dist/lancedb-js.cjs, esbuild.config.mjs), else (running from source) from their packages.
 * Arrow is the CommonJS build LanceDB itself requires, so the process holds one Arrow; importing
 * its ESM build as well cost ~150 ms of every cold start. LanceDB's Rust core logs warnings to
 * stderr unless told otherwise, and hosts own the terminal: the level is read when the native
 * module loads, so LANCEDB_LOG is defaulted to "error" first (a user's own setting wins).
 */
function lanceJs(): LanceJs {
  if (lanceJsModules) return lanceJsModules;
  if (process.env.LANCEDB_LOG === undefined) process.env.LANCEDB_LOG = "error";
  const require = createRequire(import.meta.url);
  const bundled = bundledLanceJs();
  lanceJsModules = bundled ? (requireWithCodeCache(bundled) as LanceJs) : { lancedb: require("@lancedb/lancedb") as typeof LanceDb, arrow: require("apache-arrow") as typeof Arrow };
  return lanceJsModules;
}

function bundledLanceJs(): string | null {
  try {
    const file = lanceJsFile();
    return existsSync(file) ? file : null;
  } catch {
    return null; // no package root (a host that bundled the core itself): the packages
  }
}

export async function loadLanceDb(): Promise<typeof LanceDb> {
  return lanceJs().lancedb;
}

function arrow(): typeof Arrow {
  return lanceJs().arrow;
}

/**
 * How a table keeps a chunk's fields. "packed" (tables created from now on): one `record`
 * column holding every field as JSON, beside the columns that filters, deletes and listings
 * name in SQL (id, filePath, language, kind, contentHash). A search reads the records of its
 * ~200 candidates in one take of two columns: at 100k chunks the first take of a process 34 ms
 * instead of 56 for eleven columns (each column a take reads costs its own page lookups and
 * decoding). "columns": one column per field, as tables written before it were; still read
 * and written as they are. A table is packed when it is created: a new index, or one re-created
 * for another model's vectors (a forced rebuild empties the table but keeps it, and its history,
 * so that an interrupted rebuild can still roll back to the index it replaces).
 */
export type RecordLayout = "packed" | "columns";

/** Columns other than the vector, in table order (the "columns" layout). */
const TEXT_COLUMNS = ["id", "content", "filePath", "language", "kind", "symbol", "context", "contentHash", "description"] as const;
const FIELD_COLUMNS = [...TEXT_COLUMNS, "startLine", "endLine"];
/** The columns SQL names (filters, deletes by id or file, listings): kept apart in either layout. */
const SQL_COLUMNS = ["id", "filePath", "language", "kind", "contentHash"] as const;
const PACKED_COLUMN = "record";

/** Columns a read of whole records selects. */
export function recordColumns(layout: RecordLayout): string[] {
  return layout === "packed" ? ["id", PACKED_COLUMN] : FIELD_COLUMNS;
}

/** The column holding a row's description (the embedding cache reads it with the vector). */
export function descriptionColumn(layout: RecordLayout): string {
  return layout === "packed" ? PACKED_COLUMN : "description";
}

/** The layout of a table's schema. */
export function schemaLayout(schema: Schema): RecordLayout {
  return schema.fields.some((f) => f.name === PACKED_COLUMN) ? "packed" : "columns";
}

/** Columns this version needs and a table of `schema` lacks (a table of another tool or version). */
export function missingColumns(schema: Schema): string[] {
  const needed = schemaLayout(schema) === "packed" ? [...SQL_COLUMNS, PACKED_COLUMN] : FIELD_COLUMNS;
  return needed.filter((name) => !schema.fields.some((f) => f.name === name));
}

export function chunkSchema(dimension: number | null, layout: RecordLayout = "packed"): Schema {
  const { Field, FixedSizeList, Float32, Int32, Schema, Utf8 } = arrow();
  const text = (name: string) => new Field(name, new Utf8(), false);
  const fields: Field[] = [text("id")];
  if (layout === "columns") fields.push(text("content"));
  if (dimension !== null) {
    // Nullable: a chunk whose embedding failed is still stored (and found by keyword search).
    fields.push(new Field("vector", new FixedSizeList(dimension, new Field("item", new Float32(), true)), true));
  }
  if (layout === "packed") {
    fields.push(...SQL_COLUMNS.slice(1).map(text), text(PACKED_COLUMN));
    return new Schema(fields);
  }
  fields.push(
    text("filePath"),
    new Field("startLine", new Int32(), false),
    new Field("endLine", new Int32(), false),
    text("language"),
    text("kind"),
    text("symbol"),
    text("context"),
    text("contentHash"),
    text("description"),
  );
  return new Schema(fields);
}

/** The vector length of a table's schema, or null when it has no vector column. */
export function schemaDimension(schema: Schema): number | null {
  const field = schema.fields.find((f) => f.name === "vector");
  if (!field) return null;
  const type = field.type as { listSize?: number };
  return typeof type.listSize === "number" ? type.listSize : null;
}

/**
 * Rows as one Arrow table in `schema`'s columns, built column by column: strings encoded into
 * one buffer per column, the vectors copied into one Float32Array. Handing LanceDB row objects
 * instead made it infer and build every column value by value, with each vector first spread
 * into an array of numbers: at 100k chunks that conversion allocated more than the rest of the
 * pass's main thread together, all of it garbage once written.
 */
export function rowsToArrowTable(rows: readonly StoreRow[], schema: Schema): Arrow.Table {
  const A = arrow();
  const children = schema.fields.map((field) => columnData(A, field, rows));
  const data = A.makeData({ type: new A.Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return new A.Table(schema, [new A.RecordBatch(schema, data)]);
}

function columnData(A: typeof Arrow, field: Field, rows: readonly StoreRow[]): Arrow.Data {
  const { name, type } = field;
  if (name === PACKED_COLUMN && A.DataType.isUtf8(type)) return utf8Data(A, rows.map(packRecord));
  if (A.DataType.isUtf8(type)) return utf8Data(A, rows.map((r) => textValue(r, name)));
  if (A.DataType.isInt(type) && type.bitWidth === 32) {
    return A.makeData({ type, length: rows.length, nullCount: 0, data: Int32Array.from(rows, (r) => Number(r[name as keyof StoreRow])) });
  }
  if (name === "vector" && A.DataType.isFixedSizeList(type)) return vectorData(A, type, rows);
  throw new Error(`the table has a column "${name}" of type ${type} that this version does not write; run \`opencode-rag index --force\``);
}

/** A text column's value; symbol, context and description may be absent (stored empty). */
function textValue(r: StoreRow, name: string): string {
  const v = (r as unknown as Record<string, unknown>)[name];
  return typeof v === "string" ? v : "";
}

function utf8Data(A: typeof Arrow, values: string[]): Arrow.Data {
  const valueOffsets = new Int32Array(values.length + 1);
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    total += Buffer.byteLength(values[i], "utf8");
    valueOffsets[i + 1] = total;
  }
  const bytes = Buffer.allocUnsafe(total);
  for (let i = 0; i < values.length; i++) bytes.write(values[i], valueOffsets[i], "utf8");
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset, total);
  return A.makeData({ type: new A.Utf8(), length: values.length, nullCount: 0, valueOffsets, data });
}

/** The vector column: one Float32Array of every row's values; a row without a vector is null. */
function vectorData(A: typeof Arrow, type: Arrow.FixedSizeList, rows: readonly StoreRow[]): Arrow.Data {
  const dim = type.listSize;
  const values = new Float32Array(rows.length * dim);
  const valid = new Uint8Array(Math.ceil(rows.length / 8));
  let nullCount = 0;
  rows.forEach((r, i) => {
    if (r.vector) {
      values.set(r.vector, i * dim);
      valid[i >> 3] |= 1 << (i & 7);
    } else nullCount++;
  });
  const child = A.makeData({ type: type.children[0].type as Arrow.Float32, length: values.length, nullCount: 0, data: values });
  return A.makeData({ type, length: rows.length, nullCount, nullBitmap: nullCount > 0 ? valid : undefined, child });
}

/**
 * The fields a packed `record` holds, in their places (the id is a column of its own): a JSON
 * array parses faster than an object with keys repeated in every row, and JSON keeps any text
 * as it is. Written and read in this one order.
 */
const PACKED_FIELDS = ["content", "filePath", "startLine", "endLine", "language", "kind", "symbol", "context", "contentHash", "description"] as const;
const DESCRIPTION_PLACE = PACKED_FIELDS.indexOf("description");

function packRecord(r: StoreRow): string {
  return JSON.stringify(PACKED_FIELDS.map((f) => r[f] ?? ""));
}

/** A row's fields by name, whichever layout it was read in. */
function rowFields(raw: Record<string, unknown>): Record<string, unknown> {
  const packed = raw[PACKED_COLUMN];
  if (typeof packed !== "string") return raw;
  const values = JSON.parse(packed) as unknown[];
  const fields: Record<string, unknown> = { id: raw.id };
  PACKED_FIELDS.forEach((f, i) => (fields[f] = values[i]));
  return fields;
}

/** A record from a row read back, in either layout (symbol, context and description default to empty). */
export function toRecord(raw: Record<string, unknown>): ChunkRecord {
  const f = rowFields(raw);
  return {
    id: f.id as string,
    content: f.content as string,
    filePath: f.filePath as string,
    startLine: Number(f.startLine),
    endLine: Number(f.endLine),
    language: f.language as string,
    kind: f.kind as string,
    symbol: (f.symbol as string) ?? "",
    context: (f.context as string) ?? "",
    contentHash: f.contentHash as string,
    description: (f.description as string) ?? "",
  };
}

/** A row's description, read with the description column of its layout. */
export function descriptionOf(raw: Record<string, unknown>): string {
  const packed = raw[PACKED_COLUMN];
  if (typeof packed === "string") return ((JSON.parse(packed) as unknown[])[DESCRIPTION_PLACE] as string) ?? "";
  return (raw.description as string) ?? "";
}
