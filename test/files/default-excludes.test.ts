// The default exclusions skip build output and dependencies, never source: `bin/` and `lib/`
// hold the executables and modules of most JavaScript, Ruby and shell projects.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { IgnoreRules } from "../../core/files/ignore-rules.js";
import { walkWorkspace } from "../../core/files/walk.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("default excluded folders", () => {
  it("index bin/ and lib/ scripts, skip build output and dependencies", async () => {
    const root = mkdtempSync(join(tmpdir(), "rag-defaults-"));
    dirs.push(root);
    const files = ["bin/eslint.js", "bin/setup", "lib/linter.js", "exe/rake", "src/App/obj/Debug/App.AssemblyInfo.cs", "dist/index.js", "build/out.js", "node_modules/x/index.js", "target/debug/main.rs"];
    for (const f of files) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), "x\n");
    }
    const cfg = DEFAULT_CONFIG.indexing;
    const walked = await walkWorkspace(root, { rules: new IgnoreRules(root, cfg), maxFileSizeBytes: cfg.maxFileSizeBytes });
    expect(walked.files.map((f) => f.path).sort()).toEqual(["bin/eslint.js", "bin/setup", "exe/rake", "lib/linter.js"]);
  });
});
