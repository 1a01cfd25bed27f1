// The opencode-rag CLI end to end, through the built dist/cli.js, on a copy of the fixture
// repository: index -> query -> status -> clear, plus the error paths a user meets.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const cli = join(repoRoot, "dist", "cli.js");
let work: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd = work): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd, env: { ...process.env, LANCEDB_LOG: "error" } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function queryJson(...args: string[]): Promise<Array<Record<string, unknown>>> {
  const r = await run(["query", ...args, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "rag-cli-"));
  cpSync(join(repoRoot, "test", "fixtures", "repo"), work, { recursive: true });
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("opencode-rag CLI", () => {
  it("says how to build an index when queried before one exists", async () => {
    const r = await run(["query", "anything"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no index yet.*run `opencode-rag index` first/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("indexes the workspace with a one-line summary when not on a terminal", async () => {
    const r = await run(["index"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toMatch(/^indexed 10 files, 0 unchanged, 0 deleted/);
    expect(r.stderr).not.toContain("\x1b[");
  });

  it("answers --json queries with the documented fields, relative forward-slash paths", async () => {
    const results = await queryJson("ShippingCost parcel weight", "--top-k", "3");
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(3);
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual(["endLine", "filePath", "kind", "language", "preview", "score", "startLine", "symbol"]);
      expect(r.filePath).not.toMatch(/^\/|\\/);
      expect(r.score as number).toBeGreaterThanOrEqual(0);
      expect(r.score as number).toBeLessThanOrEqual(1);
    }
    const shipping = results.find((r) => r.filePath === "scripts/shipping.go");
    expect(shipping).toMatchObject({ language: "go" });
    expect(shipping!.preview).toContain("ShippingCost");
  });

  it("never returns excluded files (.gitignore, nested .gitignore, .opencode-ragignore, default dirs)", async () => {
    const markers = ["legacyCheckoutFlow", "quokkaGeneratedClient", "zebraPassphraseNotes", "leftpadVendored", "temporary"];
    const batch = join(work, "markers.txt");
    writeFileSync(batch, markers.join("\n"));
    const r = await run(["query", "--batch", batch, "--json"]);
    rmSync(batch);
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Array<{ preview: string }>);
    expect(answers).toHaveLength(markers.length);
    markers.forEach((marker, i) => expect(answers[i].filter((x) => x.preview.includes(marker)), marker).toEqual([]));
  });

  it("filters by path prefix and language", async () => {
    const results = await queryJson("price cents items", "--path", "src/utils", "--language", "typescript");
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      expect(r.filePath).toMatch(/^src\/utils\//);
      expect(r.language).toBe("typescript");
    }
  });

  it("answers a batch of queries, one JSON array per line", async () => {
    const batch = join(work, "queries.txt");
    writeFileSync(batch, "formatPrice\n\nWarehouse restock\n");
    const r = await run(["query", "--batch", batch, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0].some((x: { filePath: string }) => x.filePath === "src/utils/money.ts")).toBe(true);
    expect(lines[1].some((x: { filePath: string }) => x.filePath === "scripts/inventory.py")).toBe(true);
    rmSync(batch);
  });

  it("prints compact human results: path:lines, score, symbol and a few lines", async () => {
    const r = await run(["query", "Warehouse reserve stock", "--top-k", "2"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^scripts\/inventory\.py:\d+-\d+ {2}\d\.\d\d/m);
  });

  it("reports status as text and JSON", async () => {
    const text = await run(["status"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/manifest\s+ok/);
    const j = await run(["status", "--json"]);
    const s = JSON.parse(j.stdout);
    expect(s).toMatchObject({ manifestStatus: "ok", files: 10, pendingFiles: 0, upToDateFiles: 10 });
    expect(s.chunks).toBeGreaterThan(10);
  });

  it("re-indexes nothing when nothing changed", async () => {
    const r = await run(["index"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^indexed 0 files, 10 unchanged/);
  });

  it("rejects bad usage and bad config with one line and a non-zero exit code", async () => {
    const unknown = await run(["index", "--bogus"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--bogus.*opencode-rag index --help/);

    const topK = await run(["query", "x", "--top-k", "zero"]);
    expect(topK.code).toBe(2);
    expect(topK.stderr).toMatch(/--top-k must be a whole number/);

    const missing = await run(["status", "--config", "nope.json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/config file not found/);

    const bad = join(work, "bad-config.json");
    writeFileSync(bad, JSON.stringify({ retrieval: { topK: "ten" } }));
    const r = await run(["status", "--config", bad]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/"retrieval\.topK" must be a number/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    rmSync(bad);

    const folder = await run(["status", "--config", work]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/--config .* is a folder, not a file/);
    expect(folder.stderr).not.toMatch(/EISDIR/);

    const cmd = await run(["frobnicate"]);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it("names skipped files with their reasons in status --json and index --debug", async () => {
    writeFileSync(join(work, "blob.qqq"), new Uint8Array([0, 1, 2, 0, 255, 0, 0, 7, 0, 0]));
    const dokkaPage = '<html><body><h1>Table</h1><p>Base class for any table.</p><div class="footer--content"><span>Generated by </span>\n<a href="https://github.com/Kotlin/dokka">\n  Dokka\n</a></div></body></html>\n';
    writeFileSync(join(work, "table-api.html"), dokkaPage);
    const r = await run(["index", "--debug"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^skipped: blob\.qqq: binary/m);
    expect(r.stderr).toMatch(/^skipped: table-api\.html: generated documentation \(Dokka\)/m);
    const s = JSON.parse((await run(["status", "--json"])).stdout);
    expect(s.skipped.files).toContainEqual({ path: "blob.qqq", reason: "binary" });
    expect(s.skipped.files).toContainEqual({ path: "table-api.html", reason: "generated documentation (Dokka)" });
    expect(s.skipped.omitted).toBe(0);
    rmSync(join(work, "blob.qqq"));
    rmSync(join(work, "table-api.html"));
    expect((await run(["index"])).code).toBe(0);
  });

  it("indexes a file whose chunker fails as line windows and prints a warning naming it", async () => {
    const ws = mkdtempSync(join(tmpdir(), "rag-cli-fallback-"));
    try {
      writeFileSync(join(ws, "boom-chunker.mjs"), 'export default { language: "boom", chunk() { throw new Error("boom parser gave up"); } };\n');
      writeFileSync(join(ws, "opencode-rag.json"), JSON.stringify({ embedding: { provider: "local", model: "./no-such-model" }, chunkers: [{ module: "./boom-chunker.mjs", extensions: [".boom"] }] }));
      writeFileSync(join(ws, "plan.boom"), "first step: fold the origami crane\n");
      const r = await run(["index"], ws);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('warning: plan.boom: chunker "boom" failed (boom parser gave up); indexed as line windows');
      const hits = JSON.parse((await run(["query", "origami crane", "--json"], ws)).stdout) as Array<{ filePath: string }>;
      expect(hits[0].filePath).toBe("plan.boom");
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it("shows help per command", async () => {
    const r = await run(["query", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--batch FILE/);
    expect(r.stdout).toMatch(/--config PATH/);
  });

  it("clears the index", async () => {
    const r = await run(["clear"]);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse((await run(["status", "--json"])).stdout);
    // Nothing indexed any more: every file is pending again.
    expect(s).toMatchObject({ manifestStatus: "missing", chunks: 0, pendingFiles: 10, upToDateFiles: 0 });
  });
});
