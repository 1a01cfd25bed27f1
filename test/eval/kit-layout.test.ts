// The large code bases' kit lays out its checkouts from trees other fetch scripts keep: only the
// folders it names, once, and a clear error naming the fetch command when a tree is missing.
// Also: the kit committed here is well formed (every repository sourced, every query annotated
// with a category and at least one relevant file).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { layOutKitRepos, type KitRepoSpec } from "./kit-layout.js";

const work = mkdtempSync(join(tmpdir(), "kit-layout-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const tree = join(work, "cache", "lib");
mkdirSync(join(tree, "src"), { recursive: true });
mkdirSync(join(tree, "build"), { recursive: true });
writeFileSync(join(tree, "src", "main.py"), "def main():\n    pass\n");
writeFileSync(join(tree, "build", "bundle.js"), "bundled");
writeFileSync(join(tree, "LICENSE"), "MIT");

const spec = (name: string, source?: KitRepoSpec["source"]): KitRepoSpec => ({ name, language: "python", url: "", revision: "", source });

describe("layOutKitRepos", () => {
  it("copies only the named folders of a kept tree, and leaves mirror-exported repos to export.sh", () => {
    const out = join(work, "out1");
    const rest = layOutKitRepos([spec("lib", { tree: "cache/lib", folders: ["LICENSE", "src"] }), spec("mirrored")], out, work);
    expect(rest.map((s) => s.name)).toEqual(["mirrored"]);
    expect(readdirSync(join(out, "repos", "lib")).sort()).toEqual(["LICENSE", "src"]);
    expect(readFileSync(join(out, "repos", "lib", "src", "main.py"), "utf8")).toContain("def main");
  });

  it("leaves a checkout already laid out as it is", () => {
    const out = join(work, "out2");
    mkdirSync(join(out, "repos", "lib"), { recursive: true });
    writeFileSync(join(out, "repos", "lib", "edited.txt"), "kept");
    expect(layOutKitRepos([spec("lib", { tree: "cache/lib" })], out, work)).toEqual([]);
    expect(readdirSync(join(out, "repos", "lib"))).toEqual(["edited.txt"]);
  });

  it("names the fetch command when the tree is missing, and leaves no half-made checkout", () => {
    const out = join(work, "out3");
    expect(() => layOutKitRepos([spec("gone", { tree: "cache/gone", fetch: "node fetch.mjs --only gone" })], out, work)).toThrow(
      /gone: cache\/gone is missing; fetch it first: node fetch\.mjs --only gone/,
    );
    expect(existsSync(join(out, "repos", "gone"))).toBe(false);
  });
});

describe("layOutKitRepos from a git mirror", () => {
  // A bare mirror at MIRRORS/acme+widgets/repo with two commits; the tests folder is marked
  // export-ignore, as many projects mark theirs.
  const mirrors = join(work, "mirrors");
  const gitDir = join(mirrors, "acme+widgets", "repo");
  const source = join(work, "widgets-src");
  mkdirSync(join(source, "tests"), { recursive: true });
  const git = (...args: string[]): string =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], { cwd: source, encoding: "utf8" }).trim();
  git("init", "-q");
  writeFileSync(join(source, ".gitattributes"), "/tests export-ignore\n");
  writeFileSync(join(source, "widget.py"), "VERSION = 1\n");
  writeFileSync(join(source, "tests", "test_widget.py"), "def test_widget(): pass\n");
  git("add", "-A");
  git("commit", "-qm", "one");
  const first = git("rev-parse", "HEAD");
  writeFileSync(join(source, "widget.py"), "VERSION = 2\n");
  git("commit", "-qam", "two");
  execFileSync("git", ["clone", "-q", "--mirror", source, gitDir]);
  const mirrored = (revision: string, folders?: string[]): KitRepoSpec => ({ ...spec("widgets", { git: "acme/widgets", folders }), revision });

  it("checks out the pinned revision, export-ignored files too, and leaves the mirror as it was", () => {
    const out = join(work, "out-git1");
    const before = readdirSync(gitDir).sort();
    expect(layOutKitRepos([mirrored(first)], out, work, mirrors)).toEqual([]);
    const target = join(out, "repos", "widgets");
    expect(readFileSync(join(target, "widget.py"), "utf8")).toBe("VERSION = 1\n");
    expect(existsSync(join(target, "tests", "test_widget.py"))).toBe(true);
    expect(readdirSync(join(out, "repos"))).toEqual(["widgets"]);
    expect(readdirSync(gitDir).sort()).toEqual(before);
  });

  it("keeps only the named folders", () => {
    const out = join(work, "out-git2");
    layOutKitRepos([mirrored(first, ["widget.py"])], out, work, mirrors);
    expect(readdirSync(join(out, "repos", "widgets"))).toEqual(["widget.py"]);
  });

  it("says what to do when the mirrors, the mirror or the revision are missing, and leaves no half-made checkout", () => {
    const out = join(work, "out-git3");
    expect(() => layOutKitRepos([mirrored(first)], out, work)).toThrow(/widgets: exported from the git mirror of acme\/widgets; pass --mirrors DIR/);
    expect(() => layOutKitRepos([mirrored(first)], out, work, join(work, "nowhere"))).toThrow(/no mirror at .*acme\+widgets\/repo; make one: git clone --mirror/);
    expect(() => layOutKitRepos([mirrored("0".repeat(40))], out, work, mirrors)).toThrow(/revision 0{40} is not in .*; fetch it/);
    expect(existsSync(join(out, "repos", "widgets"))).toBe(false);
  });
});

describe("the large code bases' kit (test/eval/large-kit)", () => {
  const kit = resolve(new URL(".", import.meta.url).pathname, "large-kit");
  const specs: KitRepoSpec[] = JSON.parse(readFileSync(join(kit, "repos.json"), "utf8"));

  it("sources every repository itself and annotates every query", () => {
    expect(specs.length).toBeGreaterThan(0);
    for (const s of specs) {
      expect(s.source?.tree ?? s.source?.npm ?? s.source?.git, s.name).toBeTruthy();
      if (s.source?.git) expect(s.revision, s.name).toMatch(/^[0-9a-f]{40}$/);
      const queries = JSON.parse(readFileSync(join(kit, "annotations", `${s.name}.json`), "utf8")) as Array<{ query: string; relevant: string[]; category: string }>;
      expect(queries.length, s.name).toBeGreaterThan(0);
      for (const q of queries) {
        expect(["architecture", "semantic", "symbol"], q.query).toContain(q.category);
        expect(q.relevant.length, q.query).toBeGreaterThan(0);
      }
    }
  });
});
