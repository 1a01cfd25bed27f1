// Library users get declarations: `npm run build` emits them where package.json's "types" and
// the export conditions point, and a strict NodeNext project compiles against them.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../indexing/dist-build.js";

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
const work = mkdtempSync(join(tmpdir(), "rag-types-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("declarations of the library", () => {
  it("are declared where the build writes them", () => {
    const types = "./dist/types/core/index.d.ts";
    expect(`./${pkg.types}`.replace("././", "./")).toBe(types);
    expect(pkg.exports["."].types).toBe(types);
    expect(pkg.exports["./library"].types).toBe(types);
    expect(pkg.scripts.build).toContain("tsc -p tsconfig.types.json");
    expect(pkg.files).toContain("dist");
  });

  it("compile in a strict NodeNext consumer", () => {
    // A consumer project: the package as installed (package.json + emitted declarations), its
    // dependencies borrowed from this checkout.
    const nm = join(work, "node_modules");
    const installed = join(nm, "opencode-rag");
    mkdirSync(installed, { recursive: true });
    cpSync(join(repoRoot, "package.json"), join(installed, "package.json"));
    execFileSync(process.execPath, [tsc, "-p", join(repoRoot, "tsconfig.types.json"), "--outDir", join(installed, "dist", "types")], { cwd: repoRoot, stdio: "pipe" });
    expect(existsSync(join(installed, "dist", "types", "core", "index.d.ts"))).toBe(true);
    for (const name of readdirSync(join(repoRoot, "node_modules"))) {
      if (name !== "opencode-rag" && !name.startsWith(".")) symlinkSync(join(repoRoot, "node_modules", name), join(nm, name));
    }
    writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      join(work, "use.ts"),
      `import { openEngine, DEFAULT_CONFIG, type Engine } from "opencode-rag";
import { openEngine as again } from "opencode-rag/library";
export const engine: Promise<Engine> = openEngine({ root: "." });
export const topK: number = DEFAULT_CONFIG.retrieval.topK;
// @ts-expect-error root is a path, not a number: the declarations are real, not any
export const wrong = again({ root: 1 });
`,
    );
    const args = [tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--skipLibCheck", "--types", "node", "use.ts"];
    let output = "";
    try {
      execFileSync(process.execPath, args, { cwd: work, stdio: "pipe" });
    } catch (e) {
      output = String((e as { stdout?: Buffer }).stdout ?? e);
    }
    expect(output).toBe("");
  }, 120_000);
});
