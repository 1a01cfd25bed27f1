// The walker decides what the index covers: these tests build small workspaces on disk and
// check exactly which files it lists.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { IgnoreRules } from "../../core/files/ignore-rules.js";
import { decodeFileText, looksBinary, textEncodingOf } from "../../core/files/binary.js";
import { statPaths, walkFolderEntries, walkWorkspace } from "../../core/files/walk.js";
import { fileSizeLimits } from "../../core/indexing/workspace-rules.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "rag-walk-"));
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

async function listed(root: string, indexing: Partial<typeof DEFAULT_CONFIG.indexing> = {}, extra: string[] = []): Promise<string[]> {
  const cfg = { ...DEFAULT_CONFIG.indexing, ...indexing };
  const r = await walkWorkspace(root, { rules: new IgnoreRules(root, cfg, extra), maxFileSizeBytes: cfg.maxFileSizeBytes });
  return r.files.map((f) => f.path);
}

describe("walkWorkspace", () => {
  it("honours the root .gitignore, nested .gitignore files and .opencode-ragignore", async () => {
    const root = workspace({
      ".gitignore": "generated/\n*.tmp\n!keep.tmp\n",
      "src/.gitignore": "legacy/\n/local-only.ts\n",
      "src/lib/.opencode-ragignore": "fixtures.ts\n",
      "src/a.ts": "a",
      "src/local-only.ts": "x",
      "src/lib/local-only.ts": "nested file of the same name is not anchored by src/.gitignore",
      "src/lib/fixtures.ts": "x",
      "src/legacy/old.ts": "x",
      "generated/client.ts": "x",
      "notes.tmp": "x",
      "keep.tmp": "kept by a negation",
      "README.md": "# r",
    });
    expect(await listed(root)).toEqual([".gitignore", "README.md", "keep.tmp", "src/.gitignore", "src/a.ts", "src/lib/.opencode-ragignore", "src/lib/local-only.ts"]);
  });

  it("skips default excluded folders and extensions, and indexing.exclude patterns", async () => {
    const root = workspace({
      "node_modules/x/index.js": "x",
      "packages/app/node_modules/y/index.js": "x",
      "dist/bundle.js": "x",
      ".git/config": "x",
      "app.min.js": "x",
      "App.MIN.JS": "case-insensitive",
      "lib.wasm": "x",
      "src/main.py": "print(1)",
      "src/gen/schema.py": "x",
      "docs/guide.md": "x",
    });
    expect(await listed(root, { exclude: ["src/gen/", "*.md"] })).toEqual(["src/main.py"]);
  });

  it("leaves translation catalogs out unless the extension list is replaced", async () => {
    const root = workspace({
      "app/locale/de/LC_MESSAGES/django.po": 'msgid "Password reset"\nmsgstr "Passwort zurücksetzen"\n',
      "app/locale/django.pot": 'msgid "Password reset"\nmsgstr ""\n',
      "web/i18n/messages.fr.xlf": "<xliff/>",
      "app/auth/tokens.py": "def make_token(user):\n    return str(user.pk)\n",
    });
    expect(await listed(root)).toEqual(["app/auth/tokens.py"]);
    const withCatalogs = DEFAULT_CONFIG.indexing.excludeExtensions.filter((e) => e !== ".po");
    expect(await listed(root, { excludeExtensions: withCatalogs })).toEqual(["app/auth/tokens.py", "app/locale/de/LC_MESSAGES/django.po"]);
  });

  it("leaves dependency lock files out, by extension or by their whole name, but keeps the manifests", async () => {
    const root = workspace({
      "package.json": '{ "name": "shop", "dependencies": { "express": "^5.0.0" } }\n',
      "package-lock.json": '{ "name": "shop", "lockfileVersion": 3 }\n',
      "web/pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
      "web/yarn.lock": "express@^5.0.0:\n  version \"5.1.0\"\n",
      "go.mod": "module example.com/shop\n",
      "go.sum": "github.com/spf13/cobra v1.8.0 h1:abc=\n",
      "Cargo.lock": "[[package]]\nname = \"serde\"\n",
      "ios/Package.resolved": '{ "pins": [] }\n',
      "server/packages.lock.json": '{ "version": 1 }\n',
      "gradle.lockfile": "com.google.code.gson:gson:2.10=runtimeClasspath\n",
      "go.work.sum": "golang.org/x/mod v0.17.0 h1:abc=\n",
      "infra/.terraform.lock.hcl": 'provider "registry.terraform.io/hashicorp/aws" {}\n',
      "infra/main.tf": 'provider "aws" {}\n',
      "src/lockfile.ts": "export const lockfileName = 'package-lock.json';\n",
    });
    expect(await listed(root)).toEqual(["go.mod", "infra/main.tf", "package.json", "src/lockfile.ts"]);
  });

  it("ignores .gitignore when respectGitignore is off but still honours .opencode-ragignore", async () => {
    const root = workspace({ ".gitignore": "a.ts\n", ".opencode-ragignore": "b.ts\n", "a.ts": "a", "b.ts": "b" });
    expect(await listed(root, { respectGitignore: false })).toEqual([".gitignore", ".opencode-ragignore", "a.ts"]);
  });

  it("never enters the store or state folder even when they are not excluded by name", async () => {
    const root = workspace({ "index-data/manifest.json": "{}", "src/a.ts": "a" });
    expect(await listed(root, {}, ["index-data"])).toEqual(["src/a.ts"]);
  });

  it("reports files over maxFileSizeBytes as skipped with the reason, without listing them", async () => {
    const root = workspace({ "big.ts": "x".repeat(2000), "small.ts": "x" });
    const r = await walkWorkspace(root, { rules: new IgnoreRules(root, DEFAULT_CONFIG.indexing), maxFileSizeBytes: 1000 });
    expect(r.files.map((f) => f.path)).toEqual(["small.ts"]);
    expect(r.skipped).toEqual([{ path: "big.ts", reason: expect.stringContaining("indexing.maxFileSizeBytes") }]);
  });

  it("lets source code by its name be larger (maxSourceFileSizeBytes), and names the limit a file is over", async () => {
    const root = workspace({ "src/Sema.zig": "x".repeat(3000), "src/App.vue": "x".repeat(3000), "data/dump.json": "x".repeat(3000), "notes.md": "x".repeat(3000), "src/huge.ts": "x".repeat(9000) });
    const limits = fileSizeLimits({ maxFileSizeBytes: 1000, maxSourceFileSizeBytes: 8000 });
    const r = await walkWorkspace(root, { rules: new IgnoreRules(root, DEFAULT_CONFIG.indexing), ...limits });
    expect(r.files.map((f) => f.path)).toEqual(["src/App.vue", "src/Sema.zig"]);
    expect(Object.fromEntries(r.skipped.map((s) => [s.path, s.reason]))).toEqual({
      "data/dump.json": "larger than indexing.maxFileSizeBytes (3000 > 1000 bytes)",
      "notes.md": "larger than indexing.maxFileSizeBytes (3000 > 1000 bytes)",
      "src/huge.ts": "larger than indexing.maxSourceFileSizeBytes (9000 > 8000 bytes)",
    });
    // The watcher's stat of given paths applies the same limits.
    const watched = statPaths(root, ["src/Sema.zig", "data/dump.json"], { rules: new IgnoreRules(root, DEFAULT_CONFIG.indexing), ...limits });
    expect(watched.files.map((f) => f.path)).toEqual(["src/Sema.zig"]);
    expect(watched.gone).toEqual(["data/dump.json"]);
    // A source limit at or below the general one changes nothing.
    const same = await walkWorkspace(root, { rules: new IgnoreRules(root, DEFAULT_CONFIG.indexing), ...fileSizeLimits({ maxFileSizeBytes: 1000, maxSourceFileSizeBytes: 500 }) });
    expect(same.files).toEqual([]);
  });

  it("gives size and mtime from stat", async () => {
    const root = workspace({ "a.ts": "hello" });
    const r = await walkWorkspace(root, { rules: new IgnoreRules(root, DEFAULT_CONFIG.indexing), maxFileSizeBytes: 1e6 });
    expect(r.files[0]).toMatchObject({ path: "a.ts", size: 5, absPath: join(root, "a.ts") });
    expect(r.files[0].mtimeMs).toBeGreaterThan(0);
  });

  it("does not follow symlinks out of the workspace and survives symlink loops", async () => {
    const outside = workspace({ "secret.ts": "outside", "dir/other.ts": "outside" });
    const root = workspace({ "src/a.ts": "a", "shared/util.ts": "u" });
    symlinkSync(join(outside, "secret.ts"), join(root, "src/secret-link.ts"));
    symlinkSync(join(outside, "dir"), join(root, "outside-dir"));
    symlinkSync(root, join(root, "src/loop")); // points back at the root
    symlinkSync(join(root, "shared"), join(root, "src/shared-link")); // inside: the folder is walked once
    symlinkSync(join(root, "missing.ts"), join(root, "dangling.ts"));
    const files = await listed(root);
    expect(files).not.toContain("src/secret-link.ts");
    expect(files.some((f) => f.startsWith("outside-dir"))).toBe(false);
    expect(files.some((f) => f.startsWith("src/loop"))).toBe(false);
    expect(files).toContain("src/a.ts");
    expect(files.filter((f) => f.endsWith("util.ts"))).toHaveLength(1);
  });

  it("indexes a linked file at its target's place, once, unless the ignore rules leave the target out", async () => {
    const root = workspace({ "AGENTS.md": "# Agents\n", ".gitignore": "build/\n", "build/gen.ts": "g", ".env": "TOKEN=x" });
    symlinkSync(join(root, "AGENTS.md"), join(root, "CLAUDE.md"));
    symlinkSync(join(root, "build/gen.ts"), join(root, "gen-link.ts"));
    symlinkSync(join(root, ".env"), join(root, "settings.txt"));
    const files = await listed(root);
    expect(files).toContain("AGENTS.md");
    expect(files).not.toContain("CLAUDE.md");
    expect(files).toContain("gen-link.ts"); // the target is ignored: the link is how it is reached
    expect(files).not.toContain("settings.txt"); // a secret file is not read through a link either
    const rules = new IgnoreRules(root, DEFAULT_CONFIG.indexing);
    const r = statPaths(root, ["CLAUDE.md", "AGENTS.md", "gen-link.ts"], { rules, maxFileSizeBytes: 1e6 });
    expect(r.files.map((f) => f.path).sort()).toEqual(["AGENTS.md", "gen-link.ts"]);
    expect(r.gone).toEqual(["CLAUDE.md"]);
  });
});

describe("statPaths", () => {
  it("applies the same rules to single paths, checking ancestor folders", async () => {
    const root = workspace({ ".gitignore": "build/\n", "src/.gitignore": "*.gen.ts\n", "src/a.ts": "a", "src/b.gen.ts": "b", "build/out.js": "o" });
    const rules = new IgnoreRules(root, DEFAULT_CONFIG.indexing);
    const r = statPaths(root, ["src/a.ts", "src/b.gen.ts", "build/out.js", "src/deleted.ts"], { rules, maxFileSizeBytes: 1e6 });
    expect(r.files.map((f) => f.path)).toEqual(["src/a.ts"]);
    expect(r.gone.sort()).toEqual(["build/out.js", "src/b.gen.ts", "src/deleted.ts"]);
  });

  it("lists the files directly in given folders as the walk lists them there, and names the folders it would not list", async () => {
    const root = workspace({
      ".gitignore": "build/\n",
      "src/.gitignore": "*.gen.ts\n",
      "src/a.ts": "a",
      "src/b.gen.ts": "b",
      "src/.env": "SECRET=1",
      "src/big.ts": "x".repeat(2000),
      "src/deep/c.ts": "c",
      "build/out.js": "o",
      "top.ts": "t",
      "elsewhere/d.ts": "d",
    });
    symlinkSync(join(root, "src"), join(root, "linked"));
    const rules = new IgnoreRules(root, DEFAULT_CONFIG.indexing);
    const r = await walkFolderEntries(root, ["src", "", "build", "linked", "missing"], { rules, maxFileSizeBytes: 1000 });
    // Not src/deep/c.ts (a subfolder), nor elsewhere/ (not asked for); the root's .gitignore is a file there.
    expect(r.files.map((f) => f.path).sort()).toEqual([".gitignore", "src/.gitignore", "src/a.ts", "top.ts"]);
    expect(r.skipped.map((f) => f.path).sort()).toEqual(["src/.env", "src/big.ts"]);
    expect([...r.listed].sort()).toEqual(["", "src"]);
    expect(r.unlisted.sort()).toEqual(["build", "linked", "missing"]);
  });
});

describe("looksBinary", () => {
  it("flags a NUL byte in the first 8 KB, like git", () => {
    expect(looksBinary(new TextEncoder().encode("plain text\nwith lines"))).toBe(false);
    expect(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toBe(true);
    const late = new Uint8Array(10000).fill(0x41);
    late[9000] = 0;
    expect(looksBinary(late)).toBe(false);
  });

  it("reads UTF-16 as text: a byte order mark decides, else where the NUL bytes fall", () => {
    const text = "class Greeter {\r\n  // héllo\r\n}\r\n";
    const le = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) (le[2 * i] = text.charCodeAt(i) & 0xff), (le[2 * i + 1] = text.charCodeAt(i) >> 8);
    const be = le.map((_, i) => le[i ^ 1]);
    expect(textEncodingOf(le)).toEqual({ encoding: "utf-16le", bom: 0 });
    expect(textEncodingOf(be)).toEqual({ encoding: "utf-16be", bom: 0 });
    expect(decodeFileText(le)).toBe(text);
    expect(decodeFileText(be)).toBe(text);
    expect(decodeFileText(new Uint8Array([0xff, 0xfe, ...le]))).toBe(text);
    expect(decodeFileText(new Uint8Array([0xfe, 0xff, ...be]))).toBe(text);
    expect(decodeFileText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x62]))).toBe("ab");
    expect(looksBinary(le)).toBe(false);
  });

  it("does not take 16-bit binary data for UTF-16", () => {
    // Small little-endian integers: one zero byte per unit, but the units are control codes.
    const ints = new Uint8Array(4000).map((_, i) => (i % 2 === 0 ? ((i / 2) % 31) + 1 : 0));
    expect(looksBinary(ints)).toBe(true);
    expect(decodeFileText(ints)).toBeNull();
    // NULs on both sides of the units (32-bit numbers, image rows).
    expect(looksBinary(new Uint8Array(4000).map((_, i) => (i % 4 === 0 ? 0x41 : 0)))).toBe(true);
  });
});
