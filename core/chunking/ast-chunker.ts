// Syntax-aware chunking for every tree-sitter language (F1).
//
// 1. Parse, then run the language's unit query: each capture is a unit (class, function…).
// 2. Widen each unit over its wrappers (`export`, decorators, templates) and the comments or
//    attributes directly above it, then nest units by line containment.
// 3. Emit: a unit that fits the limits is one chunk; a unit too big is emitted as its
//    header/tail plus its child units (a class becomes its methods, the class kept as context);
//    a unit too big without child units is cut at the boundaries of its syntax children.
//    Lines between units (imports, top-level statements) become chunks of their own.
// 4. Merge adjacent tiny pieces that share a parent, then pack small siblings.
// 5. Drop what is left of a block's bare frame: a piece of nothing but closing lines (`end`,
//    `}`), or of a module's or namespace's opening line alone (or a class's reopening line
//    before a type inside it), left over where the block it frames took every line the limits
//    allow (the next chunk's context names the module); and
//    a file's opening comment of a line or two (`# frozen_string_literal: true`) that could not
//    join the code after it.
// Invariant: pieces never overlap and together cover every non-blank line of the file but the
// bare frames of step 5.
import type { Language, Node, Query, Tree } from "web-tree-sitter";
import { CALLABLE_KINDS, type Chunk } from "../types.js";
import type { AstLanguage } from "./languages.js";
import { fits, LineIndex, splitByLines, type Limits } from "./line-index.js";
import { PACK_SEPARATOR } from "./pack.js";
import { fnv1a } from "../text-hash.js";
import { loadLanguage, parseWith, treeSitterModule } from "./parser.js";
import { TITLED_KINDS } from "./languages/test-calls.js";
import { COMMENTS } from "./languages/types.js";
import { nameOf, paramsOf, rowsOf } from "./syntax.js";

interface Unit {
  node: Node;
  kind: string;
  symbol: string;
  /** Shown in the context instead of the symbol, when the language qualifies it. */
  qualifiedName: string;
  /** Parameter list as written (callables only show it). */
  params: string;
  /** How the unit reads in a context chain: `method get(key: string)`. */
  label: string;
  /** Transparent containers around it (`namespace Shop`), shown in its context when it is a root. */
  prefix: string;
  /** The node whose syntax children bound the cuts when the unit is too big (the parent list, for clauses joined into one unit). */
  body: Node;
  start: number;
  end: number;
  children: Unit[];
  detached: boolean;
  /** The unit or one of its descendants is detached. */
  holdsDetached: boolean;
}

interface Piece {
  start: number;
  end: number;
  kind: string;
  symbol: string;
  context: string;
  /** Pieces merge only within the same group (same enclosing unit). */
  group: string;
  unit: boolean;
  detached: boolean;
}

const TYPE_KINDS = new Set(["class", "struct", "interface", "trait", "impl", "record", "enum", "protocol", "extension", "object"]);
const CONSTRUCTOR_NAMES = new Set(["constructor", "__init__", "__construct", "initialize", "init"]);

// Promises, not queries: concurrent first calls (a worker takes several files at once) must
// share one compilation, which is costlier than most parses.
const queries = new Map<string, Promise<Query>>();

/** The unit query for a language plus any configured extra node types; compiled once. */
function unitQuery(spec: AstLanguage, extraTypes: readonly string[]): Promise<Query> {
  // By language too: a table may read another's grammar with units of its own (Starlark, Python's).
  const key = `${spec.language}\u0000${spec.grammar}\u0000${extraTypes.join(",")}`;
  let query = queries.get(key);
  if (!query) {
    query = compileUnitQuery(spec, extraTypes);
    queries.set(key, query);
    // A config mistake is reported on every call, not cached as a rejection forever.
    query.catch(() => queries.delete(key));
  }
  return query;
}

async function compileUnitQuery(spec: AstLanguage, extraTypes: readonly string[]): Promise<Query> {
  const [language, { Query }] = await Promise.all([loadLanguage(spec.grammar), treeSitterModule()]);
  const patterns: string[] = [];
  for (const [kind, entries] of Object.entries(spec.units)) {
    for (const entry of entries) patterns.push(entry.includes("@") ? entry : `(${entry}) @${kind}`);
  }
  for (const type of extraTypes) {
    checkExtraType(language, spec, type);
    patterns.push(`(${type}) @${type}`);
  }
  return new Query(language, patterns.join("\n"));
}

/** A mistake in the user's `chunking` config: reported as is, never hidden by a fallback. */
export class ChunkingConfigError extends Error {
  override name = "ChunkingConfigError";
}

function checkExtraType(language: Language, spec: AstLanguage, type: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(type) || language.idForNodeType(type, true) == null) {
    throw new ChunkingConfigError(
      `chunking.nodeTypes.${spec.language}: "${type}" is not a node type of the ${spec.language} grammar; remove it or use a type the grammar defines`,
    );
  }
}

export async function chunkWithSyntax(
  spec: AstLanguage,
  filePath: string,
  content: string,
  limits: Limits,
  extraTypes: readonly string[] = [],
): Promise<Chunk[]> {
  const lines = new LineIndex(content);
  if (lines.lineCount === 0) return [];
  const query = await unitQuery(spec, extraTypes);
  const given = textForGrammar(spec, content);
  const tree = await parseWith(spec.grammar, given);
  try {
    const units = collectUnits(spec, tree, query, lines, blankedRows(lines, content, given));
    const pieces = emitRegion(tree.rootNode, 0, lines.lineCount - 1, units, null, "", lines, limits);
    return withoutBareFrames(packSiblings(mergeTiny(pieces, lines, limits), lines, limits), lines, tree).map((p) => ({
      filePath,
      startLine: p.start + 1,
      endLine: p.end + 1,
      language: spec.language,
      kind: p.kind,
      symbol: p.symbol,
      context: p.context,
      content: lines.slice(p.start, p.end),
    }));
  } finally {
    tree.delete();
  }
}

/** The text `spec`'s grammar is given for `content` (`forParsing`): the same length and lines. */
function textForGrammar(spec: AstLanguage, content: string): string {
  return spec.forParsing?.(content) ?? content;
}

/** The syntax tree of `content` in `spec`'s grammar, given the text as the language asks (`forParsing`). */
export function parseAs(spec: AstLanguage, content: string): Promise<Tree> {
  return parseWith(spec.grammar, textForGrammar(spec, content));
}

/** Rows with text the grammar was not given (a macro `forParsing` blanked), or null when it was given all. */
function blankedRows(lines: LineIndex, content: string, given: string): ((row: number) => boolean) | null {
  if (given === content) return null;
  const givenLines = new LineIndex(given);
  return (row) => givenLines.isBlank(row) && !lines.isBlank(row);
}

/** One unit in a file's outline: the shape of core/symbols' OutlineItem (a floor above this one). */
export interface UnitOutline {
  kind: string;
  name: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  children: UnitOutline[];
}

/**
 * A parsed text's units as a file outline, nested as the chunker nests them: kind, name, and
 * lines from the first of its leading comments and annotations to its end.
 */
export async function outlineOfUnits(spec: AstLanguage, tree: Tree, content: string): Promise<UnitOutline[]> {
  const query = await unitQuery(spec, []);
  // A test is shown by its title as written (`test "adds two"`), as the generic skeleton shows it.
  const item = (u: Unit): UnitOutline => ({ kind: u.kind, name: TITLED_KINDS.has(u.kind) ? u.qualifiedName || u.symbol : u.symbol, startLine: u.start + 1, endLine: u.end + 1, children: u.children.map(item) });
  const lines = new LineIndex(content);
  return collectUnits(spec, tree, query, lines, blankedRows(lines, content, textForGrammar(spec, content))).map(item);
}

function collectUnits(spec: AstLanguage, tree: Tree, query: Query, lines: LineIndex, blanked: ((row: number) => boolean) | null): Unit[] {
  const seen = new Set<number>();
  const flat: Unit[] = [];
  for (const capture of query.captures(tree.rootNode)) {
    const node = capture.node;
    if (capture.name.startsWith("_") || seen.has(node.id)) continue;
    seen.add(node.id);
    let outer = node;
    while (outer.parent && spec.wrappers?.includes(outer.parent.type)) outer = outer.parent;
    const rows = rowsOf(outer);
    // Some grammars end a node where the next one starts (TOML tables): drop blank edges.
    const trimmed = lines.trim(widenOverLeading(spec, outer, rows[0], lines, blanked), rows[1]);
    if (!trimmed) continue;
    const [start, end] = trimmed;
    // Extra node types from config are named only by an explicit `name` field: guessing from
    // their children would call a match statement by its subject.
    const configured = !Object.hasOwn(spec.units, capture.name);
    const refined = configured ? null : (spec.refine?.(node, capture.name) ?? null);
    const kind = refined?.kind ?? capture.name;
    flat.push({
      node: outer,
      kind,
      symbol: refined?.symbol ?? (configured ? (node.childForFieldName("name")?.text ?? "") : nameOf(node)),
      qualifiedName: refined?.qualifiedName ?? "",
      params: refined?.params ?? paramsOf(node),
      label: refined?.label ?? "",
      prefix: spec.transparent ? containerChain(spec.transparent, outer) : "",
      body: outer,
      start,
      end,
      children: [],
      detached: spec.detached?.includes(kind) ?? false,
      holdsDetached: false,
    });
  }
  flat.sort((x, y) => x.start - y.start || y.end - x.end);
  if (spec.clauses) joinClauses(flat, spec.clauses);
  const roots: Unit[] = [];
  const stack: Unit[] = [];
  for (const unit of flat) {
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.end < unit.start) {
        stack.pop();
      } else if (unit.end > top.end) {
        // Shares a line with the end of `top` (`} function b() {`) without being inside it:
        // it starts after `top`, so the two never overlap.
        unit.start = lines.trim(top.end + 1, unit.end)?.[0] ?? unit.end + 1;
        stack.pop();
      } else if (!containsNode(top.node, unit.node)) {
        // Within `top`'s lines but not inside it (`function a(){} function b(){}` on one
        // line): those lines are `top`'s. Nesting it would chain every function of a minified
        // line inside the one before it, deeper than the stack allows.
        unit.start = unit.end + 1;
        break;
      } else {
        break;
      }
    }
    if (unit.start > unit.end) continue;
    const parent = stack[stack.length - 1];
    // An anonymous unit starting where its parent starts (the struct inside a typedef) adds nothing.
    if (parent && !unit.symbol && unit.start === parent.start) continue;
    (parent ? parent.children : roots).push(unit);
    stack.push(unit);
  }
  finishUnits(roots, null);
  return roots;
}

/**
 * Consecutive units of one kind and name under the same parent node become one unit (in place):
 * the first one's node, kind and label, the lines of all of them, cut at the parent's children
 * when too big. Units come sorted by start.
 */
function joinClauses(flat: Unit[], kinds: readonly string[]): void {
  let w = 0;
  for (const unit of flat) {
    const prev = w > 0 ? flat[w - 1] : null;
    if (
      prev &&
      kinds.includes(unit.kind) &&
      unit.kind === prev.kind &&
      unit.symbol !== "" &&
      unit.symbol === prev.symbol &&
      unit.start > prev.end &&
      unit.node.parent !== null &&
      unit.node.parent.id === prev.node.parent?.id
    ) {
      prev.end = unit.end;
      prev.body = unit.node.parent;
      continue;
    }
    flat[w++] = unit;
  }
  flat.length = w;
}

/** `namespace A > namespace A.B`: the transparent containers a node sits in, outermost first. */
function containerChain(transparent: Record<string, string[]>, node: Node): string {
  const chain: string[] = [];
  for (let p = node.parent; p; p = p.parent) {
    const kind = Object.keys(transparent).find((k) => transparent[k].includes(p!.type));
    if (kind) chain.unshift([kind, nameOf(p)].filter(Boolean).join(" "));
  }
  return chain.join(" > ");
}

function containsNode(outer: Node, inner: Node): boolean {
  return inner.startIndex >= outer.startIndex && inner.endIndex <= outer.endIndex;
}

/**
 * Comments, decorators and attributes directly above a unit (no blank line between) belong to
 * it; so do lines the grammar was not given (`blanked`: a C macro such as `FMT_DEPRECATED` or
 * `NS_SWIFT_NAME(…)` on a line of its own), which would otherwise part a doc comment from it.
 */
function widenOverLeading(spec: AstLanguage, node: Node, start: number, lines: LineIndex, blanked: ((row: number) => boolean) | null): number {
  const overBlanked = (row: number): number => {
    while (blanked && row > 0 && blanked(row - 1)) row--;
    return row;
  };
  start = overBlanked(start);
  if (!spec.leading) return start;
  const previous = spec.previous ?? ((n: Node) => n.previousNamedSibling);
  for (let prev = previous(node); prev && spec.leading.includes(prev.type); prev = previous(prev)) {
    const [s, e] = rowsOf(prev);
    if (e < start - 1) break;
    // A trailing comment on a code line belongs to that code, not to the next unit.
    if (prev.startPosition.column !== lines.line(s).search(/\S/)) break;
    start = overBlanked(s);
  }
  return start;
}

function finishUnits(units: Unit[], parent: Unit | null): void {
  for (const unit of units) {
    if (unit.kind === "function" && parent && TYPE_KINDS.has(parent.kind)) unit.kind = "method";
    // `constructor`, `__init__`…, or a method named after its class (C++, C#, Java).
    if (unit.kind === "method" && parent && (CONSTRUCTOR_NAMES.has(unit.symbol) || unit.symbol === parent.symbol)) unit.kind = "constructor";
    const params = CALLABLE_KINDS.has(unit.kind) ? unit.params : "";
    unit.label ||= [unit.kind, unit.qualifiedName || unit.symbol].filter(Boolean).join(" ") + params;
    finishUnits(unit.children, unit);
    unit.holdsDetached = unit.detached || unit.children.some((c) => c.holdsDetached);
  }
}

/**
 * Pieces covering rows a..b of `owner` (null = the file), which holds `units` in order.
 * `context` is the owner's context chain.
 */
function emitRegion(
  node: Node,
  a: number,
  b: number,
  units: Unit[],
  owner: Unit | null,
  context: string,
  lines: LineIndex,
  limits: Limits,
): Piece[] {
  const out: Piece[] = [];
  let cursor = a;
  let seenUnit = false;
  const gap = (from: number, to: number) => {
    const trimmed = lines.trim(from, to);
    if (!trimmed) return;
    // `preamble` only for what comes before the first unit; a file without units is `block`s.
    const kind = owner ? owner.kind : seenUnit || units.length === 0 ? "block" : "preamble";
    const base = { kind, symbol: owner?.symbol ?? "", context, group: context, unit: false, detached: false };
    for (const [s, e] of cutToFit(node, trimmed[0], trimmed[1], lines, limits)) out.push({ ...base, start: s, end: e });
  };
  for (const unit of units) {
    if (cursor < unit.start) gap(cursor, unit.start - 1);
    out.push(...emitUnit(unit, context, lines, limits));
    seenUnit = true;
    cursor = unit.end + 1;
  }
  if (cursor <= b) gap(cursor, b);
  return out;
}

function emitUnit(unit: Unit, parentContext: string, lines: LineIndex, limits: Limits): Piece[] {
  const outer = parentContext || unit.prefix;
  const context = outer ? `${outer} > ${unit.label}` : unit.label;
  const whole = fits(lines, unit.start, unit.end, limits);
  const needsSplit = !whole || unit.children.some((c) => c.holdsDetached);
  if (!needsSplit) {
    const named = framedType(unit, context, lines);
    return [{ start: unit.start, end: unit.end, kind: named.unit.kind, symbol: named.unit.symbol, context: named.context, group: parentContext, unit: true, detached: unit.detached }];
  }
  if (unit.children.length) {
    return emitRegion(unit.body, unit.start, unit.end, unit.children, unit, context, lines, limits);
  }
  return cutToFit(unit.body, unit.start, unit.end, lines, limits).map(([s, e]) => ({
    start: s,
    end: e,
    kind: unit.kind,
    symbol: unit.symbol,
    context,
    group: `${context}\u0000parts`,
    unit: true,
    detached: unit.detached,
  }));
}

/** Kinds that can be a bare frame around one type, and the kinds framed. */
const FRAMING_KINDS = new Set([...TYPE_KINDS, "module", "namespace"]);
/** Kinds whose opening line alone says nothing the next chunk's context does not. */
const NAMESPACE_KINDS = new Set(["module", "namespace"]);
/** A line that is a comment (the frame's own doc or a licence line stays a frame). */
const COMMENT_LINE = /^(?:#|\/\/|\/\*|\*|--)/;
/** A line that only closes blocks (`end`, `}`, `});`), a trailing comment allowed. */
const CLOSING_LINE = /^(?:end|[)\]}]+)[;,]?\s*(?:(?:#|\/\/).*)?$/;
/** A module's or namespace's opening line and nothing else (`module RuboCop`, `namespace App {`). */
const BARE_OPENING_LINE = /^(?:module|namespace)\s+[\w:.]+\s*\{?$/;
/**
 * A class's opening line that reopens it, with no superclass and nothing else: Ruby's `class
 * Thor` in each file of its library, C#'s `public static partial class SqlMapper` in each file
 * of the part. (Java's or Kotlin's `class Outer {` declares the class: it stays.)
 */
const BARE_CLASS_LINE = /^class\s+\w+(?:::\w+)*$|^(?:(?:public|internal|private|protected|static|sealed|abstract)\s+)*partial\s+(?:(?:public|internal|static|sealed|abstract)\s+)*class\s+\w+\s*\{?$/;

/**
 * The type a unit only frames, with its context: Ruby nests each class in its library's
 * modules (`module RuboCop > module Cop > module Style > class ZeroLengthPredicate`), Dapper
 * each type in `partial class SqlMapper`. Such a chunk is the inner type and is named by it;
 * the frames stay in its context. A frame holds nothing but its one named type (a Kotlin class
 * around its companion object is no frame), its declaration's line (comments and a lone `{`
 * aside) and closing lines.
 */
function framedType(unit: Unit, context: string, lines: LineIndex): { unit: Unit; context: string } {
  let inner = unit;
  let chain = context;
  while (inner.children.length === 1 && FRAMING_KINDS.has(inner.kind) && FRAMING_KINDS.has(inner.children[0].kind) && inner.children[0].symbol !== "") {
    const child = inner.children[0];
    let opening = 0;
    for (let row = inner.start; row < child.start; row++) {
      const text = lines.line(row).trim();
      if (text && text !== "{" && !COMMENT_LINE.test(text)) opening++;
    }
    let closing = true;
    for (let row = child.end + 1; row <= inner.end && closing; row++) {
      const text = lines.line(row).trim();
      closing = !text || CLOSING_LINE.test(text);
    }
    if (opening > 1 || !closing) break;
    inner = child;
    chain = `${chain} > ${child.label}`;
  }
  return { unit: inner, context: chain };
}

/** Rows a..b as one piece when it fits, else cut at syntax boundaries inside `node`. */
function cutToFit(node: Node, a: number, b: number, lines: LineIndex, limits: Limits): Array<[number, number]> {
  if (fits(lines, a, b, limits)) return [[a, b]];
  const atoms = syntaxAtoms(node, a, b, lines, limits);
  const out: Array<[number, number]> = [];
  let start = a;
  for (const [s, e] of atoms) {
    if (e < start || fits(lines, start, e, limits)) continue;
    if (s > start) {
      // Rows between atoms (unnamed tokens) can tip the piece over: cut by lines then.
      out.push(...(fits(lines, start, s - 1, limits) ? [[start, s - 1] as [number, number]] : splitByLines(lines, start, s - 1, limits)));
      start = s;
    }
    if (fits(lines, start, e, limits)) continue;
    out.push(...splitByLines(lines, start, e, limits));
    start = e + 1;
  }
  if (start <= b) out.push(...(fits(lines, start, b, limits) ? [[start, b] as [number, number]] : splitByLines(lines, start, b, limits)));
  const trimmed: Array<[number, number]> = [];
  for (const [s, e] of out) {
    const t = lines.trim(s, e);
    if (t) trimmed.push(t);
  }
  return trimmed;
}

/** A node's named children with their rows, built once per node and chunking call. */
interface Children {
  nodes: Node[];
  starts: number[];
  ends: number[];
}

const childCache = new WeakMap<LineIndex, Map<number, Children>>();

/** Cached per file (keyed by its LineIndex): regions of one big node would otherwise re-list its children. */
function childrenOf(node: Node, lines: LineIndex): Children {
  let perFile = childCache.get(lines);
  if (!perFile) childCache.set(lines, (perFile = new Map()));
  let entry = perFile.get(node.id);
  if (!entry) {
    const nodes = node.namedChildren.filter((c): c is Node => !!c);
    const rows = nodes.map(rowsOf);
    entry = { nodes, starts: rows.map((r) => r[0]), ends: rows.map((r) => r[1]) };
    perFile.set(node.id, entry);
  }
  return entry;
}

/** Disjoint row ranges of the syntax nodes inside a..b, descending into nodes too big to keep. */
function syntaxAtoms(node: Node, a: number, b: number, lines: LineIndex, limits: Limits): Array<[number, number]> {
  const atoms: Array<[number, number]> = [];
  const visit = (n: Node, depth: number) => {
    const { nodes, starts, ends } = childrenOf(n, lines);
    // Siblings are in order, so the first child reaching row a is found by bisection.
    let lo = 0;
    let hi = nodes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] < a) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < nodes.length && starts[i] <= b; i++) {
      if (ends[i] < a) continue;
      const s = Math.max(starts[i], a);
      const e = Math.min(ends[i], b);
      if (!fits(lines, s, e, limits) && nodes[i].namedChildCount > 0 && depth < 12) visit(nodes[i], depth + 1);
      else atoms.push([s, e]);
    }
  };
  visit(node, 0);
  atoms.sort((x, y) => x[0] - y[0]);
  const disjoint: Array<[number, number]> = [];
  for (const [s, e] of atoms) {
    const last = disjoint[disjoint.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else disjoint.push([s, e]);
  }
  return disjoint;
}

/** Kinds too small to be looked up on their own; tiny neighbours of these kinds may share a chunk. */
const MINOR_KINDS = new Set(["property", "key", "rule", "element", "table", "variable"]);

/** A named declaration someone may search for by name (`where is parseLimit defined`). */
function isDeclaration(p: Piece): boolean {
  return p.unit && p.symbol !== "" && !MINOR_KINDS.has(p.kind);
}

/**
 * Tiny pieces join their neighbours within the same parent: a piece under minChars absorbs
 * the next one (so imports lean on the declaration after them), and a tiny last piece of its
 * group (a closing brace) joins the one before it. Two named declarations never share a chunk,
 * however small: each keeps its own symbol, which is how definitions are found by name.
 */
function mergeTiny(pieces: Piece[], lines: LineIndex, limits: Limits): Piece[] {
  const out: Piece[] = [];
  const canJoin = (a: Piece, b: Piece) =>
    a.group === b.group &&
    !a.detached &&
    !b.detached &&
    (!isDeclaration(a) || !isDeclaration(b) || (a.kind === b.kind && a.symbol === b.symbol)) &&
    fits(lines, a.start, b.end, limits);
  pieces.forEach((piece, i) => {
    const prev = out[out.length - 1];
    const next = pieces[i + 1];
    const prevTiny = prev && lines.chars(prev.start, prev.end) < limits.minChars;
    const lastTiny = lines.chars(piece.start, piece.end) < limits.minChars && (!next || next.group !== piece.group);
    if (prev && (prevTiny || lastTiny) && canJoin(prev, piece)) {
      const main =
        prev.unit !== piece.unit
          ? prev.unit ? prev : piece
          : lines.chars(prev.start, prev.end) >= lines.chars(piece.start, piece.end) ? prev : piece;
      out[out.length - 1] = { ...main, start: prev.start, end: piece.end, unit: prev.unit || piece.unit };
    } else {
      out.push(piece);
    }
  });
  return out;
}

/**
 * Neighbouring pieces of one parent share a chunk while together they stay within
 * `packChars` (and the line limit): a file's small functions, a class's short methods. Every
 * per-chunk cost of an index (a vector, a keyword document, a row) is paid once per pack, and a
 * question about one of them is answered with its neighbours around it. The pack keeps the
 * largest member's kind and symbol (the parent's, when it opens with the parent's own text);
 * its context names every member after their parent's chain, so each declaration can still be
 * found by name.
 */
function packSiblings(pieces: Piece[], lines: LineIndex, limits: Limits): Piece[] {
  const budget = limits.packChars ?? 0;
  if (budget <= 0) return pieces;
  // Packs are cut greedily, but some members always open a pack of their own (chosen by their
  // first line's hash, so the choice does not move with them): an edit or an insertion then
  // re-packs only its neighbourhood up to the next such member, and every pack after it keeps
  // its text, so its vector is re-used instead of embedded again.
  const anchors = (p: Piece) => fnv1a(lines.line(p.start).trim()) % PACK_ANCHOR_EVERY === 0;
  const out: Piece[] = [];
  let members: Piece[] = [];
  const flush = () => {
    if (members.length === 1) out.push(members[0]);
    else if (members.length > 1) out.push(packOf(members, lines));
    members = [];
  };
  for (const piece of pieces) {
    const head = members[0];
    const joins =
      head !== undefined &&
      !anchors(piece) &&
      head.group === piece.group &&
      !piece.detached &&
      !head.detached &&
      lines.chars(head.start, piece.end) <= budget &&
      fits(lines, head.start, piece.end, limits);
    if (!joins) flush();
    members.push(piece);
  }
  flush();
  return out;
}

/** A file's opening comment up to this many lines, alone, is a mark for tools, not a chunk. */
const MARK_LINES = 2;

/**
 * Pieces that hold a block's frame and nothing else are not chunks: nobody searches for an
 * `end`. RuboCop's files nest each class in three modules, and one a little over the line limit
 * left `# frozen_string_literal: true`, `module RuboCop` and three `end`s behind as chunks of
 * their own (almost half of its index). A module's opening line goes too: the chunk after it
 * names the module in its context. So does a bare `class Thor` followed by a type of its own:
 * a class reopened as a namespace in each of the library's files (Dapper's `partial class
 * SqlMapper` in twenty), whose declaration is elsewhere; a class declared there keeps the
 * chunk that opens on its body.
 */
function withoutBareFrames(pieces: Piece[], lines: LineIndex, tree: Tree): Piece[] {
  const rowsWithText = (p: Piece): number[] => {
    const rows: number[] = [];
    for (let row = p.start; row <= p.end; row++) if (!lines.isBlank(row)) rows.push(row);
    return rows;
  };
  const opensNestedType = (p: Piece, next: Piece | undefined): boolean => {
    const inner = next?.context.startsWith(`${p.context} > `) ? next.context.slice(p.context.length + 3) : "";
    return FRAMING_KINDS.has(inner.slice(0, inner.indexOf(" ")));
  };
  const openingOf = (p: Piece, i: number): RegExp | null => {
    if (NAMESPACE_KINDS.has(p.kind) || p.kind === "preamble") return BARE_OPENING_LINE;
    return p.kind === "class" && opensNestedType(p, pieces[i + 1]) ? BARE_CLASS_LINE : null;
  };
  const isFrame = (p: Piece, i: number): boolean => {
    const opening = openingOf(p, i);
    const texts = rowsWithText(p).map((row) => lines.line(row).trim());
    if (texts.every((text) => CLOSING_LINE.test(text))) return true;
    // An opening line, with C#'s `{` on a line of its own after it.
    return !!opening && texts.some((text) => opening.test(text)) && texts.every((text) => text === "{" || CLOSING_LINE.test(text) || opening.test(text));
  };
  // The file's first lines, a comment or two that ends there (`# frozen_string_literal: true`).
  const isOpeningMark = (p: Piece, i: number): boolean => {
    if (i !== 0 || p.kind !== "preamble") return false;
    const rows = rowsWithText(p);
    return rows.length <= MARK_LINES && rows.every((row) => {
      const raw = lines.line(row);
      const node = tree.rootNode.descendantForPosition({ row, column: raw.length - raw.trimStart().length });
      return node !== null && COMMENTS.includes(node.type) && node.startPosition.row >= p.start && node.endPosition.row <= p.end;
    });
  };
  return pieces.filter((p, i) => p.unit || !(isFrame(p, i) || isOpeningMark(p, i)));
}

/** About one member in this many opens a pack whatever room is left (see packSiblings). */
const PACK_ANCHOR_EVERY = 8;

function packOf(members: Piece[], lines: LineIndex): Piece {
  const group = members[0].group;
  // A pack that opens with its parent's own text (a class's declaration and fields) declares
  // the parent, as that text alone would: it keeps the parent's name, the members their labels.
  const opensWithParent = !members[0].unit && members[0].symbol !== "" && members[0].context === group;
  let main = members[0];
  if (!opensWithParent) {
    for (const m of members) {
      const better = m.unit !== main.unit ? m.unit : lines.chars(m.start, m.end) > lines.chars(main.start, main.end);
      if (better) main = m;
    }
  }
  // The members' levels below the pack's group. Levels they all sit in (a C# file's namespace,
  // which each of its types names) are said once; each member is listed by its own level, also
  // one named through its frames (`module inner > struct Point`), so that the pack's last level
  // lists every member (declaredNames, packMembers).
  const belows = members.filter((m) => m.unit).map((m) => (group && m.context.startsWith(`${group} > `) ? m.context.slice(group.length + 3) : m.context).split(" > "));
  const head = [group, ...sharedLeadingLevels(belows)].filter(Boolean).join(" > ");
  const named = [...new Set(belows.map((levels) => levels[levels.length - 1]).filter(Boolean))].join(PACK_SEPARATOR);
  const context = named ? (head ? `${head} > ${named}` : named) : main.context;
  return { ...main, start: members[0].start, end: members[members.length - 1].end, context, unit: members.some((m) => m.unit) };
}

/** The levels every list starts with, leaving each at least one of its own. */
function sharedLeadingLevels(lists: string[][]): string[] {
  const shared: string[] = [];
  for (let i = 0; lists.length > 0 && lists.every((l) => l.length > i + 1 && l[i] === lists[0][i]); i++) shared.push(lists[0][i]);
  return shared;
}

export type { Tree };
