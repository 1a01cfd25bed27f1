// Shared set-up for indexing tests: temporary workspaces on disk and engines over a real
// LanceDB folder inside them, with a fake Ollama (127.0.0.1) as the embedding model.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { afterEach } from "vitest";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openEngine } from "../../core/engine.js";
import type { Engine, Logger } from "../../core/engine-types.js";
import type { VectorStore } from "../../core/types.js";

export function makeWorkspace(files: Record<string, string | Uint8Array>, prefix = "rag-idx-"): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  writeFiles(root, files);
  return root;
}

export function writeFiles(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

export function removeWorkspace(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** A model folder that does not exist: the engine runs keyword-only, with no model to load. */
export const KEYWORD_ONLY = { embedding: { provider: "local", model: "./no-such-model" }, logging: { logFilePath: "" } };

/**
 * Workspaces and engines a test file creates, closed and removed after each test: call once
 * at the top of the file and push what the test makes.
 */
export function trackWorkspaces(): {
  roots: string[];
  engines: Engine[];
  /** A workspace holding `files`, removed after the test. */
  workspace(files: Record<string, string | Uint8Array>): string;
  /** An engine over `root`, closed after the test. */
  engine(root: string, overrides: Record<string, unknown>): Promise<Engine>;
} {
  const tracked = {
    roots: [] as string[],
    engines: [] as Engine[],
    workspace(files: Record<string, string | Uint8Array>): string {
      const root = makeWorkspace(files);
      tracked.roots.push(root);
      return root;
    },
    async engine(root: string, overrides: Record<string, unknown>): Promise<Engine> {
      const engine = await engineFor(root, overrides);
      tracked.engines.push(engine);
      return engine;
    },
  };
  afterEach(async () => {
    for (const e of tracked.engines.splice(0)) await e.close();
    for (const r of tracked.roots.splice(0)) removeWorkspace(r);
  });
  return tracked;
}

/** Overrides for an Ollama-served model on a fake server. */
export function ollamaOverrides(url: string, model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { embedding: { provider: "ollama", model, baseUrl: url, batchSize: 8, maxRetries: 0 }, logging: { logFilePath: "" }, ...extra };
}

export async function engineFor(root: string, overrides: Record<string, unknown>): Promise<Engine> {
  return openEngine({ root, overrides });
}

/** Paths of the search hits, in order. */
export async function hitPaths(engine: Engine, query: string, topK = 5): Promise<string[]> {
  return (await engine.search(query, { topK })).map((r) => r.chunk.filePath);
}

export function tsFunction(name: string, body: string): string {
  return `export function ${name}(input: number): number {\n  // ${body}\n  return input * 2;\n}\n`;
}

/** Paths of hits whose chunk text contains `text` exactly (word overlap alone does not count). */
export async function pathsHolding(engine: Engine, text: string, topK = 10): Promise<string[]> {
  return (await engine.search(text, { topK })).filter((r) => r.chunk.content.includes(text)).map((r) => r.chunk.filePath);
}

export type LoggedLine = { level: string; message: string; data?: Record<string, unknown> };

/** A logger that keeps what it is told, to see where a pass ran. */
export function recordingLogger(): Logger & { lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const keep = (level: string) => (message: string, data?: Record<string, unknown>) => void lines.push({ level, message, data });
  return { lines, debug: keep("debug"), info: keep("info"), error: keep("error") };
}

/** Resolves with the probe's first truthy answer, polled every 100 ms; throws after `limitMs`. */
export async function until<T>(what: string, probe: () => T | null | undefined | false | Promise<T | null | undefined | false>, limitMs = 60_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Makes the engine's store fail its `nth` add with a full disk's error, as a pass's write would;
 * returns a function that counts the adds so far, and one that puts the store back.
 */
export function failNthStoreAdd(engine: Engine, nth: number): { adds: () => number; restore: () => void } {
  const env = (engine as unknown as { passEnv: { store(d: number | null): Promise<VectorStore> } }).passEnv;
  const openStore = env.store.bind(env);
  let adds = 0;
  env.store = async (dimension) => {
    const store = await openStore(dimension);
    return new Proxy(store, {
      get(target, prop, receiver) {
        if (prop !== "add") return Reflect.get(target, prop, receiver);
        return async (...args: Parameters<VectorStore["add"]>) => {
          if (++adds === nth) throw new Error("ENOSPC: no space left on device, write");
          return target.add(...args);
        };
      },
    });
  };
  return { adds: () => adds, restore: () => void (env.store = openStore) };
}
