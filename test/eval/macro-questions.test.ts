// The C macro question maker: each function-like macro defined once is a symbol question,
// answered by its `#define` lines.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the eval kit, without types
import { buildMacroQuestions } from "./macro-questions.mjs";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("macro questions", () => {
  it("asks for each function-like macro defined once, answered by its lines, continuations included", () => {
    dir = mkdtempSync(join(tmpdir(), "rag-macro-questions-"));
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "adlist.h"), "#define LIST_MAX 64\n#define listFirst(l) ((l)->head)\n#define listSwap(a, b) do { \\\n    swap(a, b); \\\n} while (0)\n#define FMT_12(x) x\n#define min(a, b) ((a) < (b) ? (a) : (b))\n");
    writeFileSync(join(dir, "src", "dict.h"), "#define dictSize(d) ((d)->used)\n");
    writeFileSync(join(dir, "src", "dict2.h"), "#define dictSize(d) ((d)->count)\n");
    writeFileSync(join(dir, "src", "notes.c"), "#define localOnly(x) (x)\n");
    const questions = buildMacroQuestions({ root: join(dir, "src") }) as Array<{ query: string; relevant: unknown[] }>;
    // A constant, a numbered family, a short name, a name defined twice and a .c file's macro are left out.
    expect(questions.map((q) => q.query).sort()).toEqual(["listFirst", "listSwap"]);
    expect(questions.find((q) => q.query === "listSwap")?.relevant).toEqual([{ filePath: "adlist.h", startLine: 3, endLine: 5 }]);
    expect(buildMacroQuestions({ root: join(dir, "src") })).toEqual(questions);
  });
});
