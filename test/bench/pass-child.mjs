// One index pass in a process of its own, so its peak RSS and CPU time are its own:
// `node pass-child.mjs '<json>'` with { root, stateDir, embed, background, force }. Prints one
// JSON line: wall ms, CPU seconds, peak RSS, the pass's summary and step timings.
// scale.mjs starts it with the allocator settings the CLI gives its pass commands (PASS_MALLOC_ENV).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { peakRssMb } from "./peak-rss.mjs";

const repoRoot = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const args = JSON.parse(process.argv[2]);
process.env.LANCEDB_LOG ??= "error";
const lib = await import(join(repoRoot, "dist", "library.js"));
// the V8 settings the CLI runs its passes with (core/own-process.ts)
lib.tuneOwnProcess();
const timings = [];
const logger = { debug: (m, d) => m.startsWith("index pass timings") && timings.push(d), info() {}, error() {} };
const started = performance.now();
const cpu0 = process.cpuUsage();
const engine = await lib.openEngine({
  root: args.root,
  background: args.background === true,
  logger,
  overrides: {
    vectorStore: { path: args.stateDir },
    logging: { logFilePath: "", level: "debug" },
    autoIndex: { enabled: false },
    ...(args.embed ? {} : { embedding: { provider: "none" } }),
    ...(args.maxCpuShare ? { indexing: { maxCpuShare: args.maxCpuShare } } : {}),
  },
});
const summary = await engine.index({ force: args.force === true });
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpu0);
const status = await engine.status({ countPending: false });
await engine.close();
// The table's own size (its current version's data), beside what the folder holds on disk.
let tableBytes = null;
try {
  const lancedb = await import("@lancedb/lancedb");
  const db = await lancedb.connect(args.stateDir);
  const table = await db.openTable("chunks");
  tableBytes = (await table.stats()).totalBytes;
  table.close();
  db.close();
} catch {
  // no table (an empty workspace)
}
process.stdout.write(
  JSON.stringify({
    wallMs,
    cpuSecs: (cpu.user + cpu.system) / 1e6,
    peakRssMb: peakRssMb(),
    chunks: status.chunks,
    tableBytes,
    summary,
    timings: timings[0] ?? null,
  }) + "\n",
);
process.exit(0);
