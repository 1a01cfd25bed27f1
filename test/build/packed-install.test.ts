// The published package, installed the way a user does: `npm pack`, then `npm install <tgz>`
// into an empty project with a clean environment (no ONNXRUNTIME_* or npm_config_* settings,
// and NuGet unreachable: only the npm registry answers), then init, index and query.
// Slow and networked, so it runs only with OPENCODE_RAG_PACK_TEST=1 (.ci/run sets it).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../indexing/dist-build.js";

const enabled = process.env.OPENCODE_RAG_PACK_TEST === "1";
const work = mkdtempSync(join(tmpdir(), "rag-packed-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What a user's shell has: no project or npm settings of ours leak into the install. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|ONNXRUNTIME_|GLOBAL_AGENT_|OPENCODE_RAG_|INIT_CWD$|VITEST|NODE_OPTIONS$)/i.test(k)) continue;
    env[k] = v;
  }
  // onnxruntime-node's installer fetches through global-agent: a dead proxy makes NuGet
  // unreachable while npm itself still reaches the registry.
  env.GLOBAL_AGENT_HTTPS_PROXY = "http://127.0.0.1:9";
  env.GLOBAL_AGENT_HTTP_PROXY = "http://127.0.0.1:9";
  env.LANCEDB_LOG = "error";
  return env;
}

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): string {
  try {
    return execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: "pipe", timeout: 150_000 });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${err.stderr || ""}\n${err.stdout || ""}\n${err.message}`);
  }
}

describe.skipIf(!enabled)("the packed package in a fresh project", () => {
  it("installs offline-from-NuGet, then init, index and query work", () => {
    const packDir = join(work, "pack");
    mkdirSync(packDir);
    // `npm test` has just built the bundles and `npm ci` the declarations: packing them as they
    // are saves a second build; without them, pack builds (prepare).
    const built = existsSync(join(repoRoot, "dist", "cli.js")) && existsSync(join(repoRoot, "dist", "types", "core", "index.d.ts"));
    sh("npm", ["pack", ...(built ? ["--ignore-scripts"] : []), "--pack-destination", packDir, "--loglevel", "error"], repoRoot, { ...process.env });
    const tgz = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
    expect(tgz).toBeDefined();

    const project = join(work, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true }));
    writeFileSync(join(project, "src", "shipping.ts"), "export function shippingCost(weightKg: number, distanceKm: number): number {\n  return 4 + weightKg * 0.5 + distanceKm * 0.01;\n}\n");
    writeFileSync(join(project, "src", "greeting.ts"), "export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n");

    const install = sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(packDir, tgz!)], project);
    expect(install).not.toMatch(/EBADENGINE/);
    const installed = join(project, "node_modules", "opencode-rag");
    expect(existsSync(join(installed, "dist", "types", "core", "index.d.ts"))).toBe(true);
    expect(existsSync(join(project, "node_modules", "onnxruntime-node", "bin", "napi-v6", "linux", "x64", "libonnxruntime_providers_cuda.so"))).toBe(false);

    sh("npx", ["--no-install", "opencode-rag", "init"], project);
    expect(existsSync(join(project, ".opencode", "plugins", "rag-plugin.js"))).toBe(true);
    expect(sh("npx", ["--no-install", "opencode-rag", "index"], project)).toMatch(/^indexed \d+ files/);
    const out = sh("npx", ["--no-install", "opencode-rag", "query", "shipping cost of a parcel by weight and distance", "--top-k", "1", "--json"], project);
    expect(JSON.parse(out)[0].filePath).toBe("src/shipping.ts");
  }, 170_000);
});
