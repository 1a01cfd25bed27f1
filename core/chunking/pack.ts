// How a packed chunk names its members (packSiblings in ast-chunker.ts): after their parent's
// chain, one after another, `class Foo > method a(x); method b()`. Ranking and the keyword
// index read the names back from the context with `declaredNames`, so the format lives here.
import { TITLED_KINDS } from "./languages/test-calls.js";

export const PACK_SEPARATOR = "; ";

/** Ruby's `class << self` (`class << ` and its object) and Kotlin's unnamed `companion object` hold their class's own members and declare no name. */
export const SINGLETON_CLASS_PREFIX = "class << ";
export const COMPANION_OBJECT_LABEL = "companion object";

function declaresNoName(level: string): boolean {
  return level === COMPANION_OBJECT_LABEL || level.startsWith(SINGLETON_CLASS_PREFIX);
}

/**
 * The name one context level declares. A level reads `<kind> <name><params or type>`
 * (`method get(key)`, `class Foo`, `function withDisplay :: (Display -> X a) -> X a`,
 * `function M.foo(a)`); a level without a name (`impl`, `function(a)`, `class << self`)
 * declares none, and an implementation block the type it implements for (`implementedName`).
 */
function levelName(level: string): string | null {
  const trimmed = level.trim();
  const m = trimmed.match(/^([\p{L}_]+)\s+(\S+)/u);
  // A test's title (`test "parses empty input"`) is a sentence, no declared name.
  if (!m || TITLED_KINDS.has(m[1]) || declaresNoName(trimmed)) return null;
  let name = trimmed.startsWith("impl ") ? implementedName(trimmed.slice(5)) : m[2];
  if (!name) return null;
  // `get(key)` → `get`, `Foo<T>` → `Foo`; an operator (`<+>`, `(<>)`) stays as written.
  if (/^[\p{L}_$]/u.test(name)) name = name.replace(/[(<].*$/, "");
  return name || null;
}

/** The members of a packed chunk, as its context names them (`[]` for a chunk of one declaration). */
export function packMembers(chunk: { context: string }): Array<{ kind: string; name: string }> {
  const levels = chunk.context ? chunk.context.split(" > ") : [];
  const own = levels.length ? levels[levels.length - 1].split(PACK_SEPARATOR) : [];
  if (own.length < 2) return [];
  const out: Array<{ kind: string; name: string }> = [];
  for (const level of own) {
    const name = levelName(level);
    if (name) out.push({ kind: level.trim().split(/\s+/, 1)[0], name });
  }
  return out;
}

/**
 * What a markup element declares: its id (`form#login` → `login`), not its tag. A tag name is
 * the markup language's word (`g`, `form`, `button`), and taken as a name it would answer a
 * search for flask's `g` or a `Button` component with every such element.
 */
function elementName(name: string | null): string | null {
  const at = name ? name.indexOf("#") : -1;
  return at >= 0 ? name!.slice(at + 1) || null : null;
}

/**
 * What an implementation block declares: the type it adds to. `impl Trait<S> for Type<T>` is
 * `Type` (each `impl FromRequest for …` is no declaration of `FromRequest`), `impl Type<T>` is
 * `Type`; a Haskell instance head (`Show (Tree a)`) declares no name of its own.
 */
function implementedName(head: string): string | null {
  const forType = /\sfor\s+(\S+)/.exec(head);
  if (forType) return forType[1];
  const single = /^(\S+?)(?:<.*>)?$/.exec(head.trim());
  return single ? single[1] : null;
}

/** A context level's name, an element's id for an element level. */
function declaredLevelName(level: string): string | null {
  const name = levelName(level);
  return level.trim().startsWith("element ") ? elementName(name) : name;
}

/**
 * What a chunk declares, from its symbol and context: the names of its own level (every
 * member of a packed chunk) and the name of the level around them, if any.
 */
export function declaredNames(chunk: { symbol: string; context: string; kind?: string }): { names: string[]; parent: string | null } {
  const levels = chunk.context ? chunk.context.split(" > ") : [];
  const own = levels.length ? levels[levels.length - 1].split(PACK_SEPARATOR) : [];
  const names: string[] = [];
  const symbol = chunk.kind === "element" ? elementName(chunk.symbol) : chunk.kind === "impl" && chunk.symbol ? levelName(`impl ${chunk.symbol}`) : chunk.symbol;
  if (symbol && !TITLED_KINDS.has(chunk.kind ?? "")) names.push(symbol);
  for (const level of own) {
    const name = declaredLevelName(level);
    if (name && !names.includes(name)) names.push(name);
  }
  const parent = levels.length >= 2 ? declaredLevelName(levels[levels.length - 2]) : null;
  return { names, parent };
}
