// The training-data rules of models/: no held-out evaluation code base (the project's list,
// ../shared/eval/HELD_OUT.txt and the semble-dev repositories), permissive licences only
// (read from Debian's machine-readable copyright files), and train and dev code bases apart.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script of the model pipeline, no type declarations
import { readCopyright } from "../../models/scripts/debian.mjs";
// @ts-expect-error plain ESM script of the model pipeline, no type declarations
import { HELD_OUT, heldOutFromRepos, heldOutFromText, isHeldOut, isHeldOutPath, PERMISSIVE } from "../../models/scripts/policy.mjs";

const root = join(import.meta.dirname, "..", "..");
const { sources } = JSON.parse(readFileSync(join(root, "models", "sources.json"), "utf8")) as {
  sources: Array<{ kind: string; name: string; version: string; license: string; role: string }>;
};
const kit = join(root, "..", "shared", "eval");

describe("model training data policy", () => {
  it("recognises held-out projects under any packaging", () => {
    for (const pkg of ["python3-flask", "golang-github-spf13-cobra-dev", "librust-serde-dev", "ruby-rack", "golang-github-go-chi-chi-dev", "golang-1.19-src", "python3-networkx", "zod", "@trpc/server", "node-axios", "haskell-xmonad", "php-monolog", "elixir-plug", "librust-axum-dev", "lua-lazy.nvim", "libfmt-dev", "redis"]) {
      expect(isHeldOut(pkg), pkg).toBe(true);
    }
    for (const pkg of ["python3-attr", "golang-golang-x-text-dev", "librust-regex-dev", "lodash", "python3-archive", "haskell-split", "jq"]) {
      expect(isHeldOut(pkg), pkg).toBe(false);
    }
  });

  it("refuses every semble-dev repository and every HELD_OUT.txt entry, read from the kits themselves", () => {
    const repos = [
      { name: "lazy.nvim", url: "https://github.com/folke/lazy.nvim.git" },
      { name: "fmtlib", url: "https://github.com/fmtlib/fmt.git" },
    ];
    expect(heldOutFromRepos(JSON.stringify(repos))).toEqual(["lazy.nvim", "lazy.nvim", "fmtlib", "fmt"]);
    expect(heldOutFromText("# comment\nactivesupport (rails)\nmedusajs/medusa\n\nprometheus client_golang\n")).toEqual(["activesupport", "rails", "medusa", "medusa", "client_golang"]);
    const reposJson = join(kit, "semble-dev", "repos.json");
    const heldOutTxt = join(kit, "HELD_OUT.txt");
    if (!existsSync(reposJson) || !existsSync(heldOutTxt)) return; // kits absent: the built-in list above still applies
    const names = [...heldOutFromRepos(readFileSync(reposJson, "utf8")), ...heldOutFromText(readFileSync(heldOutTxt, "utf8"))];
    expect(names.length).toBeGreaterThan(40);
    for (const n of names) {
      expect(HELD_OUT, n).toContain(n.toLowerCase());
      expect(isHeldOut(n), n).toBe(true);
    }
  });

  it("skips vendored copies of held-out projects inside a training package", () => {
    expect(isHeldOutPath("deps/redis/src/server.c")).toBe(true);
    expect(isHeldOutPath("third_party/fmt/include/fmt/core.h")).toBe(true);
    expect(isHeldOutPath("vendor/github.com/spf13/cobra/command.go")).toBe(true);
    expect(isHeldOutPath("src/redis_client.c")).toBe(false);
    expect(isHeldOutPath("lib/format.rb")).toBe(false);
  });

  it("reads licences from Debian's machine-readable copyright, per file", () => {
    const text = [
      "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
      "",
      "Files: *",
      "Copyright: someone",
      "License: Expat",
      "",
      "Files: contrib/*",
      "Copyright: someone else",
      "License: GPL-2+",
      "",
      "Files: debian/*",
      "License: GPL-3",
      "",
      "License: Expat",
      " Permission is hereby granted…",
    ].join("\n");
    const c = readCopyright(text);
    expect(c.licence).toBe("MIT");
    expect(c.excluded("contrib/tool.c")).toBe(true);
    expect(c.excluded("src/lib.c")).toBe(false);
    expect(c.uniform).toBe(false); // contrib/ is GPL: not usable as a whole binary package
    expect(readCopyright("Format: x\n\nFiles: *\nLicense: MIT or Apache-2.0\n").licence).toBe("MIT");
    expect(readCopyright("Format: x\n\nFiles: *\nLicense: GPL-2+\n").licence).toBeNull();
    expect(readCopyright("This package was debianized by someone.\nLicense: BSD\n").licence).toBeNull();
  });

  it("lists no held-out code base and only permissive licences, each pinned", () => {
    expect(sources.filter((s) => s.role === "train").length).toBeGreaterThanOrEqual(1000);
    for (const s of sources) {
      expect(isHeldOut(s.name), s.name).toBe(false);
      for (const id of s.license.split(/\s+(?:AND|OR)\s+/)) expect(PERMISSIVE.has(id.replace(/[()]/g, "")), `${s.name}: ${id}`).toBe(true);
      expect(s.version).toMatch(/\d/);
    }
  });

  it("keeps dev code bases out of training", () => {
    const train = new Set(sources.filter((s) => s.role === "train").map((s) => s.name));
    const dev = sources.filter((s) => s.role === "dev");
    expect(dev.length).toBeGreaterThan(3);
    for (const d of dev) expect(train.has(d.name)).toBe(false);
  });
});
