import { readFileSync, readdirSync, statSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chunkFile, type ChunkingOptions } from "../../core/chunking/index.js";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import type { Chunk } from "../../core/types.js";

// V8 compiles every grammar a second time with its optimising tier in the background; for
// these tests (two dozen grammars, small inputs) that costs ~10 s of CPU for nothing. The
// baseline tier runs the same code, so behaviour is unchanged. Set before any grammar loads.
setFlagsFromString("--liftoff-only");

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/chunking");

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES)
    .filter((name) => statSync(join(FIXTURES, name)).isFile())
    .sort();
}

/**
 * The symbol goldens' fixtures, one folder a language (test/fixtures/symbols/src/), as names
 * readFixture takes: the chunking tests of several languages read them too.
 */
export function symbolFixtureNames(): string[] {
  const src = join(FIXTURES, "..", "symbols", "src");
  return readdirSync(src)
    .sort()
    .flatMap((dir) => readdirSync(join(src, dir)).sort().map((file) => `../symbols/src/${dir}/${file}`));
}

export function readFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, name)));
}

/**
 * The default options but one: these tests look at the declarations a file is cut into, so
 * neighbours are not packed together (packing has tests of its own, packing.test.ts).
 */
export function options(overrides: Partial<ChunkingOptions> = {}): ChunkingOptions {
  return { ...DEFAULT_CONFIG.chunking, packChars: 0, ...overrides };
}

/** Chunks a fixture as the indexer would: workspace-relative path, raw bytes. */
export function chunkFixture(name: string, overrides: Partial<ChunkingOptions> = {}): Promise<Chunk[]> {
  return chunkFile(`src/${name}`, readFixture(name), options(overrides));
}

/** The chunk whose symbol is `symbol` (and kind, if given); fails loudly when absent. */
export function find(chunks: Chunk[], symbol: string, kind?: string): Chunk {
  const hit = chunks.find((c) => c.symbol === symbol && (!kind || c.kind === kind));
  if (!hit) {
    const seen = chunks.map((c) => `${c.kind}:${c.symbol}@${c.startLine}-${c.endLine}`).join(", ");
    throw new Error(`no chunk ${kind ?? "*"}:${symbol}; got ${seen}`);
  }
  return hit;
}

/** Summary rows `kind symbol start-end` for compact assertions. */
export function outline(chunks: Chunk[]): string[] {
  return chunks.map((c) => `${c.kind} ${c.symbol} ${c.startLine}-${c.endLine}`);
}

/** A bash script with functions, a case statement and heredocs (the constructs the bash grammar trips on). */
export const DEPLOY_SH = `#!/usr/bin/env bash
set -euo pipefail

usage() {
  cat <<EOF_USAGE
Usage: $0 [-v] target
  -v  verbose
EOF_USAGE
}

function deploy_target {
  local target="$1"
  case "$target" in
    staging|prod) echo "deploying \${target}" ;;
    *) usage; exit 1 ;;
  esac
  cat <<-'NOTE' > /tmp/deploy.note
	deployed $target
	NOTE
}

deploy_target "$@"
`;
