// Decides whether a workspace path is excluded, with git's semantics for .gitignore files at
// any depth, plus .opencode-ragignore files, `indexing.exclude` patterns, and the default
// excluded directory names and extensions. Shared by the walker and the watcher, so both
// agree on what the index covers.
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import type { RagConfig } from "../config/defaults.js";
import { secretFileRules, type SecretFileRules, type SecretFileSettings } from "./secret-files.js";

export const RAGIGNORE_FILE = ".opencode-ragignore";
export const GITIGNORE_FILE = ".gitignore";

/** Files whose change alters what is excluded: a watcher must re-scan everything when one changes. */
export function isIgnoreFile(relPath: string): boolean {
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  return name === GITIGNORE_FILE || name === RAGIGNORE_FILE;
}

export type IndexingRules = Pick<
  RagConfig["indexing"],
  "exclude" | "excludeDirs" | "excludeExtensions" | "respectGitignore"
> &
  SecretFileSettings;

/** Ignore files larger than this are not ignore files. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** An ignore file's text; a FIFO, device or huge file named .gitignore is not read (it would hang or grow). */
function readPatterns(file: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_IGNORE_FILE_BYTES) return null;
    return readFileSync(fd, "utf8");
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export class IgnoreRules {
  private readonly excludeDirs: Set<string>;
  private readonly excludeExtensions: string[];
  /** Patterns that apply from the workspace root: indexing.exclude and .git/info/exclude. */
  private readonly rootRules: Ignore;
  /** Most workspaces have none: then the check is skipped (it is the walker's hot path). */
  private readonly hasRootRules: boolean;
  /** Per directory (workspace-relative, "" for the root): its own ignore files, or null. */
  private readonly dirRules = new Map<string, Ignore | null>();
  /** Workspace-relative folders that are always excluded (the store, the state folder). */
  private readonly extraExcludedPrefixes: string[];
  private readonly secrets: SecretFileRules;

  constructor(
    private readonly root: string,
    private readonly rules: IndexingRules,
    extraExcludedPaths: string[] = [],
  ) {
    this.excludeDirs = new Set(rules.excludeDirs);
    this.excludeExtensions = rules.excludeExtensions.map((e) => e.toLowerCase());
    this.rootRules = ignore().add(rules.exclude);
    let rootPatterns = rules.exclude.length;
    if (rules.respectGitignore) {
      const infoExclude = readPatterns(join(root, ".git", "info", "exclude"));
      if (infoExclude) {
        this.rootRules.add(infoExclude);
        rootPatterns += infoExclude.split("\n").filter((l) => l.trim() && !l.startsWith("#")).length;
      }
    }
    this.hasRootRules = rootPatterns > 0;
    this.secrets = secretFileRules(rules);
    this.extraExcludedPrefixes = extraExcludedPaths.filter((p) => p && p !== "." && !p.startsWith("..")).map((p) => p.replace(/\/+$/, ""));
  }

  /**
   * The walker has just listed `dir`: it says which ignore files are there, so folders without
   * any cost no failed reads (most folders have none; a failed read is an exception).
   */
  noteListing(dir: string, names: Iterable<string>): void {
    if (this.dirRules.has(dir)) return;
    const present: string[] = [];
    for (const n of names) if (n === GITIGNORE_FILE || n === RAGIGNORE_FILE) present.push(n);
    this.dirRules.set(dir, this.readRules(dir, present));
  }

  /** The ignore files of one directory, read once and cached. */
  private rulesFor(dir: string): Ignore | null {
    const cached = this.dirRules.get(dir);
    if (cached !== undefined) return cached;
    const ig = this.readRules(dir, [GITIGNORE_FILE, RAGIGNORE_FILE]);
    this.dirRules.set(dir, ig);
    return ig;
  }

  private readRules(dir: string, names: string[]): Ignore | null {
    const abs = dir ? join(this.root, dir) : this.root;
    let ig: Ignore | null = null;
    for (const name of names) {
      if (name === GITIGNORE_FILE && !this.rules.respectGitignore) continue;
      const text = readPatterns(join(abs, name));
      if (text !== null) (ig ??= ignore()).add(text);
    }
    return ig;
  }

  /** Whether a file is a credential file (indexing.secretFiles): skipped with the reason "secret". */
  isSecretFile(relPath: string): boolean {
    return this.secrets.isSecretPath(relPath);
  }

  /** Forgets cached ignore files (after a .gitignore changed). */
  reset(): void {
    this.dirRules.clear();
  }

  private excludedByName(relPath: string, isDir: boolean): boolean {
    const name = relPath.slice(relPath.lastIndexOf("/") + 1);
    if (isDir) return this.excludeDirs.has(name);
    const lower = name.toLowerCase();
    return this.excludeExtensions.some((ext) => lower.endsWith(ext));
  }

  private excludedByPrefix(relPath: string): boolean {
    return this.extraExcludedPrefixes.some((p) => relPath === p || relPath.startsWith(p + "/"));
  }

  /**
   * Whether one entry is excluded, assuming its parent folders are not (the walker checks
   * each level on the way down). `relPath` is workspace-relative with forward slashes.
   */
  isEntryExcluded(relPath: string, isDir: boolean): boolean {
    if (this.excludedByName(relPath, isDir) || this.excludedByPrefix(relPath)) return true;
    const test = isDir ? relPath + "/" : relPath;
    if (this.hasRootRules && this.rootRules.ignores(test)) return true;
    // Every ancestor folder's ignore files apply, each relative to its own folder.
    let slash = -1;
    for (;;) {
      const dir = slash < 0 ? "" : relPath.slice(0, slash);
      const ig = this.rulesFor(dir);
      if (ig && ig.ignores(slash < 0 ? test : test.slice(slash + 1))) return true;
      slash = relPath.indexOf("/", slash + 1);
      if (slash < 0) break;
    }
    return false;
  }

  /** Whether a path is excluded, checking every ancestor folder too (watch events, onlyPaths). */
  isExcluded(relPath: string, isDir = false): boolean {
    const parts = relPath.split("/");
    for (let i = 1; i < parts.length; i++) {
      if (this.isEntryExcluded(parts.slice(0, i).join("/"), true)) return true;
    }
    return this.isEntryExcluded(relPath, isDir);
  }
}
