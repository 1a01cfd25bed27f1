// Lays out the checkouts of a kit that names its own sources: the project's large-code-base set
// (test/eval/large-kit/) names, per repository, a tree another fetch script already keeps in
// test/.cache (`tree`), an npm package to unpack (`npm`) or a public git repository to export
// from its bare mirror (`git`, at the spec's `revision`), and the folders of it that are indexed
// (`folders`, default: all). semble-dev's own kit has no `source` and keeps going through its
// export.sh.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RepoSpec } from "./semble-score.js";

export interface KitSource {
  /** A tree kept by another fetch script, relative to the project root. */
  tree?: string;
  /** The command that fetches `tree` (said when it is missing). */
  fetch?: string;
  /** An npm package spec, unpacked with `npm pack`. */
  npm?: string;
  /**
   * A public repository, OWNER/NAME, exported at the spec's `revision` from the bare mirror
   * `<mirrors>/OWNER+NAME/repo`. Every tracked file comes out, `export-ignore` or not: a clone
   * has its tests, and they compete in a whole checkout.
   */
  git?: string;
  /** Top-level entries of the tree or package to copy; all when absent. */
  folders?: string[];
}

export type KitRepoSpec = RepoSpec & { source?: KitSource };

/**
 * Copies each missing checkout with a `source` into `<out>/repos/<name>`; returns the specs it
 * could not lay out (no `source`: export.sh's). Throws a one-line error saying what to do when
 * a `tree`, the git mirrors, a mirror or its pinned revision are not there yet.
 */
export function layOutKitRepos(specs: KitRepoSpec[], out: string, projectRoot: string, mirrors?: string): KitRepoSpec[] {
  const rest: KitRepoSpec[] = [];
  for (const spec of specs) {
    const target = join(out, "repos", spec.name);
    if (existsSync(target)) continue;
    if (!spec.source) {
      rest.push(spec);
      continue;
    }
    mkdirSync(target, { recursive: true });
    try {
      if (spec.source.tree) {
        const from = resolve(projectRoot, spec.source.tree);
        if (!existsSync(from)) throw new Error(`${spec.name}: ${spec.source.tree} is missing; fetch it first: ${spec.source.fetch ?? "(no fetch command given)"}`);
        copyEntries(from, target, spec.source.folders);
      } else if (spec.source.npm) {
        withNpmPackage(spec.source.npm, out, (dir) => copyEntries(dir, target, spec.source!.folders));
      } else if (spec.source.git) {
        exportFromMirror(spec.name, spec.source.git, spec.revision, mirrors, target, spec.source.folders);
      } else {
        throw new Error(`${spec.name}: source names no tree, npm package or git repository`);
      }
    } catch (err) {
      rmSync(target, { recursive: true, force: true });
      throw err;
    }
  }
  return rest;
}

function copyEntries(from: string, to: string, folders: string[] | undefined): void {
  for (const entry of folders ?? readdirSync(from)) cpSync(join(from, entry), join(to, entry), { recursive: true });
}

/**
 * Checks `revision` out of the bare mirror into `target` through a scratch index (the mirror's
 * own index and refs stay as they are); with `folders`, only those top-level entries.
 */
function exportFromMirror(name: string, slug: string, revision: string, mirrors: string | undefined, target: string, folders: string[] | undefined): void {
  if (!mirrors) throw new Error(`${name}: exported from the git mirror of ${slug}; pass --mirrors DIR (bare git mirrors as OWNER+NAME/repo) or set MIRROR_ROOT`);
  const gitDir = join(mirrors, slug.replace("/", "+"), "repo");
  if (!existsSync(gitDir)) throw new Error(`${name}: no mirror at ${gitDir}; make one: git clone --mirror https://github.com/${slug}.git ${gitDir}`);
  const scratch = mkdtempSync(join(target, "..", `.index-${name}-`));
  const git = (...args: string[]): void => {
    execFileSync("git", [`--git-dir=${gitDir}`, `--work-tree=${target}`, ...args], {
      env: { ...process.env, GIT_INDEX_FILE: join(scratch, "index") },
      stdio: ["ignore", "ignore", "pipe"],
    });
  };
  try {
    try {
      git("cat-file", "-e", `${revision}^{commit}`);
    } catch {
      throw new Error(`${name}: revision ${revision} is not in ${gitDir}; fetch it: git --git-dir=${gitDir} fetch origin`);
    }
    git("read-tree", revision);
    git("checkout-index", "--all");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (folders) {
    for (const entry of readdirSync(target)) if (!folders.includes(entry)) rmSync(join(target, entry), { recursive: true, force: true });
  }
}

/** `npm pack` into a scratch folder under `out`, unpacked; `use` gets the package folder, then the scratch goes. */
function withNpmPackage(spec: string, out: string, use: (dir: string) => void): void {
  mkdirSync(out, { recursive: true });
  const tmp = mkdtempSync(join(out, "npm-"));
  try {
    execFileSync("npm", ["pack", spec, "--silent", "--pack-destination", tmp], { stdio: ["ignore", "ignore", "inherit"] });
    const tgz = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
    if (!tgz) throw new Error(`npm pack ${spec} produced no tarball`);
    execFileSync("tar", ["-xzf", join(tmp, tgz), "-C", tmp]);
    use(join(tmp, "package"));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
