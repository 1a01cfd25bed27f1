// `opencode-rag query` prints file names and code from the workspace: escape sequences in
// them must reach the terminal as visible text, never as commands to it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryCommand, humanResult } from "../../cli/commands/query.js";
import { terminalSafe } from "../../cli/format.js";
import { openEngine } from "../../core/engine.js";
import type { Engine } from "../../core/engine-types.js";
import { chunk } from "../plugin/helpers.js";

const ESC = "\u001b";
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;
const EVIL_NAME = `evil${ESC}]0;pwned\u0007\nsrc/fake.ts`;
const EVIL_CODE = `export function clearScreen() {}\n// ${ESC}[2J${ESC}[H\rrewritten line\u0007\n// ${ESC}]8;;http://evil.example${ESC}\\link${ESC}]8;;${ESC}\\ \u009b31m \u202e`;

describe("query output on a terminal", () => {
  it("escapes control characters in names, code and descriptions, keeping code line breaks", () => {
    const out = humanResult({ chunk: chunk(EVIL_NAME, 1, 3, EVIL_CODE, { symbol: `clear${ESC}[31m`, description: `desc${ESC}]52;c;Zm9v\u0007` }), score: 0.5 }, "clear the screen");
    expect(out).not.toMatch(CONTROL);
    expect(out.split("\n")[0]).toContain("src/fake.ts");
    expect(out.split("\n")[0]).toContain("\\x1b]0;pwned\\x07\\nsrc/fake.ts");
    expect(out).toContain("\\x1b[2J");
    expect(out.split("\n").length).toBe(5);
  });

  it("terminalSafe keeps newlines only when asked", () => {
    expect(terminalSafe("a\nb\tc\r")).toBe("a\\nb\tc\\r");
    expect(terminalSafe("a\nb", { keepNewlines: true })).toBe("a\nb");
  });
});

describe("opencode-rag query (human output)", () => {
  let root: string;
  let engine: Engine;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "rag-term-"));
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "src", `bad${ESC}[31mname.ts`), EVIL_CODE + "\n");
    engine = await openEngine({ root, overrides: { logging: { level: "error", logFilePath: "" } } });
    await engine.index();
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("prints no raw escape sequence", async () => {
    const printed: string[] = [];
    const code = await queryCommand.run({ values: {}, positionals: ["clearScreen"], debug: false, interactive: false, out: (t) => printed.push(t), err: () => undefined, engine: async () => engine });
    expect(code).toBe(0);
    const text = printed.join("\n");
    expect(text).toContain("clearScreen");
    expect(text).toContain("bad\\x1b[31mname.ts");
    expect(text).not.toMatch(CONTROL);
  });
});
