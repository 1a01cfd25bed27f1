// Finds, reads, validates and merges configuration (F12):
// defaults <- opencode-rag.json | .opencode/rag.json | --config <- <store>/runtime-overrides.json
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { parse as parseJsonc, printParseErrorCode, type ParseError } from "jsonc-parser";
import { DEFAULT_CONFIG, type RagConfig } from "./defaults.js";
import { ConfigError, deepMerge, MAX_EMBEDDING_THREADS, SCHEMA_KEY, validateConfig } from "./validate.js";

export const CONFIG_FILE_CANDIDATES = ["opencode-rag.json", ".opencode/rag.json"];
export const RUNTIME_OVERRIDES_FILE = "runtime-overrides.json";

export interface LoadedConfig {
  config: RagConfig;
  /** Absolute workspace root every relative path is resolved against. */
  root: string;
  /** The config file used, if any. */
  configFile: string | null;
  /** Absolute folder for the manifest, lock, status and log files (the store folder when local). */
  stateDir: string;
  /** The store location as handed to LanceDB: an absolute folder or a URI. */
  storeUri: string;
}

export interface LoadConfigOptions {
  root?: string;
  /** Explicit config file (--config); relative to the current directory. */
  configPath?: string;
  /** Skip runtime-overrides.json (e.g. to show what the file alone says). */
  ignoreOverrides?: boolean;
}

/** True for LanceDB URIs that are not plain local folders. */
export function isRemoteOrMemoryUri(path: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(path) && !path.startsWith("file://");
}

/** Reads a JSON or JSONC file; errors name the file, line and what is wrong. */
export function readJsonFile(file: string): unknown {
  const text = readFileSync(file, "utf8");
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0];
    const line = text.slice(0, e.offset).split("\n").length;
    throw new ConfigError(`${file}:${line}: invalid JSON (${printParseErrorCode(e.error)}); fix the syntax and retry`);
  }
  return value;
}

export function findConfigFile(root: string): string | null {
  for (const name of CONFIG_FILE_CANDIDATES) {
    const p = join(root, name);
    if (existsSync(p)) return p;
  }
  return null;
}

export function resolveStore(config: RagConfig, root: string): { storeUri: string; stateDir: string } {
  const p = config.vectorStore.path;
  if (isRemoteOrMemoryUri(p)) {
    return { storeUri: p, stateDir: join(root, ".opencode", "rag_state") };
  }
  const local = p.startsWith("file://") ? new URL(p).pathname : p;
  const abs = isAbsolute(local) ? local : resolve(root, local);
  if (p.trim() === "" || containsPath(abs, root)) {
    throw new ConfigError(
      `"vectorStore.path" ${JSON.stringify(p)} resolves to ${abs}, which ${abs === resolve(root) ? "is" : "contains"} the workspace ${resolve(root)}: the index would index itself; use a folder inside it such as ".opencode/rag_db"`,
    );
  }
  return { storeUri: abs, stateDir: abs };
}

/** The real path of `p`, or of its nearest existing parent with the rest appended. */
function realish(p: string): string {
  const abs = resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realish(parent), abs.slice(parent.length));
  }
}

/** True when `outer` is `inner` or one of its ancestors (after resolving symlinks). */
function containsPath(outer: string, inner: string): boolean {
  const rel = relative(realish(outer), realish(inner));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Threads beyond twice the cores only make the runtime thrash (and 1000 hangs it). */
export function checkThreads(config: RagConfig, source: string): void {
  const max = Math.min(MAX_EMBEDDING_THREADS, Math.max(2, availableParallelism() * 2));
  const t = config.embedding.threads;
  if (t > max) {
    throw new ConfigError(`${source}: "embedding.threads" is ${t}, more than this machine can use (at most ${max}: twice its ${availableParallelism()} cores); set it to ${Math.min(max, availableParallelism())}`);
  }
}

/** The file's settings, validated; its `$schema` is for editors and stays out of the config. */
function parseAndCheck(file: string): Record<string, unknown> {
  const raw = readJsonFile(file);
  const problems = validateConfig(raw, file);
  if (problems.length > 0) throw new ConfigError(problems.join("\n"));
  const { [SCHEMA_KEY]: _schema, ...settings } = raw as Record<string, unknown>;
  return settings;
}

export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const root = resolve(options.root ?? process.cwd());
  let configFile: string | null = null;
  if (options.configPath) {
    configFile = resolve(options.configPath);
    if (!existsSync(configFile)) throw new ConfigError(`config file not found: ${configFile} (check the --config path)`);
    if (statSync(configFile).isDirectory()) {
      throw new ConfigError(`--config ${configFile} is a folder, not a file; pass the config file itself, e.g. ${join(configFile, CONFIG_FILE_CANDIDATES[0])}`);
    }
  } else {
    configFile = findConfigFile(root);
  }
  let config: RagConfig = structuredClone(DEFAULT_CONFIG);
  let logPathFromFile = false;
  if (configFile) {
    const raw = parseAndCheck(configFile) as Partial<RagConfig>;
    logPathFromFile = typeof raw.logging?.logFilePath === "string";
    config = deepMerge(config, raw);
    // Custom chunker modules are relative to the file that names them.
    config.chunkers = config.chunkers.map((c) => ({
      ...c,
      module: isAbsolute(c.module) ? c.module : resolve(dirname(configFile!), c.module),
    }));
  }
  let { storeUri, stateDir } = resolveStore(config, root);
  if (!options.ignoreOverrides) {
    const overridesFile = join(stateDir, RUNTIME_OVERRIDES_FILE);
    if (existsSync(overridesFile)) {
      config = deepMerge(config, parseAndCheck(overridesFile));
      ({ storeUri, stateDir } = resolveStore(config, root));
    }
  }
  checkThreads(config, configFile ?? "config");
  // F13: the config file wins; LOG_FILE_PATH beats only the built-in default.
  if (!logPathFromFile && process.env.LOG_FILE_PATH) config.logging.logFilePath = process.env.LOG_FILE_PATH;
  return { config, root, configFile, stateDir, storeUri };
}
