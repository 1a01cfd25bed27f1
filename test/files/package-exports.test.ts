// Which folders a package publishes as importable code (package.json), the lookup the engine
// gives the ranking, and a search through a real index: real files in temporary workspaces.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { publishedFolders } from "../../core/files/package-exports.js";
import { publishedExamplesUnder } from "../../core/files/published-paths.js";
import { KEYWORD_ONLY, makeWorkspace, removeWorkspace } from "../indexing/helpers.js";

describe("publishedFolders", () => {
  it("reads three.js's exports: its add-ons live in examples/jsm", () => {
    const manifest = {
      main: "./build/three.cjs",
      exports: {
        ".": { import: "./build/three.module.js", require: "./build/three.cjs" },
        "./examples/jsm/*": "./examples/jsm/*",
        "./addons": "./examples/jsm/Addons.js",
        "./addons/*": "./examples/jsm/*",
        "./src/*": "./src/*",
      },
    };
    expect(publishedFolders(manifest)).toEqual(["build/", "examples/jsm/", "src/"]);
  });

  it("follows conditions, arrays and the other path fields", () => {
    const manifest = {
      exports: { "./plugins/*": [{ types: "./types/plugins/*.d.ts", default: "./lib/plugins/*.js" }, "./lib/plugins/*.js"], "./internal/*": null },
      module: "dist/esm/index.js",
      bin: { tool: "./bin/cli.js" },
      typings: "index.d.ts",
    };
    expect(publishedFolders(manifest)).toEqual(["bin/", "dist/esm/", "lib/plugins/", "types/plugins/"]);
  });

  it("publishes no folder for top-level, outside or absent targets", () => {
    expect(publishedFolders({ main: "index.js", exports: "./index.js" })).toEqual([]);
    expect(publishedFolders({ exports: { ".": "../shared/index.js", "./x": "https://example.com/x.js" } })).toEqual([]);
    expect(publishedFolders({ name: "no-paths" })).toEqual([]);
    expect(publishedFolders(null)).toEqual([]);
    expect(publishedFolders(["./lib/a.js"])).toEqual([]);
  });
});

describe("publishedExamplesUnder", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  it("answers from every package.json above a file, and ignores one that is not JSON", () => {
    root = mkdtempSync(join(tmpdir(), "published-"));
    write("package.json", JSON.stringify({ exports: { "./addons/*": "./examples/jsm/*" } }));
    write("packages/ui/package.json", JSON.stringify({ exports: { "./widgets/*": "./demos/widgets/*" } }));
    write("packages/broken/package.json", "{ not json");
    const isPublishedExample = publishedExamplesUnder(root);
    expect(isPublishedExample("examples/jsm/postprocessing/EffectComposer.js")).toBe(true);
    expect(isPublishedExample("examples/jsm/nested/deep/File.js")).toBe(true);
    expect(isPublishedExample("examples/webgl_animation.js")).toBe(false);
    expect(isPublishedExample("packages/ui/demos/widgets/Slider.js")).toBe(true);
    expect(isPublishedExample("packages/ui/demos/playground.js")).toBe(false);
    expect(isPublishedExample("packages/broken/examples/a.js")).toBe(false);
  });

  it("counts only an example folder the package exports itself, not one inside an exported source folder", () => {
    root = mkdtempSync(join(tmpdir(), "published-"));
    // zod's shape: `zod/v3` is `src/v3/index.ts`, and `src/v3/benchmarks/` holds its benchmarks.
    write("packages/zod/package.json", JSON.stringify({ exports: { "./v3": { import: "./src/v3/index.ts" }, "./*": "./src/*" } }));
    const isPublishedExample = publishedExamplesUnder(root);
    expect(isPublishedExample("packages/zod/src/v3/benchmarks/object.ts")).toBe(false);
    expect(isPublishedExample("packages/zod/src/v4/examples/demo.ts")).toBe(false);
  });

  it("publishes nothing in a workspace without a package.json", () => {
    root = mkdtempSync(join(tmpdir(), "published-"));
    write("examples/basic.rs", "fn main() {}");
    expect(publishedExamplesUnder(root)("examples/basic.rs")).toBe(false);
  });
});

describe("searching a package that serves add-ons from its examples folder", () => {
  const engines: Engine[] = [];
  const roots: string[] = [];
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
    for (const r of roots.splice(0)) removeWorkspace(r);
  });

  const composer = [
    "export class EffectComposer {",
    "  constructor(renderer) { this.renderer = renderer; this.passes = []; }",
    "  addPass(pass) { this.passes.push(pass); }",
    "  render() { for (const pass of this.passes) pass.render(this.renderer, this.writeBuffer, this.readBuffer); this.swapBuffers(); }",
    "}",
    "",
  ].join("\n");
  const pipeline = ["export class Pipeline {", "  run(passes) { for (const pass of passes) pass.apply(this.target); }", "}", ""].join("\n");
  const exportsAddOns = JSON.stringify({ name: "scene-kit", exports: { ".": "./src/index.js", "./addons/*": "./examples/jsm/*" } });

  it("ranks the published add-on as source, and demotes it again once the package stops exporting it", async () => {
    const root = makeWorkspace(
      { "package.json": exportsAddOns, "examples/jsm/postprocessing/EffectComposer.js": composer, "src/core/Pipeline.js": pipeline },
      "rag-exports-",
    );
    roots.push(root);
    const engine = await openEngine({ root, overrides: KEYWORD_ONLY });
    engines.push(engine);
    await engine.index();
    const first = async () => (await engine.search("render passes", { topK: 2 }))[0].chunk.filePath;
    expect(await first()).toBe("examples/jsm/postprocessing/EffectComposer.js");

    // The same files, the add-ons no longer exported: the next pass's index reads package.json anew.
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "scene-kit", exports: { ".": "./src/index.js" } }));
    await engine.index();
    expect(await first()).toBe("src/core/Pipeline.js");
  });
});
