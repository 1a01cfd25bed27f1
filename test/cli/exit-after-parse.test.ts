// The CLI exits as soon as its work is done. After a big grammar (Swift) had parsed, V8's
// background optimisation of the grammar's lexer kept the process alive ~5 s past the last
// line of output; the CLI runs WebAssembly at the baseline tier, which has nothing to wait for.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const cli = join(repoRoot, "dist", "cli.js");
let work: string;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "rag-cli-exit-"));
  writeFileSync(join(work, "opencode-rag.json"), JSON.stringify({ embedding: { provider: "none" }, autoIndex: { enabled: false }, logging: { logFilePath: "" } }));
  writeFileSync(
    join(work, "shapes.swift"),
    `import Foundation
struct Point { var x: Int; var y: Int
  func dist() -> Double { return sqrt(Double(x * x + y * y)) }
}
class Shape { let name: String
  init(name: String) { self.name = name }
  func describe() -> String { return "Shape \\(name)" }
}
`,
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("CLI exit", () => {
  it("exits right after indexing a Swift file, not seconds later", async () => {
    const child = spawn(process.execPath, [cli, "index"], { cwd: work, env: { ...process.env, LANCEDB_LOG: "error" } });
    let out = "";
    let reported = 0;
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!reported && /indexed \d+ file/.test(out)) reported = performance.now();
    });
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const exited = performance.now();
    expect(code).toBe(0);
    expect(reported).toBeGreaterThan(0);
    // Measured: ~5 s of waiting before, well under 0.2 s after.
    expect(exited - reported).toBeLessThan(2000);
  }, 60_000);
});
