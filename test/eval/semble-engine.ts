// One semble-dev repository's engine as the evaluation lays it out: the checkout's benchmark
// root indexed into `<out>/stores/<name>`, logs in `<out>/logs`, no watcher. Shared by the
// evaluation (semble-dev.ts) and the ranker's candidate collection (models/ranker/collect.ts).
import { join } from "node:path";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { silentLogger } from "../../core/logging/index.js";
import type { RepoSpec } from "./semble-score.js";

export interface SembleEngine {
  engine: Engine;
  /** Prepended to the engine's workspace-relative paths to get the checkout-relative paths the annotations use. */
  prefix: string;
}

export async function openSembleEngine(out: string, spec: RepoSpec, options: { storeSuffix?: string; config?: Record<string, unknown> } = {}): Promise<SembleEngine> {
  const checkout = join(out, "repos", spec.name);
  const root = spec.benchmark_root ? join(checkout, spec.benchmark_root) : checkout;
  const prefix = spec.benchmark_root ? `${spec.benchmark_root.replace(/\/+$/, "")}/` : "";
  const engine = await openEngine({
    root,
    logger: silentLogger,
    overrides: {
      ...options.config,
      vectorStore: { path: join(out, "stores", spec.name + (options.storeSuffix ?? "")) },
      logging: { logFilePath: join(out, "logs", `${spec.name}.log`) },
      autoIndex: { enabled: false },
    },
  });
  return { engine, prefix };
}
