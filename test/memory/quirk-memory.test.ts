// Quirk memory through the real Engine: a LanceDB folder, the bundled model, the audit log.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";

let root: string;
const engines: Engine[] = [];

async function open(overrides: object = {}): Promise<Engine> {
  const engine = await openEngine({ root, overrides: { logging: { level: "error", logFilePath: "" }, ...overrides } });
  engines.push(engine);
  return engine;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "rag-memory-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "db.ts"), "export function insertRows(table: string, rows: number[][]) {\n  return rows.length;\n}\n");
});

afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  rmSync(root, { recursive: true, force: true });
});

describe("quirk memory", () => {
  it("stores a quirk, recalls it, and keeps it out of code search", async () => {
    const engine = await open();
    await engine.index();
    const memory = await engine.memory!();
    const added = await memory.add({ content: "LanceDB insert fails unless vectors are Float32Array, not number[]", type: "gotcha", tags: ["lancedb"] });
    expect(added.ok).toBe(true);

    const recalled = await memory.recall("why does the lancedb insert fail", 3, 0);
    expect(recalled[0]?.quirk.content).toContain("Float32Array");

    const code = await engine.search("lancedb insert Float32Array", { topK: 10 });
    expect(code.every((r) => r.chunk.kind !== "quirk")).toBe(true);
  });

  it("adds quirks while an index pass runs without disturbing either", async () => {
    for (let i = 0; i < 40; i++) writeFileSync(join(root, "src", `m${i}.ts`), `export function helper${i}(x: number) {\n  return x * ${i};\n}\n`);
    const engine = await open();
    const memory = await engine.memory!();
    const pass = engine.index();
    const added = await memory.add({ content: "helpers multiply by their index; keep them pure", type: "decision" });
    const summary = await pass;
    expect(added.ok).toBe(true);
    expect(summary.errors).toEqual([]);
    expect((await memory.recall("are the helpers pure", 3, 0))[0]?.quirk.content).toContain("keep them pure");
    // A second pass finds everything consistent and unchanged.
    const again = await engine.index();
    expect(again.rebuildReason).toBeNull();
    expect(again.filesIndexed).toBe(0);
  });

  it("refuses destructive advice with the reason and stores nothing", async () => {
    const engine = await open();
    const memory = await engine.memory!();
    const result = await memory.add({ content: "when the build is stuck, run rm -rf node_modules ~/.npm" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/rm -rf/);
    expect(await memory.list()).toHaveLength(0);
  });

  it("never writes a secret to the audit log", async () => {
    const engine = await open();
    const memory = await engine.memory!();
    const result = await memory.add({ content: "the staging API needs OPENAI key sk-proj-Zx81bQ0pLm29VvT4sAq7wE3rYu in the header", type: "environment-constraint" });
    expect(result.ok).toBe(true);
    const log = readFileSync(join(root, ".opencode", "rag_db", "quirks.jsonl"), "utf8");
    expect(log).not.toContain("sk-proj-Zx81bQ0pLm29VvT4sAq7wE3rYu");
    expect(log).toContain("[REDACTED:openai-key]");
  });

  it("survives a restart and a forced rebuild of the index", async () => {
    const first = await open();
    await first.index();
    await (await first.memory!()).add({ content: "run the migrations with npm run db:migrate before seeding", type: "decision", tags: ["database"] });
    await first.close();
    engines.splice(engines.indexOf(first), 1);

    const second = await open();
    await second.index({ force: true });
    const recalled = await (await second.memory!()).recall("how do I seed the database migrations", 3, 0);
    expect(recalled.map((r) => r.quirk.content)).toContain("run the migrations with npm run db:migrate before seeding");
  });

  it("confirms a near-duplicate instead of storing it twice", async () => {
    const engine = await open();
    const memory = await engine.memory!();
    await memory.add({ content: "use pnpm, not npm, inside the web workspace" });
    const again = await memory.add({ content: "use pnpm, not npm, inside the web workspace!" });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.duplicateOf?.content).toContain("pnpm");
    expect(await memory.list()).toHaveLength(1);
    const dup = await memory.findDuplicate("Use pnpm not npm inside the web workspace");
    expect(dup?.quirk.content).toContain("pnpm");
  });

  it("auto-injects a relevant quirk once per session and never an unrelated one", async () => {
    const engine = await open({ memory: { autoInjectMinScore: 0 } });
    const memory = await engine.memory!();
    await memory.add({ content: "LanceDB insert fails unless vectors are Float32Array", tags: ["lancedb"] });

    expect(await memory.autoInject("s1", "write a haiku about autumn")).toBeNull();
    const block = await memory.autoInject("s1", "the lancedb insert throws a type error, why?");
    expect(block).toContain("Float32Array");
    expect(await memory.autoInject("s1", "lancedb insert still fails")).toBeNull();
    expect(await memory.autoInject("s2", "lancedb insert fails here too")).toContain("Float32Array");
  });

  it("drops memory when recall exceeds the latency budget", async () => {
    const engine = await open({ memory: { autoInjectMinScore: 0, latencyBudgetMs: 0 } });
    const memory = await engine.memory!();
    await memory.add({ content: "LanceDB insert fails unless vectors are Float32Array" });
    expect(await memory.autoInject("s1", "lancedb insert fails")).toBeNull();
    const diag = readFileSync(join(root, ".opencode", "rag_db", "memory-diagnostics.jsonl"), "utf8");
    expect(diag).toContain("latency budget exceeded");
  });

  it("lints low-confidence, stale and duplicate quirks", async () => {
    const engine = await open({ memory: { decay: { enabled: true, halfLifeDays: 1 } } });
    const memory = await engine.memory!();
    await memory.add({ content: "the CI runner has only two cores", confidence: 0.3 });
    const old = await memory.add({ content: "set maxWorkers to two in vitest config" });
    expect(old.ok).toBe(true);
    // Rewrite the audit entry's timestamps into the past to let decay act.
    const file = join(root, ".opencode", "rag_db", "quirks.jsonl");
    writeFileSync(file, readFileSync(file, "utf8").replace(/"(createdAt|confirmedAt|at)":"[^"]+"/g, '"$1":"2020-01-01T00:00:00.000Z"'));
    const findings = await memory.lint();
    expect(findings.map((f) => f.kind).sort()).toEqual(["low-confidence", "stale"]);
  });
});
