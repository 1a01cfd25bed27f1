// The large code bases' kit lays out its checkouts from trees other fetch scripts keep: only the
// folders it names, once, and a clear error naming the fetch command when a tree is missing.
// Also: the kit committed here is well formed (every repository sourced, every query annotated
// with a category and at least one relevant file).
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

describe("the large code bases' kit (test/eval/large-kit)", () => {
  const kit = resolve(new URL(".", import.meta.url).pathname, "large-kit");
  const specs: KitRepoSpec[] = JSON.parse(readFileSync(join(kit, "repos.json"), "utf8"));

  it("sources every repository itself and annotates every query", () => {
    expect(specs.length).toBeGreaterThan(0);
    for (const s of specs) {
      expect(s.source?.tree ?? s.source?.npm, s.name).toBeTruthy();
      const queries = JSON.parse(readFileSync(join(kit, "annotations", `${s.name}.json`), "utf8")) as Array<{ query: string; relevant: string[]; category: string }>;
      expect(queries.length, s.name).toBeGreaterThan(0);
      for (const q of queries) {
        expect(["architecture", "semantic", "symbol"], q.query).toContain(q.category);
        expect(q.relevant.length, q.query).toBeGreaterThan(0);
      }
    }
  });
});
