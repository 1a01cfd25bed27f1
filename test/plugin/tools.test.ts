import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { countTokens } from "../../core/telemetry/tokens.js";
import { DescribeImageSchema, runDescribeImage } from "../../opencode-plugin/tools/describe-image.js";
import { FileSkeletonSchema, runFileSkeleton } from "../../opencode-plugin/tools/file-skeleton.js";
import { FindUsagesSchema, runFindUsages } from "../../opencode-plugin/tools/find-usages.js";
import { runSearchSemantic, SearchSemanticSchema } from "../../opencode-plugin/tools/search-semantic.js";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { analyseQuery } from "../../core/retrieval/query-analysis.js";
import { describesOneUnit, RANK_WEIGHTS } from "../../core/retrieval/rank.js";
import { TOOL_DEFINITIONS } from "../../opencode-plugin/tools/definitions.js";
import { heavyFileList, heavyUsageFiles, HEAVY_SYMBOL, HEAVY_USES } from "../fixtures/heavy-usages.js";
import { chunk, configWith, makeWorkspace, tempRoot } from "./helpers.js";

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
function root(files: Record<string, string> = {}) {
  const r = tempRoot(files);
  roots.push(r);
  return r;
}

describe("tool schemas", () => {
  it("enforce the limits of search_semantic", () => {
    const hints = Array.from({ length: 11 }, (_, i) => `src/${i}/`);
    expect(SearchSemanticSchema.safeParse({ query: "auth" }).success).toBe(true);
    expect(SearchSemanticSchema.safeParse({ query: "auth", topK: 25, pathHints: hints.slice(0, 10) }).success).toBe(true);
    expect(SearchSemanticSchema.safeParse({ query: "auth", topK: 26 }).success).toBe(false);
    expect(SearchSemanticSchema.safeParse({ query: "auth", topK: 0 }).success).toBe(false);
    expect(SearchSemanticSchema.safeParse({ query: "auth", topK: 2.5 }).success).toBe(false);
    expect(SearchSemanticSchema.safeParse({ query: "auth", pathHints: hints }).success).toBe(false);
    expect(SearchSemanticSchema.safeParse({ query: "auth", languageHints: hints }).success).toBe(false);
    expect(SearchSemanticSchema.safeParse({ query: "" }).success).toBe(false);
  });

  it("require one identifier for find_usages and a path for the file tools", () => {
    expect(FindUsagesSchema.safeParse({ symbolName: "parseConfig" }).success).toBe(true);
    const bad = FindUsagesSchema.safeParse({ symbolName: "obj.method()" });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain("one identifier");
    expect(FindUsagesSchema.safeParse({ symbolName: "x", topK: 101 }).success).toBe(false);
    expect(FileSkeletonSchema.safeParse({}).success).toBe(false);
    expect(DescribeImageSchema.safeParse({ filePath: "a.png" }).success).toBe(true);
  });
});

describe("search_semantic", () => {
  it("tells agents how to ask for a topic and for one function, as the ranking reads them", () => {
    const description = TOOL_DEFINITIONS.find((t) => t.name === "search_semantic")!.description;
    const [topic, unit] = [...description.matchAll(/\("([^"]+)"\)/g)].map((m) => analyseQuery(m[1]));
    expect(topic.asksQuestion).toBe(true);
    expect(describesOneUnit(topic)).toBe(false);
    expect(unit.asksQuestion).toBe(false);
    expect(unit.wordCount).toBeGreaterThanOrEqual(RANK_WEIGHTS.descriptionWords);
    expect(describesOneUnit(unit)).toBe(true);
    expect(description).toContain(`${RANK_WEIGHTS.descriptionWords} words or more`);
  });

  const results = [
    { chunk: chunk("src/auth/session.ts", 10, 14, "export function expireSessions(now: number) {\n  return purge(now);\n}", { symbol: "expireSessions", description: "Purges expired sessions." }), score: 0.91 },
    { chunk: chunk("src/db/pool.ts", 3, 5, "export class Pool {}", { kind: "class", symbol: "Pool" }), score: 0.42 },
  ];

  it("answers with path, lines, language, kind, score, description and a preview", async () => {
    const { ws } = makeWorkspace(root(), { results });
    const out = await runSearchSemantic(ws, { query: "expire sessions" }, "ses_1");
    expect(out).toContain("### 1. src/auth/session.ts:10-14 · typescript · function `expireSessions` · score 0.91");
    expect(out).toContain("> Purges expired sessions.");
    expect(out).toContain("```typescript\nexport function expireSessions");
    expect(out.indexOf("session.ts")).toBeLessThan(out.indexOf("pool.ts"));
  });

  it("previews the lines of a long hit that answer the query, saying which lines it left out", async () => {
    const helpers = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `export function helper${from + i}(x: number) {\n  return x + ${from + i};\n}`);
    // Lines 101-190 helpers, 191-193 the function asked for, 194-223 more helpers.
    const content = [...helpers(0, 30), "export function purgeExpiredSessions(store: Store, now: number) {", "  for (const s of store.sessions()) if (s.expires < now) store.drop(s.id);", "}", ...helpers(30, 40)].join("\n");
    const long = [{ chunk: chunk("src/auth/helpers.ts", 101, 223, content, { symbol: "purgeExpiredSessions" }), score: 0.7 }];
    const { ws } = makeWorkspace(root(), { results: long });
    const out = await runSearchSemantic(ws, { query: "purge expired sessions" });
    const shown = out.slice(out.indexOf("```typescript\n") + 14, out.lastIndexOf("\n```")).split("\n");
    expect(shown[0]).toBe("… (lines 101-190 above)");
    expect(shown[1]).toBe("export function purgeExpiredSessions(store: Store, now: number) {");
    expect(shown).toHaveLength(26);
    expect(shown[25]).toBe("… (9 more lines)");
  });

  it("says when a result lies in generated or vendored code", async () => {
    const foreign = [
      { chunk: chunk("client/typed/pods.go", 1, 9, "func (c *pods) Evict(ctx context.Context) error {\n\treturn nil\n}", { symbol: "Evict" }), score: 0.8, origin: "generated" as const },
      { chunk: chunk("deps/lua/lapi.c", 5, 9, "int lua_gettop (lua_State *L) {\n  return 0;\n}", { symbol: "lua_gettop" }), score: 0.5, origin: "vendored" as const },
    ];
    const { ws } = makeWorkspace(root(), { results: foreign });
    const out = await runSearchSemantic(ws, { query: "evict" });
    expect(out).toContain("### 1. client/typed/pods.go:1-9 · go · function `Evict` · generated · score 0.80");
    expect(out).toContain("### 2. deps/lua/lapi.c:5-9 · c · function `lua_gettop` · vendored · score 0.50");
  });

  it("passes hints as filters and rejects hints outside the workspace", async () => {
    const r = root();
    const { ws, state } = makeWorkspace(r, { results });
    await runSearchSemantic(ws, { query: "pool", pathHints: ["src/db/"], languageHints: ["TypeScript"], topK: 3 });
    expect(state.searches[0].options).toMatchObject({ topK: 3, filter: { pathPrefixes: ["src/db/"], languages: ["typescript"] } });
    const out = await runSearchSemantic(ws, { query: "x", pathHints: ["../elsewhere"] });
    expect(out).toMatch(/outside the workspace/);
  });

  it("stays within openCode.toolTokenBudget and says what it left out", async () => {
    const big = Array.from({ length: 20 }, (_, i) =>
      ({ chunk: chunk(`src/f${i}.ts`, 1, 30, Array.from({ length: 30 }, (_, j) => `const value${j} = compute${j}(input${j});`).join("\n")), score: 0.9 - i * 0.01 }),
    );
    const { ws } = makeWorkspace(root(), { results: big, config: configWith({ openCode: { toolTokenBudget: 600 } }) });
    const out = await runSearchSemantic(ws, { query: "compute", topK: 20 });
    expect(countTokens(out)).toBeLessThanOrEqual(600);
    expect(out).toMatch(/\d+ more result\(s\) omitted/);
  });

  it("explains an index that is still building or empty instead of answering nothing", async () => {
    const building = makeWorkspace(root(), { status: { indexing: { filesDone: 340, filesTotal: 1200, startedAt: "" }, chunks: 10 } });
    expect(await runSearchSemantic(building.ws, { query: "auth" })).toContain("indexing 340/1,200 files…");
    const empty = makeWorkspace(root(), { status: { chunks: 0 } });
    expect(await runSearchSemantic(empty.ws, { query: "auth" })).toContain("The index is empty");
  });

  it("turns a config error into a one-line tool answer", async () => {
    const { ws } = makeWorkspace(root(), {}, new Error("opencode-rag.json:3: invalid JSON (InvalidSymbol); fix the syntax and retry"));
    const out = await runSearchSemantic(ws, { query: "auth" });
    expect(out).toBe("opencode-rag is not available in this workspace: opencode-rag.json:3: invalid JSON (InvalidSymbol); fix the syntax and retry");
  });
});

describe("get_file_skeleton", () => {
  const files = {
    "src/shapes.ts": "export class Circle {\n  area() { return 1; }\n}\nexport function make() { return new Circle(); }\n",
    "notes/todo.txt": "function looksLikeCode() {\n}\nplain text\n",
    "data/blob.txt": "just\nsome\nlines\n",
    "src/template.ts": "export const source = `\nfunction generated() {\n}\n`;\n",
  };

  it("outlines an unindexed TypeScript file with nesting and line ranges", async () => {
    const { ws } = makeWorkspace(root(files));
    const out = await runFileSkeleton(ws, "src/shapes.ts");
    expect(out).toContain("## Skeleton — src/shapes.ts (typescript, 4 lines)");
    expect(out).toContain("3 structural element(s)");
    expect(out).toContain("□ class Circle  L1-L3\n  ƒ method area  L2");
    expect(out).toContain("ƒ function make  L4");
  });

  it("falls back to patterns, then to the line count", async () => {
    const { ws } = makeWorkspace(root(files));
    const text = await runFileSkeleton(ws, "notes/todo.txt");
    expect(text).toContain("function looksLikeCode  L1-L3");
    expect(text).toContain("found by pattern match (no grammar for this file)");
    // Parsed, but the only function is in a string: the note says the grammar found none.
    const template = await runFileSkeleton(ws, "src/template.ts");
    expect(template).toContain("function generated");
    expect(template).toContain("found by pattern match (its grammar declares nothing here)");
    expect(await runFileSkeleton(ws, "data/blob.txt")).toContain("No declarations found; the file has 3 lines");
  });

  it("refuses paths outside the workspace and explains missing files", async () => {
    const r = root(files);
    const { ws } = makeWorkspace(r);
    expect(await runFileSkeleton(ws, "/etc/passwd")).toMatch(/outside the workspace/);
    expect(await runFileSkeleton(ws, "src/missing.ts")).toMatch(/does not exist/);
  });
});

describe("find_usages", () => {
  const files = {
    "src/config.ts": "export function loadConfig(p: string) {\n  return p;\n}\n// loadConfig reads the file\nexport const loadConfigSync = 1;\n",
    "src/main.ts": "import { loadConfig } from './config';\n\nconst c = loadConfig('x');\nconsole.log(c);\n",
    "lib/other.ts": "const s = 'loadConfig';\n",
  };

  it("lists identifier references grouped by file with context, without the definition (index candidates)", async () => {
    const r = root(files);
    const { ws, state } = makeWorkspace(r, {
      results: [
        { chunk: chunk("src/config.ts", 1, 5, files["src/config.ts"]), score: 1 },
        { chunk: chunk("src/main.ts", 1, 4, files["src/main.ts"]), score: 1 },
        { chunk: chunk("lib/other.ts", 1, 1, files["lib/other.ts"]), score: 1 },
      ],
    });
    const out = await runFindUsages(ws, { symbolName: "loadConfig" });
    expect(state.searches[0].options).toMatchObject({ mode: "keyword" });
    expect(out).toContain("## Usages of `loadConfig` — 2 reference(s) in 1 file(s)");
    expect(out).toContain("### src/main.ts (typescript) — 2 reference(s)");
    expect(out).toContain(">    1 | import { loadConfig } from './config';");
    expect(out).toContain(">    3 | const c = loadConfig('x');");
    expect(out).toContain("     4 | console.log(c);");
    expect(out).not.toContain("src/config.ts");
    expect(out).not.toContain("lib/other.ts");
  });

  it("counts comments and strings only when asked", async () => {
    const { ws } = makeWorkspace(root(files), { status: { chunks: 0 } });
    const out = await runFindUsages(ws, { symbolName: "loadConfig", includeComments: true });
    expect(out).toContain("### src/config.ts (typescript) — 1 reference(s)");
    expect(out).toContain("### lib/other.ts (typescript) — 1 reference(s)");
  });

  it("scans the workspace when there is no index, and honours pathHint", async () => {
    const { ws } = makeWorkspace(root(files), { status: { chunks: 0 } });
    const out = await runFindUsages(ws, { symbolName: "loadConfig" });
    expect(out).toContain("(no usable index: scanned the workspace directly)");
    expect(out).toContain("2 reference(s) in 1 file(s)");
    const hinted = await runFindUsages(ws, { symbolName: "loadConfig", pathHint: "lib/" });
    expect(hinted).toContain("No references found under lib/");
  });
});

describe("describe_image", () => {
  it("returns the stored description of an image row and never another row", async () => {
    const { ws } = makeWorkspace(root(), {
      results: [
        { chunk: chunk("docs/arch.png", 1, 1, "", { kind: "image", language: "image", description: "Diagram: CLI and plugin share one core." }), score: 1 },
        { chunk: chunk("docs/arch.png.md", 1, 3, "text"), score: 1 },
      ],
    });
    expect(await runDescribeImage(ws, "docs/arch.png")).toBe("## Image — docs/arch.png\nDiagram: CLI and plugin share one core.");
    expect(await runDescribeImage(ws, "docs/other.png")).toContain("No stored description for `docs/other.png`");
  });
});

describe("tool calls through the hooks", () => {
  const ctx = { sessionID: "ses_t", messageID: "msg_t", agent: "build", directory: "", worktree: "", abort: new AbortController().signal, metadata() {}, ask: async () => {} };

  it("validate arguments themselves (OpenCode does not) and explain what to fix", async () => {
    const { ws, state } = makeWorkspace(root(), { results: [] });
    const hooks = (await import("../../opencode-plugin/server.js")).createRagHooks(ws);
    const out = await hooks.tool!.search_semantic.execute({ query: "auth", topK: 99 } as never, ctx as never);
    expect(out).toBe("Invalid arguments for search_semantic: topK must be a whole number from 1 to 25. Fix them and call search_semantic again.");
    expect(state.searches).toHaveLength(0);
    const usages = await hooks.tool!.find_usages.execute({ symbolName: "a.b()" } as never, ctx as never);
    expect(usages).toContain("find_usages: symbolName must be one identifier");
  });

  it("answer an empty query, symbol or path in their own words, naming the argument and an example", async () => {
    const { ws, state } = makeWorkspace(root(), { results: [{ chunk: chunk("a.ts", 1, 1, "x"), score: 1 }] });
    const hooks = (await import("../../opencode-plugin/server.js")).createRagHooks(ws);
    for (const query of ["", "   "]) {
      expect(await hooks.tool!.search_semantic.execute({ query } as never, ctx as never)).toBe(
        "Invalid arguments for search_semantic: query is empty: describe the code you need, e.g. 'where expired sessions are purged'. Fix them and call search_semantic again.",
      );
    }
    expect(state.searches).toHaveLength(0);
    expect(await hooks.tool!.find_usages.execute({ symbolName: "" } as never, ctx as never)).toBe(
      "Invalid arguments for find_usages: symbolName is empty: give the identifier to find, e.g. parseConfig. Fix them and call find_usages again.",
    );
    const answers = [
      await hooks.tool!.find_usages.execute({ symbolName: " " } as never, ctx as never),
      await hooks.tool!.get_file_skeleton.execute({ filePath: "" } as never, ctx as never),
      await hooks.tool!.recall_quirks.execute({ query: "" } as never, ctx as never),
      await hooks.tool!.find_usages.execute({ symbolName: "x", topK: 0, pathHint: "" } as never, ctx as never),
    ];
    expect(answers[0]).toContain("symbolName is empty");
    expect(answers[1]).toContain("filePath is empty: give the file's path relative to the workspace root, e.g. 'src/app.ts'");
    expect(answers[2]).toContain("query is empty: say what you need to remember");
    expect(answers[3]).toBe(
      "Invalid arguments for find_usages: pathHint is empty: give a workspace path prefix such as 'src/', or leave it out; topK must be a whole number from 1 to 100. Fix them and call find_usages again.",
    );
    for (const a of answers) expect(a).not.toMatch(/Too (small|big)|expected/);
  });

  it("turn an unexpected failure into a one-line answer", async () => {
    const { ws } = makeWorkspace(root(), { results: [{ chunk: chunk("a.ts", 1, 1, "x"), score: 1 }], failSearch: new Error("disk I/O error") });
    const hooks = (await import("../../opencode-plugin/server.js")).createRagHooks(ws);
    const out = await hooks.tool!.search_semantic.execute({ query: "auth" } as never, ctx as never);
    expect(out).toBe("search_semantic failed: disk I/O error. The index may be rebuilding; try again, or use your usual tools.");
  });
});

describe("search_semantic context line", () => {
  it("shows a signature or parent, and drops a context that only repeats the header", async () => {
    const { ws } = makeWorkspace(root(), {
      results: [
        { chunk: chunk("a.ts", 1, 3, "class A {}", { kind: "class", symbol: "A", context: "class A" }), score: 0.9 },
        { chunk: chunk("b.ts", 1, 3, "run() {}", { kind: "method", symbol: "run", context: "class B > method run(x)" }), score: 0.8 },
      ],
    });
    const out = await runSearchSemantic(ws, { query: "a" });
    expect(out).not.toContain("context: class A");
    expect(out).toContain("context: class B > method run(x)");
  });
});

describe("find_usages with many indexed hits", () => {
  it("completes a full page of index candidates with the workspace scan", async () => {
    const files: Record<string, string> = { "src/late.ts": "import { tick } from './clock';\ntick();\n" };
    const results = [];
    for (let i = 0; i < 100; i++) {
      files[`src/n${String(i).padStart(3, "0")}.ts`] = `export const v${i} = 1; // tick mentioned\n`;
      results.push({ chunk: chunk(`src/n${String(i).padStart(3, "0")}.ts`, 1, 1, files[`src/n${String(i).padStart(3, "0")}.ts`]), score: 1 });
    }
    const { ws } = makeWorkspace(root(files), { results, status: { chunks: 101 } });
    const out = await runFindUsages(ws, { symbolName: "tick" });
    expect(out).toContain("### src/late.ts (typescript) — 2 reference(s)");
  });
});

describe("find_usages when one file holds most of the uses", () => {
  const files = heavyUsageFiles();
  const total = HEAVY_USES + 6;

  it("lists every file with its count and kinds, spreads the excerpts, and says how to see the rest", async () => {
    const { ws } = makeWorkspace(root(files), { status: { chunks: 0 } });
    const out = await runFindUsages(ws, { symbolName: HEAVY_SYMBOL });
    expect(out).toContain(`## Usages of \`recordHit\` — ${total} reference(s) in 4 file(s) (definition excluded)`);
    expect(out).toContain(["Files, importers first, tests last:", ...heavyFileList()].join("\n"));
    // Excerpts come in turn from each file, not all from the heavy one.
    expect(out).toContain("Uses 1-30 of 96, taken in turn from each file:");
    expect(out).toContain("### src/server/metrics.ts (typescript) — 1 reference(s)\n>    1 | export { recordHit } from \"../analytics/aggregate\";");
    expect(out).toContain("### src/server/routes.ts (typescript) — 3 reference(s)");
    expect(out).toContain(">    9 |   recordHit(\"/about\");");
    expect(out).toContain("### src/analytics/aggregate.ts (typescript) — 90 reference(s), 24 shown here");
    expect(out).toContain("### test/routes.test.ts (typescript) — 2 reference(s)");
    expect(out).toContain(`66 more uses in 1 file: call find_usages again with the same arguments and offset=30 for the next ones, or with file="src/analytics/aggregate.ts" (no offset) for that file's alone.`);
    expect(out.indexOf("src/server/metrics.ts (typescript)")).toBeLessThan(out.indexOf("src/analytics/aggregate.ts (typescript)"));
    expect(out.indexOf("src/analytics/aggregate.ts (typescript)")).toBeLessThan(out.indexOf("test/routes.test.ts (typescript)"));
  });

  it("pages through the rest with offset, and through one file with file", async () => {
    const { ws } = makeWorkspace(root(files), { status: { chunks: 0 } });
    const next = await runFindUsages(ws, { symbolName: HEAVY_SYMBOL, offset: 30, topK: 50 });
    expect(next).toContain(heavyFileList().join("\n"));
    expect(next).toContain("Uses 31-80 of 96");
    expect(next).toContain("### src/analytics/aggregate.ts (typescript) — 90 reference(s), 50 shown here");
    expect(next).toContain("16 more uses in 1 file: call find_usages again with the same arguments and offset=80");
    const last = await runFindUsages(ws, { symbolName: HEAVY_SYMBOL, offset: 80, topK: 50 });
    expect(last).toContain("Uses 81-96 of 96");
    expect(last).not.toMatch(/more uses? in/);
    // Every use was shown exactly once over the three pages.
    const first = await runFindUsages(ws, { symbolName: HEAVY_SYMBOL });
    const marked = (text: string) => text.match(/^>\s+\d+ \| .*recordHit\(/gm)?.length ?? 0;
    expect(marked(first) + marked(next) + marked(last)).toBe(total - 3);

    const one = await runFindUsages(ws, { symbolName: HEAVY_SYMBOL, file: "src/analytics/aggregate.ts", topK: 40 });
    expect(one).toContain("## Usages of `recordHit` in src/analytics/aggregate.ts — 90 reference(s) (call 90) (definition excluded)");
    expect(one).not.toContain("src/server/routes.ts");
    expect(one).toContain("Uses 1-40 of 90:");
    expect(one).toContain(`50 more uses in this file: call find_usages again with the same arguments and offset=40.`);
    const tail = await runFindUsages(ws, { symbolName: HEAVY_SYMBOL, file: "src/analytics/aggregate.ts", offset: 40, topK: 100 });
    expect(tail).toContain("Uses 41-90 of 90:");
    expect(tail).toContain(`>   97 |   recordHit("route-89");`);
    expect(await runFindUsages(ws, { symbolName: HEAVY_SYMBOL, file: "../outside.ts" })).toMatch(/outside the workspace/);
  });

  it("keeps the whole file list within the token budget by showing fewer excerpts", async () => {
    const { ws } = makeWorkspace(root(files), { status: { chunks: 0 }, config: configWith({ openCode: { toolTokenBudget: 400 } }) });
    const out = await runFindUsages(ws, { symbolName: HEAVY_SYMBOL, topK: 100 });
    expect(countTokens(out)).toBeLessThanOrEqual(400);
    expect(out).toContain(heavyFileList().join("\n"));
    const shown = Number(/Uses 1-(\d+) of 96/.exec(out)?.[1]);
    expect(shown).toBeGreaterThan(0);
    expect(out).toContain(`more uses in`);
    expect(out).toContain(`offset=${shown}`);
  });
});

describe("find_usages on a symbol used in hundreds of files", () => {
  it("counts every file, parsing the first 500 and matching words in the rest, and says so", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 510; i++) files[`src/m${String(i).padStart(3, "0")}.ts`] = `import { tick } from "./clock";\ntick(); // tick\n`;
    const { ws } = makeWorkspace(root(files), { status: { chunks: 0 } });
    const out = await runFindUsages(ws, { symbolName: "tick" });
    // Past the parsed files the comment's mention counts too (10 more): the note says so.
    expect(out).toContain("1,030 reference(s) in 510 file(s)");
    expect(out).toContain("those past the first 500 were counted by whole-word match");
    // The list stays within the budget; the files it has no room for are still counted.
    expect(countTokens(out)).toBeLessThanOrEqual(DEFAULT_CONFIG.openCode.toolTokenBudget);
    expect(out).toContain("- src/m000.ts — 2 (import 1, call 1)");
    const listed = out.match(/^- src\/m\d+\.ts — /gm)!.length;
    const rest = /^- … and (\d+) more files with ([\d,]+) uses \(narrow with pathHint to list them\)$/m.exec(out)!;
    expect(listed + Number(rest[1])).toBe(510);
  }, 60_000);
});
