// The benchmark's input: real source trees as npm ships them, pinned by version, fetched with
// `npm pack` and unpacked under test/.cache/bench/ (git-ignored) on first use.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

/** ~9,000 files, ~70 MB of JavaScript/TypeScript: three.js sources, MUI, date-fns. */
export const CORPUS = [
  { name: "three", spec: "three@0.187.0" },
  { name: "mui-material", spec: "@mui/material@9.5.0" },
  { name: "date-fns", spec: "date-fns@4.4.0" },
];

export function corpusDir(cacheDir) {
  return join(cacheDir, "corpus");
}

/** Fetches and unpacks every package that is not cached yet; returns the corpus folder. */
export function ensureCorpus(cacheDir, log = console.error) {
  const root = corpusDir(cacheDir);
  mkdirSync(root, { recursive: true });
  for (const pkg of CORPUS) {
    const target = join(root, pkg.name);
    if (existsSync(target)) continue;
    log(`fetching ${pkg.spec} with npm pack…`);
    const tmp = join(cacheDir, `tmp-${pkg.name}`);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    execFileSync("npm", ["pack", pkg.spec, "--silent", "--pack-destination", tmp], { stdio: ["ignore", "ignore", "inherit"] });
    const tgz = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
    if (!tgz) throw new Error(`npm pack ${pkg.spec} produced no tarball`);
    execFileSync("tar", ["-xzf", join(tmp, tgz), "-C", tmp]);
    renameSync(join(tmp, "package"), target);
    rmSync(tmp, { recursive: true, force: true });
  }
  return root;
}
