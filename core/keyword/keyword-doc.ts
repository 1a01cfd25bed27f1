// The keyword document of an indexed chunk: what BM25 matches (the embedded text), the names it
// weighs as the chunk's symbol — every declaration a packed chunk holds, so a name counts as
// much in a pack as in a chunk of its own — and its vector, which the index keeps for search.
import { declaredNames } from "../chunking/pack.js";
import type { ChunkRecord } from "../types.js";
import type { KeywordDoc } from "./keyword-index.js";

export function keywordDocOf(r: ChunkRecord, text: string, vector: ArrayLike<number> | null = null): KeywordDoc {
  const { names } = declaredNames(r);
  const declares = [...names];
  for (const name of topLevelAssignments(r)) if (!declares.includes(name)) declares.push(name);
  return { id: r.id, text, filePath: r.filePath, language: r.language, kind: r.kind, symbol: names.join(" "), declares, vector };
}

/** Languages in which an assignment at the start of a line declares a module-level name. */
const ASSIGNING_LANGUAGES = new Set(["python", "javascript", "typescript", "tsx", "jsx", "ruby", "lua", "go", "kotlin", "scala", "bash", "r", "julia", "dart"]);

/**
 * `name = …`, `name: Type = …`, `const name = …`, `export let name = …`, Dart's `final name = …`, `NAME=value`, at the
 * start of a line: flask's `g: _AppCtxGlobalsProxy = LocalProxy(…)`, a module's `DEFAULT_TIMEOUT = 5`.
 * Not `a.b = …`, `a, b = …` or a comparison.
 */
const TOP_LEVEL_ASSIGNMENT = /^(?:export\s+)?(?:(?:const|let|var|val|final|local|readonly|declare)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=\n]*)?=(?![=>~])/gm;

/**
 * Names a chunk assigns at module level: the chunker names a chunk by its function or class,
 * and the module's variables after it (flask's `g`, `request`) would otherwise be declared by no chunk.
 */
function topLevelAssignments(r: ChunkRecord): string[] {
  if (!ASSIGNING_LANGUAGES.has(r.language)) return [];
  const out: string[] = [];
  for (const m of r.content.matchAll(TOP_LEVEL_ASSIGNMENT)) if (!out.includes(m[1])) out.push(m[1]);
  return out;
}
