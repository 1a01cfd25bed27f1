// Which paths an index pass, the status count and the watcher look at: the user's ignore rules
// plus the index's own files inside the workspace.
import { relative, resolve } from "node:path";
import { IgnoreRules } from "../files/ignore-rules.js";
import { toPosix } from "../files/walk.js";
import type { FileSizeLimits } from "../files/size-limits.js";
import { isSourceCodePath } from "../chunking/source-code.js";
import type { RagConfig } from "../config/defaults.js";
import type { PassEnv } from "./pass-env.js";

/** Workspace-relative paths the walker and watcher must never look at: the store, the state folder, the log. */
export function internalExcludes(root: string, stateDir: string, storeUri: string, logFile = ""): string[] {
  const out: string[] = [];
  for (const abs of [stateDir, storeUri, logFile ? resolve(root, logFile) : ""]) {
    if (!abs) continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(abs)) continue;
    const rel = toPosix(relative(root, abs));
    if (rel && !rel.startsWith("..")) out.push(rel);
  }
  return out;
}

export function ignoreRulesFor(env: Pick<PassEnv, "root" | "config" | "stateDir" | "storeUri">): IgnoreRules {
  return new IgnoreRules(
    env.root,
    env.config.indexing,
    internalExcludes(env.root, env.stateDir, env.storeUri, env.config.logging.logFilePath),
  );
}

/** The size limits the config sets, for a walk or a whole-file read (core/files/size-limits.ts). */
export function fileSizeLimits(indexing: Pick<RagConfig["indexing"], "maxFileSizeBytes" | "maxSourceFileSizeBytes">): FileSizeLimits {
  return { maxFileSizeBytes: indexing.maxFileSizeBytes, maxSourceFileSizeBytes: indexing.maxSourceFileSizeBytes, isSourcePath: isSourceCodePath };
}
