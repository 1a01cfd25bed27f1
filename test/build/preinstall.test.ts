// scripts/preinstall.cjs, which npm runs before any dependency's postinstall when a project
// installs the package: onnxruntime-node copies beside it stop asking for the CUDA download,
// unless an install mode is asked for; other trees are left alone; running twice changes nothing.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../indexing/dist-build.js";

const work = mkdtempSync(join(tmpdir(), "rag-preinstall-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function fakeOnnxruntime(dir: string): string {
  const file = join(dir, "onnxruntime-node", "script", "install-metadata.js");
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, 'const metadata = { requirements: { "linux/x64": ["cuda12"], "win32/x64": [] } };\n\nmodule.exports = metadata;\n');
  return file;
}

function requirementsOf(file: string, env: Record<string, string> = {}): unknown {
  const code = `console.log(JSON.stringify(require(${JSON.stringify(file)}).requirements))`;
  return JSON.parse(execFileSync(process.execPath, ["-e", code], { env: { PATH: process.env.PATH, ...env }, encoding: "utf8" }));
}

describe("preinstall", () => {
  it("drops the CUDA requirement of the project's onnxruntime-node copies unless asked for", () => {
    const project = join(work, "project");
    const pkg = join(project, "node_modules", "opencode-rag");
    mkdirSync(join(pkg, "scripts"), { recursive: true });
    cpSync(join(repoRoot, "scripts", "preinstall.cjs"), join(pkg, "scripts", "preinstall.cjs"));
    const hoisted = fakeOnnxruntime(join(project, "node_modules"));
    const nested = fakeOnnxruntime(join(pkg, "node_modules"));
    const outside = fakeOnnxruntime(join(work, "node_modules"));
    const run = () =>
      execFileSync(process.execPath, [join(pkg, "scripts", "preinstall.cjs")], { cwd: project, env: { PATH: process.env.PATH, npm_config_local_prefix: project } });
    run();
    run();
    expect(requirementsOf(hoisted)).toEqual({ "linux/x64": [], "win32/x64": [] });
    expect(requirementsOf(nested)).toEqual({ "linux/x64": [], "win32/x64": [] });
    expect(requirementsOf(hoisted, { ONNXRUNTIME_NODE_INSTALL: "cuda12" })).toEqual({ "linux/x64": ["cuda12"], "win32/x64": [] });
    expect(requirementsOf(hoisted, { npm_config_onnxruntime_node_install_cuda: "skip" })).toEqual({ "linux/x64": ["cuda12"], "win32/x64": [] });
    expect(readFileSync(hoisted, "utf8").match(/opencode-rag: CPU only/g)).toHaveLength(1);
    expect(requirementsOf(outside)).toEqual({ "linux/x64": ["cuda12"], "win32/x64": [] });
  });

  it("leaves the package's own development install alone (its .npmrc applies there)", () => {
    const repo = join(work, "repo");
    mkdirSync(join(repo, "scripts"), { recursive: true });
    cpSync(join(repoRoot, "scripts", "preinstall.cjs"), join(repo, "scripts", "preinstall.cjs"));
    const own = fakeOnnxruntime(join(repo, "node_modules"));
    execFileSync(process.execPath, [join(repo, "scripts", "preinstall.cjs")], { cwd: repo, env: { PATH: process.env.PATH, npm_config_local_prefix: repo } });
    expect(readFileSync(own, "utf8")).not.toContain("opencode-rag");
  });
});
