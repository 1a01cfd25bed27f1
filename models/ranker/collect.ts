// Step 1 of the ranker pipeline: the candidates of every semble-dev query, collected once.
// Opens each laid-out repository with the default config (the stores `npm run eval:semble-dev`
// built are reused), and for every query keeps what the ranking stage is given in production:
// each source's candidate pool as the engine draws it (`SearchOptions.pool`) with their scores,
// plus every hit's chunk record (once per repo) and the engine's own default top 10, so
// train.ts can check that its replay of the current ranking matches the engine.
// Run: node models/ranker/run.mjs collect [--out DIR] (after npm run eval:semble-dev).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSembleEngine } from "../../test/eval/semble-engine.js";
import type { ChunkRecord } from "../../core/types.js";
import { loadTasks, type RepoSpec } from "../../test/eval/semble-score.js";
import { assertTrainable, loadPolicy } from "./provenance.js";
import type { CollectedRepo } from "./data.js";

export async function collect(kit: string, evalOut: string, target: string): Promise<void> {
  const policy = loadPolicy(join(kit, ".."));
  const specs: RepoSpec[] = JSON.parse(readFileSync(join(kit, "repos.json"), "utf8"));
  mkdirSync(target, { recursive: true });
  for (const spec of specs) {
    // Only the 21 dev repositories may be read, and the held-out list must not name them otherwise.
    assertTrainable(spec.name, policy);
    const file = join(target, `${spec.name}.json`);
    if (existsSync(file)) continue;
    const checkout = join(evalOut, "repos", spec.name);
    if (!existsSync(checkout)) throw new Error(`ranker collect: ${checkout} is missing; run npm run eval:semble-dev first (it lays out and indexes the repos)`);
    const { engine, prefix } = await openSembleEngine(evalOut, spec);
    const records = new Map<string, ChunkRecord>();
    const out: CollectedRepo = { repo: spec.name, language: spec.language, prefix, records: {}, queries: [] };
    try {
      await engine.index();
      for (const task of loadTasks(kit, [spec])) {
        const hits = async (mode: "keyword" | "vector") => {
          // The pool as the engine draws it, unranked (with the declarations that joined it).
          const rs = await engine.search(task.query, { mode, pool: true });
          for (const r of rs) records.set(r.chunk.id, r.chunk);
          return rs.map((r) => [r.chunk.id, r.score] as [string, number]);
        };
        const keyword = await hits("keyword");
        const vector = await hits("vector");
        const engineTop = (await engine.search(task.query, { topK: 10 })).map((r) => r.chunk.id);
        out.queries.push({ query: task.query, category: task.category, targets: task.targets, relevantCount: task.relevantCount, keyword, vector, engineTop });
      }
    } finally {
      await engine.close();
    }
    for (const [id, r] of records) out.records[id] = r;
    writeFileSync(file, JSON.stringify(out));
    process.stderr.write(`collected ${spec.name}: ${out.queries.length} queries, ${records.size} chunks\n`);
  }
}
