// One index pass in a process of its own, so its peak RSS and CPU time are its own:
// `node pass-child.mjs '<json>'` with { root, stateDir, embed, background, force }. Prints one
// JSON line: wall ms, CPU seconds, peak RSS, the pass's summary and step timings.
// scale.mjs starts it with the allocator settings the CLI gives its pass commands (PASS_MALLOC_ENV).
import { args, lib, timingsLogger } from "./child-setup.mjs";
import { peakRssMb } from "./peak-rss.mjs";

const { timings, logger } = timingsLogger();
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
