// The plugin's file tools and the indexer against a hostile workspace: symlinks out of it, a
// FIFO, a link to /dev/zero and an oversized file. Every answer must come back at once, and
// nothing outside the workspace may be read.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { IgnoreRules, walkWorkspace } from "../../core/files/index.js";
import { prepareFile } from "../../core/indexing/prepare-file.js";
import { runDescribeImage } from "../../opencode-plugin/tools/describe-image.js";
import { runFileSkeleton } from "../../opencode-plugin/tools/file-skeleton.js";
import { runFindUsages } from "../../opencode-plugin/tools/find-usages.js";
import { runRead } from "../../opencode-plugin/tools/read-override.js";
import { chunk, makeWorkspace } from "../plugin/helpers.js";
import { hostileWorkspace, type HostileWorkspace } from "./fixture.js";

let hw: HostileWorkspace;
let writer: ChildProcess | null = null;

beforeAll(() => {
  hw = hostileWorkspace();
  // 4.4 MB: past indexing.maxSourceFileSizeBytes (4 MiB), the larger limit source code has.
  writeFileSync(join(hw.root, "big.ts"), "export const big = 1;\n".repeat(200_000));
  // A late writer: code that blocks on the FIFO gets unstuck (and fails its test) instead of
  // hanging the run; code that never blocks does not care.
  writer = spawn("sh", ["-c", "sleep 6; printf 'export function fromPipe() {}\\n' > pipe.ts"], { cwd: hw.root, stdio: "ignore", timeout: 12000 });
});
afterAll(() => {
  if (writer?.pid && writer.exitCode === null) process.kill(writer.pid);
  hw?.cleanup();
});

/**
 * Answers within `ms` or fails: a tool that blocks on a FIFO must not pass by finishing late,
 * whether it blocks the event loop (a synchronous read) or only its own promise.
 */
async function quickly<T>(run: () => T | Promise<T>, ms = 2000): Promise<T> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    const out = await Promise.race([Promise.resolve().then(run), late]);
    expect(Date.now() - started, "answer time (ms)").toBeLessThan(ms);
    return out;
  } finally {
    clearTimeout(timer);
  }
}

describe("plugin file tools", () => {
  it("get_file_skeleton refuses symlinks out of the workspace", async () => {
    const { ws } = makeWorkspace(hw.root);
    for (const p of ["etc_link/bash.bashrc", "outside.ts", "zero.ts", join(hw.root, "etc_link", "bash.bashrc")]) {
      const out = await quickly(() => runFileSkeleton(ws, p));
      expect(out, p).toMatch(/outside the workspace/);
      expect(out).not.toContain("outsideFunction");
    }
  });

  it("get_file_skeleton answers at once for a FIFO and an oversized file", async () => {
    const { ws } = makeWorkspace(hw.root);
    expect(await quickly(() => runFileSkeleton(ws, "pipe.ts"))).toMatch(/not a regular file/);
    expect(await quickly(() => runFileSkeleton(ws, "big.ts"))).toMatch(/larger than indexing.maxSourceFileSizeBytes \(4400000 > 4194304 bytes\)/);
    expect(await quickly(() => runFileSkeleton(ws, "src/app.ts"), 20_000)).toContain("startServer");
  });

  it("the read override refuses links out, FIFOs and folders behind links", async () => {
    const { ws } = makeWorkspace(hw.root, { config: { ...DEFAULT_CONFIG, openCode: { ...DEFAULT_CONFIG.openCode, readOverride: true } } });
    expect(await quickly(() => runRead(ws, { filePath: "etc_link/bash.bashrc" }))).toMatch(/outside the workspace/);
    expect(await quickly(() => runRead(ws, { filePath: "etc_link" }))).toMatch(/outside the workspace/);
    expect(await quickly(() => runRead(ws, { filePath: "zero.ts" }))).toMatch(/outside the workspace/);
    expect(await quickly(() => runRead(ws, { filePath: "pipe.ts" }))).toMatch(/not a regular file/);
    expect(await quickly(() => runRead(ws, { filePath: "src" }))).toContain("app.ts");
  });

  it("find_usages never reads through a link or a FIFO the index names", async () => {
    const results = ["etc_link/bash.bashrc", "outside.ts", "pipe.ts", "zero.ts", "src/app.ts"].map((p, i) => ({ chunk: chunk(p, 1, 2, "outsideFunction startServer"), score: 1 - i / 10 }));
    const { ws } = makeWorkspace(hw.root, { results });
    const out = await quickly(() => runFindUsages(ws, { symbolName: "outsideFunction" }), 5000);
    expect(out).toContain("0 reference(s)");
    expect(out).not.toContain("bash.bashrc");
    const scan = await quickly(() => runFindUsages(makeWorkspace(hw.root).ws, { symbolName: "outsideFunction" }), 10_000);
    expect(scan).toContain("0 reference(s)");
  });

  it("describe_image refuses a path through a link out of the workspace", async () => {
    const { ws } = makeWorkspace(hw.root);
    expect(await quickly(() => runDescribeImage(ws, "etc_link/logo.png"))).toMatch(/outside the workspace/);
  });
});

describe("indexer", () => {
  it("the walk lists neither FIFOs, devices nor anything behind a link out", async () => {
    const cfg = DEFAULT_CONFIG.indexing;
    const walked = await quickly(() => walkWorkspace(hw.root, { rules: new IgnoreRules(hw.root, cfg), maxFileSizeBytes: cfg.maxFileSizeBytes }));
    const paths = walked.files.map((f) => f.path);
    expect(paths).toContain("src/app.ts");
    for (const p of ["pipe.ts", "zero.ts", "outside.ts"]) expect(paths).not.toContain(p);
    expect(paths.some((p) => p.startsWith("etc_link"))).toBe(false);
  });

  // in the main thread (promise reads) and as a chunking worker reads (blocking reads)
  for (const blockingReads of [false, true]) {
    const how = blockingReads ? "blocking reads" : "promise reads";
    const ctx = () => ({ config: DEFAULT_CONFIG, chunking: DEFAULT_CONFIG.chunking, root: hw.root });
    const prepare = (path: string) => prepareFile({ path, absPath: join(hw.root, path), size: 10, mtimeMs: 1 }, ctx(), { blockingReads });

    it(`reading a file that became a FIFO after the walk fails at once (${how})`, async () => {
      const r = await quickly(() => prepare("pipe.ts"));
      expect(r).toMatchObject({ kind: "error" });
      expect((r as { error: string }).error).toMatch(/not a regular file/);
    });

    it(`a link to a device and a file over the size cap are refused, a regular file is chunked (${how})`, async () => {
      expect(await quickly(() => prepare("zero.ts"))).toMatchObject({ kind: "error", error: expect.stringMatching(/not a regular file/) });
      expect(await quickly(() => prepare("big.ts"))).toMatchObject({ kind: "error", error: expect.stringMatching(/larger than/) });
      const ok = await quickly(() => prepare("src/app.ts"));
      expect(ok.kind).toBe("chunks");
      expect((ok as { chunks: Array<{ content: string }> }).chunks.map((c) => c.content).join("\n")).toContain("export");
    });
  }
});

describe("wiki status", () => {
  it("answers at once with a FIFO as log.md and a folder link loop", async () => {
    const { execFileSync } = await import("node:child_process");
    const { mkdirSync, symlinkSync } = await import("node:fs");
    const { wikiStatus } = await import("../../opencode-plugin/wiki-mode.js");
    const wiki = join(hw.root, ".opencode", "wiki");
    mkdirSync(wiki, { recursive: true });
    writeFileSync(join(wiki, "index.md"), "# Index\n");
    execFileSync("mkfifo", [join(wiki, "log.md")]);
    symlinkSync("..", join(wiki, "loop"));
    const late = spawn("sh", ["-c", "sleep 4; printf '## late' > log.md"], { cwd: wiki, stdio: "ignore", timeout: 8000 });
    try {
      const out = await quickly(() => wikiStatus(hw.root));
      expect(out).toContain("index.md");
    } finally {
      if (late.pid && late.exitCode === null) process.kill(late.pid);
    }
  });
});
