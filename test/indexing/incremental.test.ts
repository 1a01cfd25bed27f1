// Incremental indexing (F6): a second pass touches only what changed, and every change a
// user makes to the workspace (edit, delete, rename, .gitignore, model) shows up in search.
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOllama } from "../fakes/ollama.js";
import { makePdf } from "../chunking/pdf-writer.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";
import type { Engine } from "../../core/engine-types.js";
import { ConfigError } from "../../core/config/validate.js";
import { openEngine } from "../../core/engine.js";
import { engineFor, hitPaths, KEYWORD_ONLY, makeWorkspace, ollamaOverrides, removeWorkspace, tsFunction, writeFiles } from "./helpers.js";
import { KEYWORD_DELTA_MAX_FILES, KEYWORD_DELTA_MAX_OPS } from "../../core/indexing/keyword-files.js";

let ollama: FakeHttpServer;
const roots: string[] = [];
const engines: Engine[] = [];

beforeAll(async () => {
  ollama = await startFakeOllama({ models: { "embed-a": 32, "embed-b": 48 } });
});
afterAll(async () => {
  await ollama.close();
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const r of roots.splice(0)) removeWorkspace(r);
});

async function setup(files: Record<string, string | Uint8Array>, model = "embed-a", extra: Record<string, unknown> = {}) {
  const root = makeWorkspace(files);
  roots.push(root);
  const engine = await engineFor(root, ollamaOverrides(ollama.url, model, extra));
  engines.push(engine);
  return { root, engine };
}

const embedCalls = () => ollama.requestsTo("/api/embed").length;
const embeddedTexts = () => ollama.requestsTo("/api/embed").flatMap((r) => (r.body as { input: string[] }).input);

const base = {
  "src/alpha.ts": tsFunction("computeAlphaChecksum", "alpha checksum over the ledger"),
  "src/beta.ts": tsFunction("renderBetaWidget", "beta widget rendering"),
  "src/gamma.py": "def gamma_parser(text):\n    \"\"\"Parses gamma records.\"\"\"\n    return text.split(',')\n",
  "README.md": "# Project\n\nThe project computes checksums and renders widgets.\n",
};

describe("incremental indexing", () => {
  it("indexes everything once, then skips unchanged files without reading them", async () => {
    const { engine } = await setup(base);
    const first = await engine.index();
    expect(first.filesIndexed).toBe(4);
    expect(first.chunksAdded).toBeGreaterThanOrEqual(4);
    expect(first.rebuildReason).toBeNull();
    const callsAfterFirst = embedCalls();

    const second = await engine.index();
    expect(second).toMatchObject({ filesIndexed: 0, filesUnchanged: 4, bytesRead: 0, chunksAdded: 0, chunksRemoved: 0 });
    expect(embedCalls()).toBe(callsAfterFirst);
    expect(await hitPaths(engine, "computeAlphaChecksum")).toContain("src/alpha.ts");
  });

  it("a touched file with identical content is read but not re-chunked or re-embedded", async () => {
    const { root, engine } = await setup(base);
    await engine.index();
    const calls = embedCalls();
    const future = new Date(Date.now() + 5000);
    utimesSync(join(root, "src/alpha.ts"), future, future);
    const s = await engine.index();
    expect(s).toMatchObject({ filesIndexed: 0, chunksAdded: 0, chunksRemoved: 0 });
    expect(s.bytesRead).toBeGreaterThan(0);
    expect(embedCalls()).toBe(calls);
    // ...and the new mtime is recorded: the next pass does not read it again.
    expect((await engine.index()).bytesRead).toBe(0);
  });

  it("re-indexes an edited file: new content is found, old content is gone", async () => {
    const { root, engine } = await setup(base);
    await engine.index();
    writeFileSync(join(root, "src/beta.ts"), tsFunction("paintGammaCanvas", "canvas painting replaces the widget"));
    const s = await engine.index();
    expect(s).toMatchObject({ filesIndexed: 1, filesUnchanged: 3 });
    expect(s.chunksRemoved).toBeGreaterThanOrEqual(1);
    expect((await hitPaths(engine, "paintGammaCanvas"))[0]).toBe("src/beta.ts");
    // No stored chunk holds the old function any more.
    const old = await engine.search("renderBetaWidget", { topK: 10 });
    expect(old.filter((r) => r.chunk.content.includes("renderBetaWidget"))).toEqual([]);
  });

  it("never re-embeds an unchanged chunk whose lines moved (content-hash cache)", async () => {
    const big = Array.from({ length: 6 }, (_, i) => tsFunction(`handler${i}Process`, `handler ${i} does step ${i} of the pipeline ${"x".repeat(200)}`)).join("\n");
    const { root, engine } = await setup({ "src/handlers.ts": big });
    const first = await engine.index();
    expect(first.chunksAdded).toBeGreaterThan(1);
    const before = embeddedTexts().length;
    // Two lines added at the top shift every chunk: new ids, same texts.
    writeFileSync(join(root, "src/handlers.ts"), "// header\n\n" + big);
    const s = await engine.index();
    expect(s.filesIndexed).toBe(1);
    expect(s.chunksFromCache).toBeGreaterThan(0);
    const newlyEmbedded = embeddedTexts().slice(before);
    expect(newlyEmbedded.length).toBe(s.chunksEmbedded);
    expect(s.chunksEmbedded).toBeLessThan(s.chunksAdded);
    expect(newlyEmbedded.some((t) => t.includes("handler5Process"))).toBe(false);
  });

  it("removes a deleted file's chunks", async () => {
    const { root, engine } = await setup(base);
    await engine.index();
    rmSync(join(root, "src/gamma.py"));
    const s = await engine.index();
    expect(s.filesDeleted).toBe(1);
    expect(await hitPaths(engine, "gamma_parser")).not.toContain("src/gamma.py");
    expect((await engine.status()).files).toBe(3);
  });

  it("follows a rename: the old path disappears, the new one is found", async () => {
    const { root, engine } = await setup(base);
    await engine.index();
    renameSync(join(root, "src/alpha.ts"), join(root, "src/checksum.ts"));
    const s = await engine.index();
    expect(s).toMatchObject({ filesIndexed: 1, filesDeleted: 1 });
    const hits = await hitPaths(engine, "computeAlphaChecksum");
    expect(hits[0]).toBe("src/checksum.ts");
    expect(hits).not.toContain("src/alpha.ts");
  });

  it("drops files that a new .gitignore rule excludes, and brings them back when it goes", async () => {
    const { root, engine } = await setup(base);
    await engine.index();
    writeFiles(root, { ".gitignore": "src/beta.ts\n" });
    await engine.index();
    expect(await hitPaths(engine, "renderBetaWidget")).not.toContain("src/beta.ts");
    rmSync(join(root, ".gitignore"));
    await engine.index();
    expect(await hitPaths(engine, "renderBetaWidget")).toContain("src/beta.ts");
  });

  it("skips binary files and remembers them, so they are not read again while unchanged", async () => {
    const { engine } = await setup({ ...base, "assets/blob.xyz": new Uint8Array([1, 2, 0, 3, 4, 0, 5]) });
    const s = await engine.index();
    expect(s.filesIndexed).toBe(4);
    expect(s.filesSkipped).toBe(1);
    expect((await engine.index()).bytesRead).toBe(0);
  });

  it("indexes PDFs through their own handler (text extracted from the bytes)", async () => {
    const pdf = makePdf([["Quarterly revenue report", "Revenue grew in the northern region."]]);
    const { engine } = await setup({ ...base, "docs/report.pdf": pdf });
    const s = await engine.index();
    expect(s.filesIndexed).toBe(5);
    const hits = await engine.search("northern region revenue", { topK: 3, mode: "keyword" });
    expect(hits[0]?.chunk.filePath).toBe("docs/report.pdf");
    expect(hits[0]?.chunk.content).toContain("northern region");
  });

  it("rebuilds cleanly with a clear reason when the embedding model changes", async () => {
    const { root, engine } = await setup(base, "embed-a");
    await engine.index();
    expect((await engine.status()).dimension).toBe(32);
    await engine.close();
    engines.pop();
    const other = await engineFor(root, ollamaOverrides(ollama.url, "embed-b"));
    engines.push(other);
    const s = await other.index();
    expect(s.rebuildReason).toMatch(/embedding model changed.*embed-a.*embed-b/);
    expect(s.filesIndexed).toBe(4);
    const status = await other.status();
    expect(status.dimension).toBe(48);
    expect(status.chunks).toBe(s.chunksAdded);
    expect(await hitPaths(other, "computeAlphaChecksum")).toContain("src/alpha.ts");
  });

  it("rebuilds when chunking settings change", async () => {
    const { root, engine } = await setup(base);
    await engine.index();
    await engine.close();
    engines.pop();
    const other = await engineFor(root, ollamaOverrides(ollama.url, "embed-a", { chunking: { maxLines: 40 } }));
    engines.push(other);
    expect((await other.index()).rebuildReason).toMatch(/chunking settings changed/);
  });

  it("rebuilds over a corrupt manifest and over a missing one, and search works afterwards", async () => {
    const { engine } = await setup(base);
    await engine.index();
    const manifest = join(engine.stateDir, "manifest.json");
    writeFileSync(manifest, readFileSync(manifest, "utf8").slice(0, 50));
    expect((await engine.status()).manifestStatus).toBe("corrupt");
    const s = await engine.index();
    expect(s.rebuildReason).toMatch(/manifest is corrupt/);
    expect(s.filesIndexed).toBe(4);
    expect((await engine.status()).chunks).toBe(s.chunksAdded);

    rmSync(manifest);
    const again = await engine.index();
    expect(again.rebuildReason).toMatch(/manifest is missing but the store has rows/);
    expect((await engine.status()).chunks).toBe(again.chunksAdded);
    expect(await hitPaths(engine, "gamma_parser")).toContain("src/gamma.py");
  });

  it("a cancelled pass leaves the previous index as it was", async () => {
    const { root, engine } = await setup(base);
    const first = await engine.index();
    writeFiles(root, { "src/alpha.ts": tsFunction("alphaCancelledEdit", "never committed") });
    const controller = new AbortController();
    const pass = engine.index({
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === "chunking") controller.abort();
      },
    });
    await expect(pass).rejects.toThrow(/cancelled/);
    const st = await engine.status();
    expect(st).toMatchObject({ manifestStatus: "ok", chunks: first.chunksAdded, pendingFiles: 1 });
    expect(await hitPaths(engine, "computeAlphaChecksum")).toContain("src/alpha.ts");
    expect((await engine.index()).filesIndexed).toBe(1);
  });

  it("--force rebuilds everything", async () => {
    const { engine } = await setup(base);
    const first = await engine.index();
    const s = await engine.index({ force: true });
    expect(s.rebuildReason).toMatch(/rebuild was requested/);
    expect(s.filesIndexed).toBe(4);
    expect((await engine.status()).chunks).toBe(first.chunksAdded);
  });

  it("only looks at the given paths in a partial pass (watch mode)", async () => {
    const { root, engine } = await setup(base);
    await engine.index();
    writeFiles(root, { "src/alpha.ts": tsFunction("alphaRenamedThing", "x"), "src/delta.ts": tsFunction("deltaNewThing", "y") });
    const s = await engine.index({ onlyPaths: ["src/delta.ts"] });
    expect(s).toMatchObject({ filesScanned: 1, filesIndexed: 1 });
    expect(await hitPaths(engine, "deltaNewThing")).toContain("src/delta.ts");
    // alpha was not looked at; a full pass picks it up.
    expect((await engine.status()).pendingFiles).toBe(1);
    expect((await engine.index()).filesIndexed).toBe(1);
  });

  it("treats an existing folder among the given paths as a full pass, never as a deletion", async () => {
    const { root, engine } = await setup(base);
    await engine.index();
    writeFiles(root, { "src/epsilon.ts": tsFunction("epsilonInFolder", "e") });
    const s = await engine.index({ onlyPaths: ["src"] });
    expect(s.filesDeleted).toBe(0);
    expect(s.filesIndexed).toBe(1);
    expect((await engine.status()).files).toBe(5);
  });

  it("persists small passes as keyword deltas that a new process replays, folding them into a snapshot in time", async () => {
    const { root, engine } = await setup(base);
    await engine.index();
    writeFileSync(join(root, "src/alpha.ts"), tsFunction("alphaSecondVersion", "second"));
    await engine.index();
    rmSync(join(root, "src/gamma.py"));
    await engine.index();
    const manifest = () => JSON.parse(readFileSync(join(engine.stateDir, "manifest.json"), "utf8"));
    expect(manifest().keywordDeltas).toHaveLength(2);

    const fresh = await engineFor(root, ollamaOverrides(ollama.url, "embed-a"));
    engines.push(fresh);
    const kw = async (q: string) => (await fresh.search(q, { topK: 10, mode: "keyword" })).filter((r) => r.chunk.content.includes(q)).map((r) => r.chunk.filePath);
    expect(await kw("alphaSecondVersion")).toEqual(["src/alpha.ts"]);
    expect(await kw("computeAlphaChecksum")).toEqual([]);
    expect(await kw("gamma_parser")).toEqual([]);
    expect(await kw("renderBetaWidget")).toEqual(["src/beta.ts"]);

    for (let i = 0; i < KEYWORD_DELTA_MAX_FILES; i++) {
      writeFileSync(join(root, "src/beta.ts"), tsFunction(`betaVersion${i}`, "again"));
      await engine.index();
    }
    expect(manifest().keywordDeltas.length).toBeLessThanOrEqual(KEYWORD_DELTA_MAX_FILES);
    const files = readdirSync(engine.stateDir).filter((f) => f.startsWith("keyword-"));
    expect(files.sort()).toEqual([manifest().keywordFile, ...manifest().keywordDeltas].sort());
    const third = await engineFor(root, ollamaOverrides(ollama.url, "embed-a"));
    engines.push(third);
    expect((await third.search(`betaVersion${KEYWORD_DELTA_MAX_FILES - 1}`, { topK: 3, mode: "keyword" }))[0]?.chunk.filePath).toBe("src/beta.ts");
  });

  it("writes a snapshot instead of a delta when the deltas to replay would pass KEYWORD_DELTA_MAX_BYTES", async () => {
    const root = makeWorkspace(base);
    roots.push(root);
    const engine = await engineFor(root, KEYWORD_ONLY);
    engines.push(engine);
    await engine.index();
    const manifest = () => JSON.parse(readFileSync(join(engine.stateDir, "manifest.json"), "utf8"));
    const firstSnapshot = manifest().keywordFile;
    // Three files of ~0.8 MB: under 2,000 keyword changes, but a delta past 2 MB.
    const bulky = (n: number) => Array.from({ length: 400 }, (_, i) => tsFunction(`bulk${n}Handler${i}`, `ledger ${i} `.repeat(200))).join("\n");
    writeFiles(root, { "src/bulk0.ts": bulky(0), "src/bulk1.ts": bulky(1), "src/bulk2.ts": bulky(2) });
    const big = await engine.index();
    expect(big.chunksAdded).toBeLessThan(KEYWORD_DELTA_MAX_OPS);
    expect(manifest().keywordDeltas).toEqual([]);
    expect(manifest().keywordFile).not.toBe(firstSnapshot);
    // A small pass after it writes a delta again.
    writeFileSync(join(root, "src/alpha.ts"), tsFunction("alphaAfterBulk", "small"));
    await engine.index();
    expect(manifest().keywordDeltas).toHaveLength(1);
    const fresh = await engineFor(root, KEYWORD_ONLY);
    engines.push(fresh);
    expect(await hitPaths(fresh, "bulk1Handler321")).toContain("src/bulk1.ts");
    expect(await hitPaths(fresh, "alphaAfterBulk")).toContain("src/alpha.ts");
  });

  it("writes a snapshot instead of a delta whose removals would make every opening process merge the index", async () => {
    const bulky = (n: number) => Array.from({ length: 400 }, (_, i) => tsFunction(`bulk${n}Handler${i}`, `ledger ${i} `.repeat(200))).join("\n");
    const root = makeWorkspace({ ...base, "src/bulk0.ts": bulky(0), "src/bulk1.ts": bulky(1), "src/bulk2.ts": bulky(2) });
    roots.push(root);
    const engine = await engineFor(root, KEYWORD_ONLY);
    engines.push(engine);
    const first = await engine.index();
    expect(first.chunksAdded).toBeGreaterThan(1200);
    const manifest = () => JSON.parse(readFileSync(join(engine.stateDir, "manifest.json"), "utf8"));
    const firstSnapshot = manifest().keywordFile;
    // Over 1,000 removals and most of the chunks: few keyword changes, a small delta, but its
    // replay would decode every posting of the snapshot.
    for (const n of [0, 1, 2]) rmSync(join(root, `src/bulk${n}.ts`));
    const removal = await engine.index();
    expect(removal.chunksRemoved).toBeGreaterThan(1000);
    expect(removal.chunksRemoved).toBeLessThan(KEYWORD_DELTA_MAX_OPS);
    expect(manifest().keywordDeltas).toEqual([]);
    expect(manifest().keywordFile).not.toBe(firstSnapshot);
    // Removing one small file after it writes a delta again.
    rmSync(join(root, "src/gamma.py"));
    await engine.index();
    expect(manifest().keywordDeltas).toHaveLength(1);
    const fresh = await engineFor(root, KEYWORD_ONLY);
    engines.push(fresh);
    expect(await hitPaths(fresh, "bulk1Handler321")).toEqual([]);
    expect(await hitPaths(fresh, "gamma_parser")).toEqual([]);
    expect(await hitPaths(fresh, "computeAlphaChecksum")).toContain("src/alpha.ts");
  });

  it("replays a delta over a snapshot of thousands of terms as a full pass would have indexed it", async () => {
    // Loaded terms are numbered in string order, so most of a real index's words have high ids;
    // an edit made only of words the snapshot knows must keep every one of them.
    const word = (n: number) => `lexeme${n.toString(36)}`;
    const files: Record<string, string> = {};
    for (let f = 0; f < 150; f++) files[`src/m${f}.ts`] = tsFunction(`handler${f}`, Array.from({ length: 20 }, (_, k) => word(f * 20 + k)).join(" "));
    const { root, engine } = await setup(files);
    await engine.index();
    const known = [word(7), word(1234), word(2950)];
    writeFileSync(join(root, "src/m42.ts"), tsFunction("handler42", known.join(" ")));
    await engine.index();
    const replayed = await engineFor(root, ollamaOverrides(ollama.url, "embed-a"));
    engines.push(replayed);
    const hits = await replayed.search(known.join(" "), { topK: 3, mode: "keyword" });
    expect(hits[0]?.chunk.filePath).toBe("src/m42.ts");
    // the same scores as an index built in one pass from the workspace as it now is
    const { engine: once } = await setup({ ...files, "src/m42.ts": tsFunction("handler42", known.join(" ")) });
    await once.index();
    const fromScratch = await once.search(known.join(" "), { topK: 3, mode: "keyword" });
    expect(hits.map((h) => [h.chunk.filePath, h.score])).toEqual(fromScratch.map((h) => [h.chunk.filePath, h.score]));
  });

  it("reports status: files, chunks, manifest, pending files", async () => {
    const { root, engine } = await setup(base);
    const before = await engine.status();
    expect(before.manifestStatus).toBe("missing");
    const s = await engine.index();
    const st = await engine.status();
    expect(st).toMatchObject({ manifestStatus: "ok", files: 4, chunks: s.chunksAdded, pendingFiles: 0, upToDateFiles: 4, provider: "ollama", model: "embed-a", keywordOnlyReason: null, indexing: null });
    expect(st.lastIndexedAt).not.toBeNull();
    writeFiles(root, { "src/new.ts": "export const x = 1;\n" });
    expect((await engine.status()).pendingFiles).toBe(1);
  });

  it("status shows a running pass's progress, from the shared progress file", async () => {
    const { engine } = await setup(base);
    let during: Promise<unknown> | null = null;
    await engine.index({
      onProgress: (p) => {
        if (p.phase === "chunking" && !during) during = engine.status({ countPending: false });
      },
    });
    expect(await during).toMatchObject({ indexing: { filesDone: 0, filesTotal: 4 } });
    expect((await engine.status()).indexing).toBeNull();
  });

  it("clear removes the index", async () => {
    const { engine } = await setup(base);
    await engine.index();
    await engine.clear();
    const st = await engine.status();
    expect(st).toMatchObject({ manifestStatus: "missing", chunks: 0 });
    const s = await engine.index();
    expect(s.filesIndexed).toBe(4);
    expect(s.rebuildReason).toBeNull();
  });
});

describe("configuration errors", () => {
  it("names the bad key and the expected type", async () => {
    const root = makeWorkspace({ "opencode-rag.json": JSON.stringify({ retrieval: { topK: "ten" } }) });
    roots.push(root);
    await expect(openEngine({ root })).rejects.toThrow(ConfigError);
    await expect(openEngine({ root })).rejects.toThrow(/"retrieval.topK" must be a number/);
  });

  it("rejects unknown keys in overrides", async () => {
    const root = makeWorkspace({});
    roots.push(root);
    await expect(openEngine({ root, overrides: { indexing: { maxFileSize: 10 } } })).rejects.toThrow(/unknown key "indexing.maxFileSize"/);
  });
});
