// A process that serves searches over an index already built, as `mcp` or `index --watch` does
// between passes: `node serve-child.mjs '<json>'` with { root, stateDir, queries }. Opens the
// engine with the bundled model, answers every query once to warm up and then each again, and
// prints one JSON line: peak RSS, and the warm queries' p50 and slowest ms.
import { args, lib } from "./child-setup.mjs";
import { p50 } from "./stats.mjs";
import { peakRssMb } from "./peak-rss.mjs";

const engine = await lib.openEngine({
  root: args.root,
  overrides: { vectorStore: { path: args.stateDir }, logging: { logFilePath: "" }, autoIndex: { enabled: false } },
});
for (const q of args.queries) await engine.search(q, { topK: 10 });
const warm = [];
for (const q of args.queries) {
  const t = performance.now();
  await engine.search(q, { topK: 10 });
  warm.push(performance.now() - t);
}
await engine.close();
process.stdout.write(JSON.stringify({ peakRssMb: peakRssMb(), p50Ms: p50(warm), maxMs: Math.max(...warm) }) + "\n");
process.exit(0);
