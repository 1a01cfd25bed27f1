// `opencode-rag quirk …` through the built CLI bundle, as a user runs it.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const CLI = resolve(__dirname, "../../dist/cli.js");
let root: string;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: root, env: { ...process.env, LANCEDB_LOG: "error" } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "rag-quirk-cli-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("opencode-rag quirk", () => {
  it("adds, tests, recalls, lists and forgets", async () => {
    const add = await cli("quirk", "add", "LanceDB needs Float32Array vectors", "--type", "gotcha", "--tags", "lancedb,vectors");
    expect(add.code).toBe(0);
    const id = /remembered (q_[0-9a-f]+)/.exec(add.stdout)?.[1];
    expect(id).toBeTruthy();

    const test = await cli("quirk", "test", "LanceDB needs Float32Array vectors!");
    expect(test.stdout).toContain(`duplicate of ${id}`);

    const recall = await cli("quirk", "recall", "lancedb vectors", "--json");
    expect(JSON.parse(recall.stdout)[0].id).toBe(id);

    const list = await cli("quirk", "list", "--json");
    expect(JSON.parse(list.stdout).map((q: { id: string; tags: string[] }) => [q.id, q.tags])).toEqual([[id, ["lancedb", "vectors"]]]);

    expect((await cli("quirk", "forget", id!)).code).toBe(0);
    expect((await cli("quirk", "list")).stdout.trim()).toBe("no quirks yet");
  });

  it("refuses destructive advice with a one-line reason and a failing exit code", async () => {
    const r = await cli("quirk", "add", "just git push --force to fix the branch");
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("force-pushing");
  });

  it("names an unknown action", async () => {
    const r = await cli("quirk", "bogus");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown quirk action "bogus"');
  });
});
