// `opencode-rag index --paths-from FILE`: a pass over the listed paths alone, as a git hook or a
// watcher's pass run apart gives them: listed edits, new files and deletions reach the index, the
// rest of the workspace is not looked at; paths outside the workspace are refused in one line.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command.js";
import { workspacePath } from "../../cli/commands/index-paths.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const cli = join(repoRoot, "dist", "cli.js");
let work: string;

function run(args: string[], stdin = ""): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [cli, ...args], { cwd: work, env: { ...process.env, LANCEDB_LOG: "error" } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
    child.stdin?.end(stdin);
  });
}

const fn = (name: string) => `export function ${name}(text: string) {\n  return text.trim();\n}\n`;

async function topFile(query: string): Promise<string | undefined> {
  const r = await run(["query", query, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout)[0]?.filePath;
}

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), "rag-cli-paths-"));
  mkdirSync(join(work, "src"));
  writeFileSync(join(work, "src", "a.ts"), fn("parseConfig"));
  writeFileSync(join(work, "src", "b.ts"), fn("loadSettings"));
  writeFileSync(join(work, "c.ts"), fn("closeLedger"));
  writeFileSync(join(work, "opencode-rag.json"), JSON.stringify({ embedding: { provider: "none" }, logging: { logFilePath: "" } }));
  const indexed = await run(["index"]);
  expect(indexed.code, indexed.stderr).toBe(0);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("index --paths-from", () => {
  it("indexes the listed edits, new files and deletions, and looks at nothing else", async () => {
    writeFileSync(join(work, "src", "a.ts"), fn("mergeQuotas"));
    writeFileSync(join(work, "src", "b.ts"), fn("renderInvoice")); // changed, not listed
    writeFileSync(join(work, "src", "d.ts"), fn("settleAccount"));
    unlinkSync(join(work, "c.ts"));
    const r = await run(["index", "--paths-from", "-", "--json"], "src/a.ts\n./src/d.ts\r\n\n" + join(work, "c.ts") + "\n");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ filesScanned: 2, filesIndexed: 2, filesDeleted: 1 });
    expect(await topFile("mergeQuotas")).toBe("src/a.ts");
    expect(await topFile("settleAccount")).toBe("src/d.ts");
    expect(await topFile("closeLedger")).toBeUndefined();
    expect(await topFile("loadSettings")).toBe("src/b.ts"); // b.ts as it was indexed
    expect(await topFile("renderInvoice")).toBeUndefined();

    // A list in a file; a folder named with "/" stands for the files directly in it.
    writeFileSync(join(work, "list.txt"), "src/\n");
    const f = await run(["index", "--paths-from", "list.txt", "--json"]);
    expect(f.code, f.stderr).toBe(0);
    expect(JSON.parse(f.stdout)).toMatchObject({ filesScanned: 3, filesIndexed: 1 });
    expect(await topFile("renderInvoice")).toBe("src/b.ts");
  }, 60_000);

  it("refuses, in one line, a path outside the workspace, a list it cannot read, and --force or --watch", async () => {
    const cases: Array<[string[], string, RegExp]> = [
      [["index", "--paths-from", "-"], "src/a.ts\n../elsewhere.ts\n", /^opencode-rag index: "\.\.\/elsewhere\.ts" in the path list is outside the workspace .*; list paths inside it/],
      [["index", "--paths-from", "missing.txt"], "", /^opencode-rag index: cannot read the path list missing\.txt \(ENOENT\); check the path/],
      [["index", "--paths-from", "-", "--force"], "", /^opencode-rag index: --force rebuilds every file; it does not go with --paths-from/],
      [["index", "--paths-from", "-", "--watch"], "", /^opencode-rag index: --paths-from is one pass over the listed paths; it does not go with --watch/],
    ];
    for (const [args, stdin, line] of cases) {
      const r = await run(args, stdin);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(line);
    }
  }, 60_000);
});

describe("a listed path, made workspace-relative", () => {
  const root = join(tmpdir(), "ws");
  it("keeps a trailing slash for a folder's own files, and '/' for the root's", () => {
    expect(workspacePath("src/a.ts", root)).toBe("src/a.ts");
    expect(workspacePath("./src//a.ts", root)).toBe("src/a.ts");
    expect(workspacePath(join(root, "src", "a.ts"), root)).toBe("src/a.ts");
    expect(workspacePath("src/", root)).toBe("src/");
    expect(workspacePath("src", root)).toBe("src");
    expect(workspacePath("/", root)).toBe("/");
    expect(workspacePath("./", root)).toBe("/");
  });
  it("refuses the workspace itself and anything outside it", () => {
    expect(() => workspacePath(".", root)).toThrow(UsageError);
    expect(() => workspacePath("../x.ts", root)).toThrow(/outside the workspace/);
    expect(() => workspacePath("/etc/passwd", root)).toThrow(/outside the workspace/);
    expect(() => workspacePath("src/../../x.ts", root)).toThrow(/outside the workspace/);
  });
});
