// A workspace for hook and tool tests: a temp folder with real files, real tree-sitter parsing,
// and an engine whose search answers are given by the test (retrieval itself is tested in the
// core; here the subject is what the plugin does with results).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DEFAULT_CONFIG, type RagConfig } from "../../core/config/defaults.js";
import type { Engine, IndexStatus, SearchOptions } from "../../core/engine-types.js";
import type { ChunkRecord, SearchResult } from "../../core/types.js";
import type { CoreDeps } from "../../opencode-plugin/deps.js";
import { RagWorkspace } from "../../opencode-plugin/workspace.js";
import { silentLogger } from "../../core/logging/index.js";
import { parse } from "../symbols/parse.js";

const EXT_LANG: Record<string, string> = { ts: "typescript", js: "javascript", py: "python", go: "go", rs: "rust", c: "c", css: "css", md: "markdown", rb: "ruby", java: "java" };

export function languageOf(path: string): string | null {
  return EXT_LANG[path.slice(path.lastIndexOf(".") + 1)] ?? null;
}

export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

export function tempRoot(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), "rag-plugin-"));
  writeTree(root, files);
  return root;
}

export function chunk(filePath: string, startLine: number, endLine: number, content: string, extra: Partial<ChunkRecord> = {}): ChunkRecord {
  return {
    id: `${filePath}:${startLine}`,
    filePath,
    startLine,
    endLine,
    content,
    language: languageOf(filePath) ?? "text",
    kind: "function",
    symbol: "",
    context: "",
    contentHash: "h",
    description: "",
    ...extra,
  };
}

export interface TestEngineState {
  results: SearchResult[];
  status: Partial<IndexStatus>;
  searches: Array<{ query: string; options?: SearchOptions }>;
  config: RagConfig;
  failSearch?: Error;
}

export function testEngine(root: string, state: TestEngineState): Engine {
  return {
    root,
    get config() {
      return state.config;
    },
    stateDir: join(root, ".opencode", "rag_db"),
    storeUri: join(root, ".opencode", "rag_db"),
    async index() {
      throw new Error("not used");
    },
    async search(query, options) {
      state.searches.push({ query, options });
      if (state.failSearch) throw state.failSearch;
      const f = options?.filter;
      return state.results
        .filter((r) => !f?.pathPrefixes?.length || f.pathPrefixes.some((p) => r.chunk.filePath.startsWith(p)))
        .filter((r) => !f?.kinds?.length || f.kinds.includes(r.chunk.kind))
        .slice(0, options?.topK ?? 10);
    },
    async status() {
      return { chunks: state.results.length, indexing: null, keywordOnlyReason: null, ...state.status } as IndexStatus;
    },
    async clear() {},
    async watch() {
      return { async close() {} };
    },
    async reloadConfig() {
      return [];
    },
    async close() {},
  };
}

export function configWith(overrides: { [K in keyof RagConfig]?: Partial<RagConfig[K]> }): RagConfig {
  const cfg = structuredClone(DEFAULT_CONFIG) as RagConfig;
  for (const [k, v] of Object.entries(overrides)) Object.assign((cfg as Record<string, object>)[k], v);
  return cfg;
}

export function makeWorkspace(root: string, state: Partial<TestEngineState> = {}, openError?: Error): { ws: RagWorkspace; state: TestEngineState } {
  const full: TestEngineState = { results: [], status: {}, searches: [], config: DEFAULT_CONFIG, ...state };
  const deps: CoreDeps = {
    openEngine: async () => {
      if (openError) throw openError;
      return testEngine(root, full);
    },
    parseSource: async (filePath, content) => {
      const language = languageOf(filePath);
      return language ? { language, root: await parse(language, content) } : null;
    },
    languageForPath: languageOf,
  };
  return { ws: new RagWorkspace(root, deps, { logger: silentLogger }), state: full };
}
