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

/** Columns other than the vector, in table order. */
const TEXT_COLUMNS = ["id", "content", "filePath", "language", "kind", "symbol", "context", "contentHash", "description"] as const;
export const RECORD_COLUMNS = [...TEXT_COLUMNS, "startLine", "endLine"];
/** A vector search names `_distance` itself (LanceDB warns when it is added implicitly). */
export const VECTOR_RESULT_COLUMNS = [...RECORD_COLUMNS, "_distance"];

export function chunkSchema(dimension: number | null): Schema {
  const { Field, FixedSizeList, Float32, Int32, Schema, Utf8 } = arrow();
  const fields: Field[] = [new Field("id", new Utf8(), false), new Field("content", new Utf8(), false)];
  if (dimension !== null) {
    // Nullable: a chunk whose embedding failed is still stored (and found by keyword search).
    fields.push(new Field("vector", new FixedSizeList(dimension, new Field("item", new Float32(), true)), true));
  }
  fields.push(
    new Field("filePath", new Utf8(), false),
    new Field("startLine", new Int32(), false),
    new Field("endLine", new Int32(), false),
    new Field("language", new Utf8(), false),
    new Field("kind", new Utf8(), false),
    new Field("symbol", new Utf8(), false),
    new Field("context", new Utf8(), false),
    new Field("contentHash", new Utf8(), false),
    new Field("description", new Utf8(), false),
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

/** A record from a row read back (symbol, context and description default to empty). */
export function toRecord(raw: Record<string, unknown>): ChunkRecord {
  return {
    id: raw.id as string,
    content: raw.content as string,
    filePath: raw.filePath as string,
    startLine: Number(raw.startLine),
    endLine: Number(raw.endLine),
    language: raw.language as string,
    kind: raw.kind as string,
    symbol: (raw.symbol as string) ?? "",
    context: (raw.context as string) ?? "",
    contentHash: raw.contentHash as string,
    description: (raw.description as string) ?? "",
  };
}
