// Loads the tree-sitter runtime and grammars lazily, once each, and parses source text.
import type { Language, Parser, Tree } from "web-tree-sitter";
import { grammarSource, onGrammarSourceChange } from "./grammar-source.js";
import { patchGrammar } from "./grammar-patches.js";
import { compileForTiers, type WasmTiers } from "../wasm-tiers.js";

type TreeSitter = typeof import("web-tree-sitter");
let treeSitter: Promise<TreeSitter> | null = null;

/** The runtime's module, imported with the first parse: a process that only searches never compiles it. */
export function treeSitterModule(): Promise<TreeSitter> {
  treeSitter ??= import("web-tree-sitter");
  return treeSitter;
}

let runtime: Promise<void> | null = null;
const languages = new Map<string, Promise<Language>>();
const parsers = new Map<string, Promise<Parser>>();

onGrammarSourceChange(() => {
  languages.clear();
  parsers.clear();
});

/**
 * The tiers the runtime is compiled for (core/wasm-tiers.ts), where the process chooses. Its
 * functions run for every file: at the optimising tier a worker of a big pass chunks in a third
 * less time, but optimising them costs ~0.2 s of CPU and ~10 MB a thread, more than a pass of a
 * few MB gains (pallets/click's first index: 1.67 -> 1.80 s, medians of ten).
 */
let runtimeTiers: WasmTiers = "baseline";

/**
 * Sets the tiers the runtime is compiled for: before this thread's first parse, or not at all.
 * V8 shares a compiled module among the threads of a process (by its bytes), so the first thread
 * to compile the runtime chooses for the rest: every thread of a pass must be told the same.
 */
export function setParserRuntimeTiers(tiers: WasmTiers): void {
  runtimeTiers = tiers;
}

function initRuntime(): Promise<void> {
  runtime ??= (async () => {
    const { Parser } = await treeSitterModule();
    const source = await grammarSource();
    const wasm = await source("tree-sitter.wasm");
    // Handing the runtime its own bytes means it never has to guess where it was installed.
    await compilingHere(runtimeTiers, () => (typeof wasm === "string" ? Parser.init({ locateFile: () => wasm }) : Parser.init({ wasmBinary: wasm })));
  })().catch((err) => {
    runtime = null;
    throw err;
  });
  return runtime;
}

// Linking a grammar into the runtime is not re-entrant: two Language.load calls in flight at
// once (concurrent chunkFile calls on different languages) resolve each other's symbols wrongly
// ("bad export type for 'tree_sitter_css_external_scanner_create'") and leave the runtime
// broken. Loads therefore run one at a time; reading the bytes may still overlap.
let linking: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = linking.then(task, task);
  linking = run.catch(() => undefined);
  return run;
}

// Language.load compiles each grammar with the asynchronous WebAssembly.instantiate, which V8
// runs on its background compile threads. Once a big grammar has parsed real code (Swift,
// Kotlin), those threads spend seconds optimising its lexer, and every later grammar's compile
// queues behind that work: TypeScript took 5 s to load after a Swift parse, and 3 ms compiled
// synchronously. So while the runtime or a grammar loads, instantiate compiles on the calling
// thread, for the tiers each may run at (core/wasm-tiers.ts: a grammar at the baseline tier
// only, where the process chose so). Where a synchronous compile is refused (a browser's main
// thread limits its size) the original runs.
async function compilingHere<T>(tiers: WasmTiers, load: () => Promise<T>): Promise<T> {
  const original = WebAssembly.instantiate;
  const compileHere = (source: unknown, imports?: WebAssembly.Imports): Promise<unknown> => {
    if (source instanceof WebAssembly.Module) return original.call(WebAssembly, source, imports);
    let module: WebAssembly.Module;
    try {
      module = compileForTiers(tiers, () => new WebAssembly.Module(source as BufferSource));
    } catch {
      return original.call(WebAssembly, source as BufferSource, imports);
    }
    try {
      return Promise.resolve({ module, instance: new WebAssembly.Instance(module, imports) });
    } catch (err) {
      return Promise.reject(err);
    }
  };
  WebAssembly.instantiate = compileHere as typeof WebAssembly.instantiate;
  try {
    return await load();
  } finally {
    WebAssembly.instantiate = original;
  }
}

/** The tree-sitter Language for a grammar file stem such as `tree-sitter-typescript`. */
export function loadLanguage(grammar: string): Promise<Language> {
  let lang = languages.get(grammar);
  if (!lang) {
    lang = (async () => {
      await initRuntime();
      const source = await grammarSource();
      const bytes = await source(`${grammar}.wasm`);
      const { Language } = await treeSitterModule();
      return oneAtATime(() => compilingHere("baseline", () => Language.load(typeof bytes === "string" ? bytes : patchGrammar(bytes))));
    })();
    lang.catch(() => languages.delete(grammar));
    languages.set(grammar, lang);
  }
  return lang;
}

/** One parser per grammar: parsing is synchronous, so a parser is never shared mid-parse. */
export function parserFor(grammar: string): Promise<Parser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = Promise.all([loadLanguage(grammar), treeSitterModule()]).then(([lang, { Parser }]) => {
      const p = new Parser();
      p.setLanguage(lang);
      return p;
    });
    parser.catch(() => parsers.delete(grammar));
    parsers.set(grammar, parser);
  }
  return parser;
}

/** Parses text; the caller owns the tree and should call tree.delete() when done. */
export async function parseWith(grammar: string, content: string): Promise<Tree> {
  const parser = await parserFor(grammar);
  let tree: Tree | null;
  try {
    tree = parser.parse(content);
  } catch (err) {
    // A parse that throws (a grammar calling into something missing, a scanner trapping) stays
    // pending inside the parser, and its next parse() would resume it and throw again: the next
    // file gets a fresh parser.
    parsers.delete(grammar);
    try {
      parser.delete();
    } catch {
      // already unusable
    }
    throw err;
  }
  if (!tree) throw new Error(`tree-sitter: parsing failed with grammar ${grammar}`);
  return tree;
}
