// Options every command takes are accepted before the command too, and help lists them once.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const cli = join(repoRoot, "dist", "cli.js");
let work: string;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: work, env: { ...process.env, LANCEDB_LOG: "error" } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "rag-cli-global-"));
  writeFileSync(join(work, "a.ts"), "export function shippingCost(weight: number) {\n  return weight * 2;\n}\n");
  // A store path only this config names: a run that ignored --config would not find the index.
  writeFileSync(join(work, "custom.json"), JSON.stringify({ vectorStore: { path: ".custom/rag_db" }, logging: { logFilePath: "" } }));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("global options", () => {
  it("are accepted before the command", async () => {
    const indexed = await run(["--config", "custom.json", "index"]);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout).toMatch(/^indexed 2 files/);
    const q = await run(["--config=custom.json", "--debug", "query", "shipping cost", "--json"]);
    expect(q.code, q.stderr).toBe(0);
    expect(JSON.parse(q.stdout)[0].filePath).toBe("a.ts");
    // Without the config the default store is empty.
    const plain = await run(["query", "shipping cost"]);
    expect(plain.code).toBe(1);
  }, 60_000);

  it("are listed once in a command's help", async () => {
    for (const command of ["init", "index", "query", "status"]) {
      const r = await run([command, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout.match(/--config PATH/g), command).toHaveLength(1);
    }
  });
});
