// Small readers over tree-sitter nodes shared by every language table: row ranges, names,
// parameter lists and keyword-based kinds. Grammars disagree on field names, so each reader
// tries the common spellings in order.
import type { Node } from "web-tree-sitter";

/** 0-based first and last row a node occupies (a node ending at column 0 ends on the row before). */
export function rowsOf(node: Node): [number, number] {
  const start = node.startPosition.row;
  let end = node.endPosition.row;
  if (end > start && node.endPosition.column === 0) end--;
  return [start, end];
}

const NAME_TYPES = new Set([
  "identifier",
  "type_identifier",
  "simple_identifier",
  "constant",
  "name",
  "Name",
  "property_identifier",
  "field_identifier",
  "namespace_identifier",
  "tag_name",
  "scope_resolution",
  "qualified_identifier",
  "scoped_identifier",
  "scoped_type_identifier",
]);

const PARAM_TYPES = new Set([
  "formal_parameters",
  "formal_parameter_list",
  "parameters",
  "parameter_list",
  "function_value_parameters",
  "method_parameters",
  "lambda_parameters",
]);

function oneLine(text: string, max: number): string {
  const s = text.replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/**
 * The declarator nodes under `node`, outermost first (C, C++: `T& at(…)` is a
 * reference_declarator around a function_declarator around the name). Some wrappers hold
 * their inner declarator as a plain child rather than a `declarator` field.
 */
function declarators(node: Node): Node[] {
  const out: Node[] = [];
  let cur: Node | null = node.childForFieldName("declarator");
  for (let depth = 0; cur && depth < 8; depth++) {
    out.push(cur);
    cur = cur.childForFieldName("declarator") ?? cur.namedChildren.find((c) => !!c && c.type.endsWith("declarator")) ?? null;
  }
  return out;
}

/** The declared name at the bottom of a declarator chain. */
function declaredName(node: Node): Node | null {
  for (const d of declarators(node)) {
    if (NAME_TYPES.has(d.type) || d.type === "destructor_name" || d.type === "operator_name") return d;
    const inner = d.namedChildren.find((c) => !!c && (NAME_TYPES.has(c.type) || c.type === "destructor_name" || c.type === "operator_name"));
    if (inner && !d.childForFieldName("declarator") && !d.namedChildren.some((c) => c?.type.endsWith("declarator"))) return inner;
  }
  return null;
}

/** The declared name of a unit: `name` field, declarator chain, then the first name-like child. */
export function nameOf(node: Node): string {
  const named = node.childForFieldName("name");
  if (named) return oneLine(named.text, 120);
  if (node.childForFieldName("declarator")) {
    const found = declaredName(node);
    if (found) return oneLine(found.text, 120);
  }
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (NAME_TYPES.has(child.type)) return oneLine(child.text, 120);
    // `const f = () => …`, `var x = …`: the name sits on the first declarator.
    if (child.type === "variable_declarator" || child.type === "variable_declaration" || child.type === "type_spec" || child.type === "user_type") {
      return nameOf(child) || oneLine(child.text, 120);
    }
  }
  return "";
}

/** A parameter list on one line: comments dropped, `( a, b )` tightened to `(a, b)`. */
function compactParams(text: string): string {
  const bare = text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|\s)(\/\/|#)[^\n]*/g, "$1");
  return oneLine(bare.replace(/([([])\s+/g, "$1").replace(/\s+([)\]])/g, "$1").replace(/,\s*([)\]])/g, "$1"), 100);
}

/** The parameter list of a function-like unit, as written, on one line; "" when there is none. */
export function paramsOf(node: Node): string {
  const direct = node.childForFieldName("parameters");
  if (direct) return compactParams(direct.text);
  for (const d of declarators(node)) {
    const params = d.childForFieldName("parameters");
    if (params) return compactParams(params.text);
  }
  const loose: string[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (PARAM_TYPES.has(child.type)) return compactParams(child.text);
    if (child.type === "parameter") loose.push(child.text);
    // Arrow functions and function expressions bound to a name: look at the value.
    if (child.type === "variable_declarator" || child.type === "assignment_expression") {
      let value = child.childForFieldName("value") ?? child.childForFieldName("right");
      // `memo((props) => …)`: the function is the call's first argument.
      if (value?.type === "call_expression") value = value.childForFieldName("arguments")?.namedChildren[0] ?? value;
      if (value) {
        const p = value.childForFieldName("parameters") ?? value.childForFieldName("parameter");
        if (p) return compactParams(p.type.includes("parameters") ? p.text : `(${p.text})`);
      }
    }
  }
  return loose.length ? compactParams(`(${loose.join(", ")})`) : "";
}

/**
 * The keyword among `keywords` that introduces a declaration, e.g. `struct` in Swift's
 * class_declaration (one node type for class, struct, enum, extension and actor). Keywords come
 * before the declared name, so the search stops there.
 */
export function keywordOf(node: Node, keywords: readonly string[]): string | null {
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child) continue;
    if (!child.isNamed && keywords.includes(child.type)) return child.type;
    if (NAME_TYPES.has(child.type)) return null;
  }
  return null;
}

/** Does the declaration's header (its text before the first `{`) contain `word`? For grammars without keyword tokens. */
export function headerHasWord(node: Node, word: string): boolean {
  const header = node.text.slice(0, 200).split("{")[0];
  return new RegExp(`\\b${word}\\b`).test(header);
}

export function singleLine(text: string, max = 120): string {
  return oneLine(text, max);
}
