// The graph of relative, static imports among our TypeScript sources, and the circles in it.
// `import type` counts (a type-only circle still ties two modules together); dynamic `import()`
// does not, since it is how a module defers loading another on purpose.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** Source files (.ts, .tsx; declaration files left out) under `dirs`, as absolute paths. */
export function sourceFiles(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(resolve(dir));
  return out.sort();
}

/** The relative module specifiers a file imports or re-exports statically. */
export function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specs: string[] = [];
  for (const statement of source.statements) {
    const spec = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith(".")) specs.push(spec.text);
  }
  return specs;
}

/** The source file an ESM specifier (`./x.js`) names from `file`, or null when it is not one of ours. */
function resolveSpecifier(file: string, spec: string, known: Set<string>): string | null {
  const target = resolve(dirname(file), spec);
  const stem = target.replace(/\.(m?js|jsx)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, target, join(target, "index.ts")]) if (known.has(candidate)) return candidate;
  return null;
}

/** file → the files it imports, over `files`. */
export function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = staticImports(file).map((spec) => resolveSpecifier(file, spec, known)).filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * One circle per group of files that import each other (strongly connected components of more
 * than one file, or a file importing itself), each as a path that returns to its start, with
 * paths relative to `root`.
 */
export function importCycles(graph: Map<string, string[]>, root: string): string[][] {
  const cycles: string[][] = [];
  for (const component of stronglyConnected(graph)) {
    const start = [...component].sort()[0];
    const selfLoop = graph.get(start)?.includes(start) ?? false;
    if (component.size === 1 && !selfLoop) continue;
    cycles.push(shortestCycle(graph, start, component).map((f) => relative(root, f)));
  }
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Tarjan's algorithm, iterative (deep import chains must not overflow the stack). */
function stronglyConnected(graph: Map<string, string[]>): Array<Set<string>> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: Array<Set<string>> = [];
  let counter = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = new Set<string>();
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.add(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** The shortest import path from `start` back to itself, staying inside `component`. */
function shortestCycle(graph: Map<string, string[]>, start: string, component: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    for (const to of graph.get(node) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const hops: string[] = [];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at)) hops.unshift(at);
        return [start, ...hops, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** Floors from the bottom up; a member is a file (`core/types.ts`) or a folder (`core/config/`). */
export interface Floor {
  name: string;
  members: string[];
}

/** The index of the floor `file` (relative to the root) stands on, or -1 when none names it. */
export function floorOf(file: string, floors: Floor[]): number {
  return floors.findIndex((floor) => floor.members.some((m) => (m.endsWith("/") ? file.startsWith(m) : file === m)));
}

/** Every import that reaches a higher floor, as `from (floor) -> to (floor)`, paths relative to `root`. */
export function upwardImports(graph: Map<string, string[]>, root: string, floors: Floor[]): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const from = relative(root, file);
    const low = floorOf(from, floors);
    for (const target of targets) {
      const to = relative(root, target);
      const high = floorOf(to, floors);
      if (low >= 0 && high > low) out.push(`${from} (${floors[low].name}) -> ${to} (${floors[high].name})`);
    }
  }
  return out.sort();
}
