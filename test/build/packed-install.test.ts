// The published package, installed the way a user does: `npm pack`, then `npm install <tgz>`
// into an empty project with a clean environment (no ONNXRUNTIME_* or npm_config_* settings,
// and NuGet unreachable: only the npm registry answers), then --version, --help, init (with the
// config schema it names), index and query; none of them may print a warning (npm's included),
// and no inference runtime is downloaded.
// Slow and networked, so it runs only with OPENCODE_RAG_PACK_TEST=1 (.ci/run sets it).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
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

/** Files under `dir` whose name matches: where a download would have landed, wherever npm nested it. */
function findFiles(dir: string, name: RegExp): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((rel) => name.test(basename(rel)));
}

/** Runs a command; returns stdout and stderr apart (warnings go to stderr). */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): { stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 150_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status ?? r.signal}):\n${r.stderr}\n${r.stdout}\n${r.error?.message ?? ""}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

/** Lines a user would read as something going wrong: npm's warnings, Node's, ours. */
function warnings(output: string): string[] {
  return output.split("\n").filter((l) => /\bwarn(ing)?\b/i.test(l));
}

function sh(cmd: string, args: string[], cwd: string): string {
  const { stdout, stderr } = run(cmd, args, cwd);
  expect(warnings(stderr + stdout), `${cmd} ${args.join(" ")}`).toEqual([]);
  return stdout;
}

describe.skipIf(!enabled)("the packed package in a fresh project", () => {
  it("installs with no runtime download and no warning, then init, index and query work and print none", () => {
    const packDir = join(work, "pack");
    mkdirSync(packDir);
    // `npm test` has just built the bundles and `npm ci` the declarations: packing them as they
    // are saves a second build; without them, pack builds (prepare).
    const built = existsSync(join(repoRoot, "dist", "cli.js")) && existsSync(join(repoRoot, "dist", "types", "core", "index.d.ts"));
    run("npm", ["pack", ...(built ? ["--ignore-scripts"] : []), "--pack-destination", packDir, "--loglevel", "error"], repoRoot, { ...process.env });
    const tgz = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
    expect(tgz).toBeDefined();

    const project = join(work, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    // npm lists `prepare` as an install script of a package installed from a tarball (not of one
    // from the registry, where it never runs): the project says so, as npm asks, and nothing else
    const allowScripts = { [`file:${join(packDir, tgz!)}`]: false };
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, allowScripts }));
    writeFileSync(join(project, "src", "shipping.ts"), "export function shippingCost(weightKg: number, distanceKm: number): number {\n  return 4 + weightKg * 0.5 + distanceKm * 0.01;\n}\n");
    writeFileSync(join(project, "src", "greeting.ts"), "export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n");

    const install = sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(packDir, tgz!)], project);
    expect(install).not.toMatch(/EBADENGINE/);
    const installed = join(project, "node_modules", "opencode-rag");
    expect(existsSync(join(installed, "dist", "types", "core", "index.d.ts"))).toBe(true);
    // the default install carries no inference runtime: the bundled model needs none
    expect(existsSync(join(installed, "scripts", "preinstall.cjs"))).toBe(false);
    expect(findFiles(join(project, "node_modules"), /^libonnxruntime_providers_cuda\.so$/)).toEqual([]);

    const { version } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
    expect(sh("npx", ["--no-install", "opencode-rag", "--version"], project)).toBe(`${version}\n`);
    expect(sh("npx", ["--no-install", "opencode-rag", "--help"], project)).toMatch(new RegExp(`^opencode-rag ${version.replace(/\./g, "\\.")}: `));
    sh("npx", ["--no-install", "opencode-rag", "init"], project);
    expect(existsSync(join(project, ".opencode", "plugins", "rag-plugin.js"))).toBe(true);
    // The config schema ships, is reachable through the package's exports, and init names it.
    const schema = join(installed, "dist", "config.schema.json");
    expect(JSON.parse(readFileSync(schema, "utf8")).properties.retrieval.properties.topK.type).toBe("number");
    expect(sh("node", ["-p", 'require.resolve("opencode-rag/config.schema.json")'], project).trim()).toBe(schema);
    const ref = JSON.parse(readFileSync(join(project, ".opencode", "rag.json"), "utf8")).$schema;
    expect(ref).toBe("../node_modules/opencode-rag/dist/config.schema.json");
    expect(resolve(project, ".opencode", ref)).toBe(schema);
    expect(sh("npx", ["--no-install", "opencode-rag", "index"], project)).toMatch(/^indexed \d+ files/);
    const out = sh("npx", ["--no-install", "opencode-rag", "query", "shipping cost of a parcel by weight and distance", "--top-k", "1", "--json"], project);
    expect(JSON.parse(out)[0].filePath).toBe("src/shipping.ts");

    // Another local model runs on the transformers.js that LanceDB's optional dependency puts
    // in the tree, inside our optional peer range: one copy, nothing more to add. Here its
    // onnxruntime-node's CUDA download fails (NuGet and GitHub unreachable), so npm drops that
    // optional branch; the project then skips the download as the README says, and npm puts it back.
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    writeFileSync(join(project, "package.json"), JSON.stringify({ ...manifest, allowScripts: { ...allowScripts, "onnxruntime-node": false, sharp: false, protobufjs: false } }));
    sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], project);
    const transformers = (readdirSync(join(project, "node_modules"), { recursive: true }) as string[]).filter((rel) => rel.endsWith(join("@huggingface", "transformers", "package.json")));
    expect(transformers).toEqual([join("@huggingface", "transformers", "package.json")]);
    const transformersVersion = JSON.parse(readFileSync(join(project, "node_modules", transformers[0]), "utf8")).version as string;
    expect(transformersVersion).toMatch(/^3\./);
    // The model: a Hugging Face id found in embedding.cacheDir (the bundled model's files), so
    // the load goes through transformers.js and onnxruntime-node, offline.
    cpSync(join(installed, "models", "opencode-rag-code-v2"), join(project, "models-cache", "acme", "code-embedder"), { recursive: true });
    const configFile = join(project, ".opencode", "rag.json");
    const config = JSON.parse(readFileSync(configFile, "utf8"));
    writeFileSync(configFile, JSON.stringify({ ...config, embedding: { model: "acme/code-embedder", cacheDir: "models-cache" } }, null, 2));
    expect(sh("npx", ["--no-install", "opencode-rag", "index"], project), `transformers.js ${transformersVersion}`).toMatch(/^indexed \d+ files/);
    const status = JSON.parse(sh("npx", ["--no-install", "opencode-rag", "status", "--json"], project));
    expect(status).toMatchObject({ model: "acme/code-embedder", keywordOnlyReason: null, pendingFiles: 0 });
    const viaTransformers = sh("npx", ["--no-install", "opencode-rag", "query", "greet someone by name", "--top-k", "1", "--json"], project);
    expect(JSON.parse(viaTransformers)[0].filePath).toBe("src/greeting.ts");
  }, 240_000);
});
