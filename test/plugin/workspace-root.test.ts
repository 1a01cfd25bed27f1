import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { workspaceRoot } from "../../opencode-plugin/workspace-root.js";
import { tempRoot } from "./helpers.js";

describe("workspaceRoot", () => {
  const repo = tempRoot({ "opencode-rag.json": "{}", "packages/api/src/a.ts": "x" });
  const bare = tempRoot({ "src/a.ts": "x" });
  afterAll(() => [repo, bare].forEach((r) => rmSync(r, { recursive: true, force: true })));

  it("uses the project folder above a subfolder session when it holds the config", () => {
    expect(workspaceRoot(join(repo, "packages/api"), repo)).toBe(repo);
  });

  it("finds an existing index as well as a config", () => {
    mkdirSync(join(bare, ".opencode/rag_db"), { recursive: true });
    expect(workspaceRoot(join(bare, "src"), bare)).toBe(bare);
  });

  it("stays in the directory when nothing above it (up to the worktree) is a workspace", () => {
    const other = tempRoot({ "lib/b.ts": "x" });
    expect(workspaceRoot(join(other, "lib"), other)).toBe(join(other, "lib"));
    expect(workspaceRoot(other, "/")).toBe(other);
    rmSync(other, { recursive: true, force: true });
  });
});
