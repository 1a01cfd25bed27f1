// How chunks lie in a LanceDB table: the native modules (loaded lazily), the columns and their
// Arrow schema, and the conversion of records to rows and back. Node only.
import type * as LanceDb from "@lancedb/lancedb";
import { createRequire } from "node:module";
import type * as Arrow from "apache-arrow";
import type { Field, Schema } from "apache-arrow";
import type { ChunkRecord } from "../types.js";

/**
 * LanceDB's Rust core logs warnings to stderr unless told otherwise, and hosts own the
 * terminal. The level is read when the native module loads, so the module is imported only
 * after LANCEDB_LOG has been defaulted to "error" (a user's own setting wins).
 */
let lancedbModule: Promise<typeof LanceDb> | null = null;
export function loadLanceDb(): Promise<typeof LanceDb> {
  if (process.env.LANCEDB_LOG === undefined) process.env.LANCEDB_LOG = "error";
  return (lancedbModule ??= import("@lancedb/lancedb"));
}

/**
 * apache-arrow's CommonJS build: the copy LanceDB itself requires. Importing the package from
 * ESM loaded its ESM build as a second Arrow (~150 ms of every cold start, before anything
 * ran); required here it is loaded once, and only when a schema is built.
 */
let arrowModule: typeof Arrow | null = null;
function arrow(): typeof Arrow {
  return (arrowModule ??= createRequire(import.meta.url)("apache-arrow") as typeof Arrow);
}

export type Row = ChunkRecord & { vector: Float32Array | null };

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

/** A record as a table row; the vector column only when the table has one. */
export function toTableRow(r: Row, dimension: number | null): Record<string, unknown> {
  const row: Record<string, unknown> = {
    id: r.id,
    content: r.content,
    filePath: r.filePath,
    startLine: r.startLine,
    endLine: r.endLine,
    language: r.language,
    kind: r.kind,
    symbol: r.symbol ?? "",
    context: r.context ?? "",
    contentHash: r.contentHash,
    description: r.description ?? "",
  };
  if (dimension !== null) row.vector = r.vector ? Array.from(r.vector) : null;
  return row;
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
