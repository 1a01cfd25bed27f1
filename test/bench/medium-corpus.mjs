// The medium-repo section's input: five code bases of 2–9 MB in five languages, as Debian
// ships them (pinned package versions, unpacked with dpkg -x), under
// test/.cache/bench/medium/<name>/tree (git-ignored; PROVENANCE.json beside it) on first use. Sizes are by design those of
// the repositories users call "medium": 1.5k–6k chunks of ~1,500 characters each. None is a
// held-out evaluation code base.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unpack } from "../eval/fetch-corpora.mjs";

export const MEDIUM_REPOS = [
  { name: "eigen", language: "C++", source: "debian", package: "libeigen3-dev", version: "3.4.0-4", root: "usr/include/eigen3", licence: "MPL-2.0" },
  { name: "sqlalchemy", language: "Python", source: "debian", package: "python3-sqlalchemy", version: "1.4.46+ds1-1", root: "usr/lib/python3/dist-packages/sqlalchemy", licence: "MIT" },
  { name: "x-tools", language: "Go", source: "debian", package: "golang-golang-x-tools-dev", version: "1:0.5.0+ds-1", root: "usr/share/gocode/src/golang.org/x/tools", licence: "BSD-3-Clause" },
  { name: "doctrine-orm", language: "PHP", source: "debian", package: "php-doctrine-orm", version: "2.14.1+dfsg-1", root: "usr/share/php/Doctrine/ORM", licence: "MIT" },
  { name: "syn", language: "Rust", source: "debian", package: "librust-syn-dev", version: "1.0.107-1", root: "usr/share/cargo/registry/syn-1.0.107", licence: "MIT OR Apache-2.0" },
];

/** Fetches every repo not cached yet; returns `[{ ...repo, dir }]`. */
export function ensureMediumRepos(cacheDir, log = console.error) {
  const base = join(cacheDir, "medium");
  mkdirSync(base, { recursive: true });
  return MEDIUM_REPOS.map((repo) => {
    const dir = join(base, repo.name, "tree");
    const provenance = join(base, repo.name, "PROVENANCE.json");
    if (!existsSync(provenance)) {
      log(`fetching ${repo.package}=${repo.version} with apt-get download…`);
      const { work, out } = unpack(repo);
      try {
        rmSync(dir, { recursive: true, force: true });
        // dereference: Debian trees hold compatibility symlinks; the tree must be plain files.
        cpSync(join(out, repo.root), dir, { recursive: true, dereference: true });
        writeFileSync(provenance, JSON.stringify({ ...repo, fetchedAt: new Date().toISOString() }, null, 2) + "\n");
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    }
    return { ...repo, dir };
  });
}
