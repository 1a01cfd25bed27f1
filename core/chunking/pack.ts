// How a packed chunk names its members (packSiblings in ast-chunker.ts): after their parent's
// chain, one after another, `class Foo > method a(x); method b()`. Ranking and the keyword
// index read the names back from the context with `declaredNames`, so the format lives here.
export const PACK_SEPARATOR = "; ";

/**
 * The name one context level declares. A level reads `<kind> <name><params or type>`
 * (`method get(key)`, `class Foo`, `function withDisplay :: (Display -> X a) -> X a`,
 * `function M.foo(a)`); a level without a name (`impl`, `function(a)`) declares none.
 */
function levelName(level: string): string | null {
  const m = level.trim().match(/^[\p{L}_]+\s+(\S+)/u);
  if (!m) return null;
  let name = m[1];
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
 * What a chunk declares, from its symbol and context: the names of its own level (every
 * member of a packed chunk) and the name of the level around them, if any.
 */
export function declaredNames(chunk: { symbol: string; context: string }): { names: string[]; parent: string | null } {
  const levels = chunk.context ? chunk.context.split(" > ") : [];
  const own = levels.length ? levels[levels.length - 1].split(PACK_SEPARATOR) : [];
  const names: string[] = [];
  if (chunk.symbol) names.push(chunk.symbol);
  for (const level of own) {
    const name = levelName(level);
    if (name && !names.includes(name)) names.push(name);
  }
  const parent = levels.length >= 2 ? levelName(levels[levels.length - 2]) : null;
  return { names, parent };
}
