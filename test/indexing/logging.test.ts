// Logging (F13): JSON lines at the configured level, in a file relative to the workspace;
// a logger never throws, whatever the file system does.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFileLogger } from "../../core/logging/index.js";
import { engineFor, makeWorkspace, removeWorkspace } from "./helpers.js";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) removeWorkspace(r);
  vi.restoreAllMocks();
});

function lines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
}

describe("file logger", () => {
  it("writes one JSON object per line at or above the level, relative to the workspace", () => {
    const root = makeWorkspace({});
    roots.push(root);
    const log = createFileLogger({ level: "info", filePath: "logs/rag.log", root });
    log.debug("hidden");
    log.info("pass finished", { files: 3 });
    log.error("failed", { error: new Error("disk full") });
    const got = lines(join(root, "logs/rag.log"));
    expect(got.map((l) => [l.level, l.message])).toEqual([
      ["info", "pass finished"],
      ["error", "failed"],
    ]);
    expect(got[0].files).toBe(3);
    expect(got[1].error).toEqual({ message: "disk full" });
    expect(typeof got[0].time).toBe("string");
  });

  it("never throws: unserialisable data and an unwritable file are survived", () => {
    const root = makeWorkspace({});
    roots.push(root);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    writeFileSync(join(root, "blocker"), "a file where a folder should be");
    const log = createFileLogger({ level: "debug", filePath: "blocker/rag.log", root });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => log.info("x", circular)).not.toThrow();
    expect(() => log.error("y")).not.toThrow();
    // Reported once, not per record.
    expect(stderr.mock.calls.filter((c) => String(c[0]).includes("cannot write the log file"))).toHaveLength(1);
  });
});

describe("engine logging", () => {
  it("logs index passes to logging.logFilePath at the configured level", async () => {
    const root = makeWorkspace({ "a.ts": "export const a = 1;\n" });
    roots.push(root);
    mkdirSync(join(root, "var"));
    const engine = await engineFor(root, { embedding: { provider: "local", model: "./no-such-model" }, logging: { level: "debug", logFilePath: "var/rag.log" } });
    await engine.index();
    await engine.close();
    const got = lines(join(root, "var/rag.log"));
    expect(got.some((l) => l.message === "index pass finished" && l.filesIndexed === 1)).toBe(true);
    expect(got.some((l) => l.level === "debug" && l.message === "index pass timings (ms)")).toBe(true);
    expect(got.some((l) => l.message === "search is keyword-only")).toBe(true);
  });
});
