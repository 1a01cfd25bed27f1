// transformers.js is an optional install. Where it is missing (the built library copied into a
// package folder whose node_modules has every runtime dependency but transformers.js), the
// bundled model still embeds, and a model that needs transformers.js is one line saying how
// to install it.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRANSFORMERS_INSTALL, TRANSFORMERS_PEER_RANGE, transformersVersionSupported } from "../../core/embedding/transformers-runtime.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const TRANSFORMERS = "@huggingface/transformers";
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
/** A caret range over the version the tests install. */
const installCommand = `npm install ${TRANSFORMERS}@^${manifest.devDependencies[TRANSFORMERS]}`;

const pkg = mkdtempSync(join(tmpdir(), "rag-no-transformers-"));
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

beforeAll(() => {
  ensureBuilt();
  expect(Object.keys(manifest.dependencies)).not.toContain(TRANSFORMERS);
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "opencode-rag", type: "module" }));
  mkdirSync(join(pkg, "dist"));
  copyFileSync(join(repoRoot, "dist", "library.js"), join(pkg, "dist", "library.js"));
  symlinkSync(join(repoRoot, "models"), join(pkg, "models"));
  for (const dep of Object.keys(manifest.dependencies)) {
    mkdirSync(dirname(join(pkg, "node_modules", dep)), { recursive: true });
    symlinkSync(join(repoRoot, "node_modules", dep), join(pkg, "node_modules", dep));
  }
  // Node looks for packages in every folder above the package too: a node_modules there that
  // holds transformers.js would make these tests pass or fail for the wrong reason.
  let found: string | null = null;
  try {
    found = createRequire(join(pkg, "dist", "library.js")).resolve(TRANSFORMERS);
  } catch {
    // not found: the state these tests need
  }
  if (found) throw new Error(`${TRANSFORMERS} is found from ${pkg} at ${found}: remove the node_modules folder above ${tmpdir()} that holds it`);
});

function runInPackage(model: string): { reason: string | null; dim: number | null } {
  const script = `
    import { createEmbeddingProvider, DEFAULT_CONFIG } from "./dist/library.js";
    const config = { ...DEFAULT_CONFIG, embedding: { ...DEFAULT_CONFIG.embedding, model: ${JSON.stringify(model)}, cacheDir: ".cache" } };
    const { provider, reason } = await createEmbeddingProvider(config, { root: process.cwd() });
    const dim = provider ? (await provider.embed(["parse the config file"], "query"))[0].length : null;
    console.log(JSON.stringify({ reason, dim }));
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: pkg, encoding: "utf8", timeout: 60_000 });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

describe("without transformers.js installed", () => {
  it("embeds with the bundled model", () => {
    expect(runInPackage("")).toEqual({ reason: null, dim: 256 });
  });

  it("explains in one line how to install it for a model that needs it", () => {
    const { reason, dim } = runInPackage("some-org/some-model");
    expect(dim).toBeNull();
    expect(reason).toMatch(/^embedding model "some-org\/some-model" could not be loaded: it runs on transformers\.js, which is not installed: run `([^`]+)` where opencode-rag is installed/);
    expect(reason).toContain(`run \`${installCommand}\` where`);
    expect(reason!.split("\n")).toHaveLength(1);
  });

  it("names the version the tests run, as the README does", () => {
    expect(TRANSFORMERS_INSTALL).toBe(installCommand);
    expect(readFileSync(join(repoRoot, "README.md"), "utf8").replace(/\s+/g, " ")).toContain(`\`${installCommand}\``);
  });

  it("declares the versions it runs on as an optional peer, the range the runtime checks", () => {
    expect(manifest.peerDependencies[TRANSFORMERS]).toBe(TRANSFORMERS_PEER_RANGE);
    expect(manifest.peerDependenciesMeta[TRANSFORMERS]).toEqual({ optional: true });
    expect(readFileSync(join(repoRoot, "README.md"), "utf8")).toContain(`\`${TRANSFORMERS_PEER_RANGE}\``);
    // the version the tests run and the one LanceDB's optional dependency brings
    const lancedb = JSON.parse(readFileSync(join(repoRoot, "node_modules", "@lancedb", "lancedb", "package.json"), "utf8"));
    for (const version of [manifest.devDependencies[TRANSFORMERS], lancedb.optionalDependencies[TRANSFORMERS]]) {
      expect(transformersVersionSupported(version), version).toBe(true);
    }
    for (const version of ["2.17.2", "3.0.1", "5.0.0"]) expect(transformersVersionSupported(version), version).toBe(false);
  });
});
