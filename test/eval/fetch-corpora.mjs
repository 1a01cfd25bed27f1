#!/usr/bin/env node
// Fetches the dev-benchmark code bases listed in corpora.json at their pinned versions into
// test/.cache/eval/<name>/repo (gitignored), records licence and provenance beside each, and
// builds the docstring-stripped copy (test/.cache/eval/<name>/docstring) that the docstring
// query sets are scored on.
//
// Sources are the ordinary package clients: `npm pack NAME@VERSION` and
// `apt-get download NAME=VERSION` + `dpkg -x`. Re-running is cheap: a corpus whose
// PROVENANCE.json already names the pinned version is left alone.
//
// Usage: node test/eval/fetch-corpora.mjs [--only name,name] [--force]
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDocstringSet } from "./docstring-queries.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(here, "..", "..");
export const cacheRoot = join(repoRoot, "test", ".cache", "eval");

export function loadCorpora() {
  return JSON.parse(readFileSync(join(here, "corpora.json"), "utf8")).corpora;
}

function run(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  } catch (err) {
    const detail = String(err.stderr || err.message).trim().split("\n").pop();
    throw new Error(`${cmd} ${args.join(" ")} failed: ${detail}`);
  }
}

/** Downloads and unpacks one package into a fresh temporary folder; returns that folder. */
export function unpack(corpus) {
  const work = mkdtempSync(join(tmpdir(), `ocr-eval-${corpus.name}-`));
  const out = join(work, "x");
  mkdirSync(out);
  if (corpus.source === "npm") {
    run("npm", ["pack", `${corpus.package}@${corpus.version}`, "--silent"], work);
    const tgz = readdirSync(work).find((f) => f.endsWith(".tgz"));
    if (!tgz) throw new Error(`npm pack ${corpus.package}@${corpus.version} produced no archive`);
    run("tar", ["xzf", join(work, tgz), "-C", out]);
  } else if (corpus.source === "debian") {
    // A pin from a security or point-release update is only known to apt after `apt-get update`.
    const stale = "; if apt does not know that version, run `apt-get update` (bookworm-security and bookworm-updates must be among its sources)";
    try {
      run("apt-get", ["download", `${corpus.package}=${corpus.version}`], work);
    } catch (err) {
      throw new Error(`${err.message}${stale}`);
    }
    const deb = readdirSync(work).find((f) => f.endsWith(".deb"));
    if (!deb) throw new Error(`apt-get download ${corpus.package}=${corpus.version} produced no .deb${stale}`);
    run("dpkg", ["-x", join(work, deb), out]);
  } else {
    throw new Error(`corpus ${corpus.name}: unknown source "${corpus.source}" (use npm or debian)`);
  }
  return { work, out };
}

export function corpusDir(name) {
  return join(cacheRoot, name);
}

function isCurrent(corpus) {
  const file = join(corpusDir(corpus.name), "PROVENANCE.json");
  if (!existsSync(file) || !existsSync(join(corpusDir(corpus.name), "docstring"))) return false;
  try {
    const p = JSON.parse(readFileSync(file, "utf8"));
    return p.version === corpus.version && p.package === corpus.package;
  } catch {
    return false;
  }
}

export function fetchCorpus(corpus, { force = false } = {}) {
  if (!force && isCurrent(corpus)) return false;
  const dir = corpusDir(corpus.name);
  const { work, out } = unpack(corpus);
  try {
    rmSync(dir, { recursive: true, force: true });
    const repo = join(dir, "repo");
    const target = corpus.prefix ? join(repo, corpus.prefix) : repo;
    mkdirSync(target, { recursive: true });
    // dereference: Debian trees hold compatibility symlinks; the corpus must be plain files.
    // A link into another package (Django's bundled jQuery) points nowhere here: left out.
    cpSync(join(out, corpus.root), target, { recursive: true, dereference: true, filter: (src) => existsSync(src) });
    for (const d of corpus.drop ?? []) rmSync(join(target, d), { recursive: true, force: true });
    const licence = join(out, corpus.licenceFile);
    if (existsSync(licence)) cpSync(licence, join(dir, "LICENCE.txt"));
    writeFileSync(
      join(dir, "PROVENANCE.json"),
      JSON.stringify(
        {
          name: corpus.name,
          source: corpus.source,
          package: corpus.package,
          version: corpus.version,
          licence: corpus.licence,
          upstream: corpus.upstream,
          fetchedAt: new Date().toISOString(),
        },
        null,
        2,
      ) + "\n",
    );
    const built = buildDocstringSet({ repo, out: join(dir, "docstring"), language: corpus.language, repoName: corpus.name });
    warnIfDrifted(corpus.name, built);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return true;
}

/** The committed docstring queries must be exactly what the generator makes from this tree. */
function warnIfDrifted(name, built) {
  const file = join(here, "queries", "docstring.jsonl");
  if (!existsSync(file)) return;
  const committed = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() && JSON.parse(l).repo === name);
  const fresh = built.map((q) => JSON.stringify(q));
  if (committed.join("\n") !== fresh.join("\n")) {
    console.warn(`warning: ${name}: generated docstring queries differ from test/eval/queries/docstring.jsonl`);
  }
}

function parseArgs(argv) {
  const args = { only: null, force: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--force") args.force = true;
    else if (argv[i] === "--only") args.only = new Set(String(argv[++i] ?? "").split(","));
    else throw new Error(`unknown option ${argv[i]} (use --only a,b or --force)`);
  }
  return args;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const args = parseArgs(process.argv.slice(2));
    mkdirSync(cacheRoot, { recursive: true });
    for (const c of loadCorpora()) {
      if (args.only && !args.only.has(c.name)) continue;
      const fetched = fetchCorpus(c, { force: args.force });
      console.log(`${c.name.padEnd(10)} ${c.source}:${c.package}@${c.version} ${fetched ? "fetched" : "up to date"}`);
    }
  } catch (err) {
    console.error(`fetch-corpora: ${err.message}`);
    process.exit(1);
  }
}
