// `opencode-rag --version` prints the version package.json names, from the built executable,
// wherever it is run from; the main help names it too.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const cli = join(repoRoot, "dist", "cli.js");
const version: string = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).version;
let work: string;

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: work, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(() => {
  ensureBuilt();
  // Not the package's folder: the version must come from the package, not the current directory.
  work = mkdtempSync(join(tmpdir(), "rag-cli-version-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("opencode-rag --version", () => {
  it("prints package.json's version, also as -v and after a global option", async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const args of [["--version"], ["-v"], ["--debug", "--version"]]) {
      const r = await run(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
      expect(r.stderr).toBe("");
    }
  });

  it("is not taken from npm's environment of another package", async () => {
    // `npm run` in some other project sets npm_package_version to that project's version.
    const r = await run(["--version"], { npm_package_version: "99.0.0-other" });
    expect(r.stdout).toBe(`${version}\n`);
  });

  it("is named by the main help", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(`opencode-rag ${version}: local semantic code search`);
    expect(r.stdout).toContain("opencode-rag --version");
  });
});
