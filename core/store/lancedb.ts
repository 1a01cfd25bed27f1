// The VectorStore contract on LanceDB (Node only: native bindings). The location is a URI handed
// to LanceDB untouched (a folder, memory://, s3://, gs://, az://, db://) with its storage options.
// This module opens (or creates) the table and checks it holds what the engine expects; the
// store itself is lance-vector-store.ts, the table layout lance-table.ts, the ANN index lance-ann.ts.
import type * as LanceDb from "@lancedb/lancedb";
import { oneLine } from "../error-line.js";
import { DEFAULT_ANN_MIN_ROWS } from "./lance-ann.js";
import { chunkSchema, loadLanceDb, missingColumns, schemaDimension, schemaLayout } from "./lance-table.js";
import { LanceVectorStore } from "./lance-vector-store.js";

export { DEFAULT_ANN_MIN_ROWS } from "./lance-ann.js";
export { chunkSchema } from "./lance-table.js";
export { LanceVectorStore } from "./lance-vector-store.js";

export interface LanceStoreOptions {
  uri: string;
  tableName: string;
  /** Vector length; null for a keyword-only store (no vector column). */
  dimension: number | null;
  /**
   * When the table on disk holds vectors of another dimension (a model change): drop and
   * recreate it (the indexer is about to rebuild) instead of throwing.
   */
  recreateOnDimensionChange?: boolean;
  /** Rows from which checkpoint() builds an ANN index; Infinity disables it. */
  annMinRows?: number;
  /** Passed to LanceDB for object stores (credentials, region, endpoint). */
  storageOptions?: Record<string, string>;
}

/** Thrown when a store's vectors do not match the model in use. */
export class StoreDimensionMismatchError extends Error {
  constructor(
    readonly uri: string,
    readonly storedDimension: number | null,
    readonly requestedDimension: number | null,
  ) {
    super(
      `vector store ${uri} holds ${describeDim(storedDimension)} but the embedding model gives ${describeDim(requestedDimension)}: ` +
        "run `opencode-rag index --force` to rebuild it",
    );
    this.name = "StoreDimensionMismatchError";
  }
}

function describeDim(d: number | null): string {
  return d === null ? "no vectors (keyword-only)" : `${d}-dimensional vectors`;
}

export async function openLanceStore(options: LanceStoreOptions): Promise<LanceVectorStore> {
  const { uri, tableName } = options;
  if (!uri) throw new Error("vectorStore.path is empty: set it to a folder, memory:// or a LanceDB URI");
  if (!/^[A-Za-z0-9_.-]+$/.test(tableName)) {
    throw new Error(`vectorStore.tableName ${JSON.stringify(tableName)} is invalid: use letters, digits, '_', '-' or '.'`);
  }
  const lancedb = await loadLanceDb();
  let db: LanceDb.Connection;
  try {
    // readConsistencyInterval 0: every read sees writes from other processes (the CLI indexing
    // while the plugin searches); on local disk that check is one small manifest read.
    db = await lancedb.connect(uri, { readConsistencyInterval: 0, storageOptions: options.storageOptions });
  } catch (err) {
    throw new Error(`cannot open vector store at ${uri}: ${oneLine(err)}`);
  }
  let table: LanceDb.Table;
  let names: string[];
  try {
    names = await db.tableNames();
  } catch (err) {
    db.close();
    throw new Error(`cannot read vector store at ${uri}: ${oneLine(err)}`);
  }
  // the open table's schema, asked once (each ask is a round trip to LanceDB's threads)
  let schema: Awaited<ReturnType<LanceDb.Table["schema"]>> | null = null;
  if (names.includes(tableName)) {
    table = await db.openTable(tableName);
    const opened = await table.schema();
    schema = opened;
    const missing = missingColumns(opened);
    if (missing.length > 0) {
      table.close();
      db.close();
      throw new Error(`vector store ${uri} table ${tableName} lacks columns ${missing.join(", ")} (written by another tool or version): point vectorStore.path elsewhere or delete it and re-index`);
    }
    const stored = schemaDimension(opened);
    const wanted = options.dimension;
    // A keyword-only engine may read a table that has vectors (its model is merely unavailable);
    // any other difference means the vectors on disk are from another model.
    if (wanted !== null && stored !== wanted) {
      if (!options.recreateOnDimensionChange) {
        table.close();
        db.close();
        throw new StoreDimensionMismatchError(uri, stored, wanted);
      }
      table.close();
      await db.dropTable(tableName);
      table = await db.createEmptyTable(tableName, chunkSchema(wanted));
      schema = null;
    }
  } else {
    // existOk: another process (the plugin and the CLI starting together) may create it first.
    table = await db.createEmptyTable(tableName, chunkSchema(options.dimension), { mode: "create", existOk: true });
  }
  const tableSchema = schema ?? (await table.schema());
  const store = new LanceVectorStore(lancedb, db, table, uri, schemaDimension(tableSchema), options.annMinRows ?? DEFAULT_ANN_MIN_ROWS, schemaLayout(tableSchema));
  await store.init();
  return store;
}
