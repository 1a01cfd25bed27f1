// The manifest on disk: a small JSON header naming a binary file table, read back into the same
// per-file entries; the older one-document form still read and replaced at the next commit.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { emptyManifest, readManifest, readManifestHeader, readManifestInSlices, setEntry, writeManifest, writeManifestInSlices, type Manifest } from "../../core/indexing/manifest.js";

const dirs: string[] = [];
function stateDir(): string {
  const d = mkdtempSync(join(tmpdir(), "rag-manifest-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const hex = (seed: number, len: number) => Array.from({ length: len }, (_, i) => ((seed * 7 + i * 13) % 16).toString(16)).join("");

function sample(files: number): Manifest {
  const m = emptyManifest("local", "code-v1", 256, "fp");
  m.generation = 3;
  m.chunkCount = 0;
  for (let i = 0; i < files; i++) {
    const ids = Array.from({ length: i % 4 }, (_, k) => hex(i * 10 + k, 32));
    m.chunkCount += ids.length;
    m.files[`src/dir ${i % 7}/fïle-${i}.ts`] = { size: 100 + i, mtimeMs: 1_700_000_000_000.5 + i, hash: hex(i, 40), chunkIds: ids };
  }
  m.files["logo.png"] = { size: 9, mtimeMs: 1, hash: hex(99, 40), chunkIds: [], skipped: "binary" };
  m.files["hand-written.ts"] = { size: 1, mtimeMs: 2, hash: "abc", chunkIds: ["not-hex"] };
  return m;
}

const plain = (m: Manifest) => JSON.parse(JSON.stringify(m)) as Manifest;

describe("the manifest on disk", () => {
  it("reads back every entry, field and skip reason it wrote, from a header and a file table", () => {
    const dir = stateDir();
    const m = sample(500);
    writeManifest(dir, m);
    const names = readdirSync(dir).sort();
    expect(names).toEqual([expect.stringMatching(/^manifest-files-3-[0-9a-f]+\.bin$/), "manifest.json"]);
    expect(statSync(join(dir, "manifest.json")).size).toBeLessThan(1000);
    const read = readManifest(dir);
    expect(read.status).toBe("ok");
    if (read.status !== "ok") return;
    expect(plain(read.manifest)).toEqual(plain(m));
    const header = readManifestHeader(dir);
    expect(header.status === "ok" && header.header).toMatchObject({ generation: 3, chunkCount: m.chunkCount, listedFiles: 501 });
  });

  it("written and read in slices, as a background pass does, a table of many entries comes back the same", async () => {
    const dir = stateDir();
    const m = sample(30_000);
    await writeManifestInSlices(dir, m);
    const inSlices = await readManifestInSlices(dir);
    const atOnce = readManifest(dir);
    if (inSlices.status !== "ok" || atOnce.status !== "ok") throw new Error(`${inSlices.status} / ${atOnce.status}`);
    expect(plain(inSlices.manifest)).toEqual(plain(m));
    expect(plain(atOnce.manifest)).toEqual(plain(m));
  });

  it("rewrites entries read from a table, edited or not, and keeps one table per commit", () => {
    const dir = stateDir();
    writeManifest(dir, sample(50));
    const read = readManifest(dir);
    if (read.status !== "ok") throw new Error(read.status);
    const m = read.manifest;
    m.files["src/dir 1/fïle-1.ts"].chunkIds = [hex(5, 32), hex(6, 32)];
    m.files["src/dir 2/fïle-2.ts"].mtimeMs = 42;
    m.files["src/dir 3/fïle-3.ts"].hash = hex(77, 40);
    delete m.files["src/dir 4/fïle-4.ts"];
    m.generation = 4;
    writeManifest(dir, m);
    const expected = plain(m); // after the write, which then copied the unread entries' bytes
    expect(readdirSync(dir).filter((n) => n.startsWith("manifest-files-"))).toHaveLength(1);
    const again = readManifest(dir);
    expect(again.status === "ok" && plain(again.manifest)).toEqual(expected);
  });

  it("writes a table read and left unchanged back byte for byte, and one mixing entries of two tables, edited and new ones, as they read", () => {
    const tableOf = (dir: string) => readFileSync(join(dir, readdirSync(dir).find((n) => n.startsWith("manifest-files-"))!));
    const dir = stateDir();
    writeManifest(dir, sample(300));
    const before = tableOf(dir);
    const read = readManifest(dir);
    if (read.status !== "ok") throw new Error(read.status);
    writeManifest(dir, read.manifest);
    expect(tableOf(dir).equals(before)).toBe(true);

    const other = stateDir();
    const second = sample(40);
    for (const [path, entry] of Object.entries(second.files)) {
      delete second.files[path];
      second.files[`other/${path}`] = { ...entry, hash: entry.hash.length === 40 ? hex(500 + entry.size, 40) : entry.hash };
    }
    writeManifest(other, second);
    const fromOther = readManifest(other);
    const again = readManifest(dir);
    if (fromOther.status !== "ok" || again.status !== "ok") throw new Error("unreadable");
    const m = again.manifest;
    // Runs of unchanged entries broken by an entry of the other table, an edit, a deletion and a new entry.
    // (the other table's entry 8 in this one's place 8: the same index in another table)
    m.files["src/dir 1/fïle-8.ts"] = fromOther.manifest.files["other/src/dir 1/fïle-8.ts"];
    m.files["other/src/dir 6/fïle-13.ts"] = fromOther.manifest.files["other/src/dir 6/fïle-13.ts"];
    m.files["src/dir 2/fïle-100.ts"].chunkIds = [hex(8, 32)];
    delete m.files["src/dir 3/fïle-150.ts"];
    m.files["src/new.ts"] = { size: 5, mtimeMs: 6, hash: hex(3, 40), chunkIds: [hex(4, 32), hex(5, 32)] };
    writeManifest(dir, m);
    // Taken after the write: reading an entry's hash or ids decodes them, and the writer then
    // encodes the strings instead of copying the bytes read.
    const expected = plain(m);
    const last = readManifest(dir);
    expect(last.status === "ok" && plain(last.manifest)).toEqual(expected);
  });

  it("gives back the table a commit wrote, as it is, while the header names it; a later commit's table is read from disk", async () => {
    const dir = stateDir();
    const written = await writeManifestInSlices(dir, sample(40));
    if (!written) throw new Error("no table written");
    const header = readManifestHeader(dir);
    expect(header.status === "ok" && header.header).toMatchObject({ indexedFiles: 31, listedFiles: 41 });
    const taken = await readManifestInSlices(dir, undefined, written);
    if (taken.status !== "ok") throw new Error(taken.status);
    expect(taken.manifest.files).toBe(written.files);
    expect(taken.table).toEqual({ filesFile: written.filesFile, filesBytes: written.filesBytes, deltas: [] });

    // Another writer commits (another process, a recovery): its table, not the one kept.
    const other = sample(40);
    other.generation = 4;
    other.files["src/new.ts"] = { size: 5, mtimeMs: 5, hash: hex(5, 40), chunkIds: [hex(6, 32)] };
    writeManifest(dir, other);
    const read = await readManifestInSlices(dir, undefined, written);
    if (read.status !== "ok") throw new Error(read.status);
    expect(read.manifest.files).not.toBe(written.files);
    expect(plain(read.manifest)).toEqual(plain(other));
    // The one-document form names no table to keep.
    expect(writeManifest(dir, other, { inline: true })).toBeNull();
  });

  it("writes a few edited entries as a delta beside the table, read back with it, and the whole table once the deltas would grow past a quarter of it", () => {
    const dir = stateDir();
    const m = sample(300);
    const base = writeManifest(dir, m)!;
    const names = () => readdirSync(dir).filter((n) => n.startsWith("manifest-files-")).sort();

    // An edit, a removal, a new entry (one named __proto__, a key like any other) and a skip.
    m.generation = 4;
    m.files["src/dir 1/fïle-1.ts"] = { size: 7, mtimeMs: 7, hash: hex(7, 40), chunkIds: [hex(8, 32), hex(9, 32)] };
    delete m.files["src/dir 2/fïle-2.ts"];
    setEntry(m.files, "__proto__", { size: 1, mtimeMs: 1, hash: hex(1, 40), chunkIds: [] });
    m.files["logo.png"].skipped = "too large";
    const paths = new Set(["src/dir 1/fïle-1.ts", "src/dir 2/fïle-2.ts", "__proto__", "logo.png"]);
    const withDelta = writeManifest(dir, m, { edits: { base, paths } })!;
    expect(withDelta.filesFile).toBe(base.filesFile);
    expect(withDelta.deltas).toHaveLength(1);
    expect(names()).toEqual([base.filesFile, withDelta.deltas[0].file].sort());
    const read = readManifest(dir);
    if (read.status !== "ok") throw new Error(read.status);
    expect(plain(read.manifest)).toEqual(plain(m));
    expect(Object.hasOwn(read.manifest.files, "__proto__")).toBe(true);
    expect(read.table).toEqual({ filesFile: base.filesFile, filesBytes: base.filesBytes, deltas: withDelta.deltas });
    const header = readManifestHeader(dir);
    expect(header.status === "ok" && header.header).toMatchObject({ generation: 4, indexedFiles: 225, listedFiles: 301 });

    // Nothing edited (a checkpoint moved): the header alone, naming the same files.
    m.storeCheckpoint = 9;
    const same = writeManifest(dir, m, { edits: { base: withDelta, paths: new Set() } })!;
    expect(same.deltas).toEqual(withDelta.deltas);
    expect(names()).toEqual([base.filesFile, withDelta.deltas[0].file].sort());
    expect(readManifestHeader(dir)).toMatchObject({ status: "ok", header: { storeCheckpoint: 9 } });

    // Every entry edited: past a quarter of the table's bytes, so the whole table, and no delta.
    for (const path of Object.keys(m.files)) m.files[path] = { ...plain(m).files[path], mtimeMs: 5 };
    m.generation = 5;
    const whole = writeManifest(dir, m, { edits: { base: same, paths: new Set(Object.keys(m.files)) } })!;
    expect(whole.filesFile).not.toBe(base.filesFile);
    expect(whole.deltas).toEqual([]);
    expect(names()).toEqual([whole.filesFile]);
    const again = readManifest(dir);
    expect(again.status === "ok" && plain(again.manifest)).toEqual(plain(m));
  });

  it("calls a damaged or missing delta corrupt, and a header that names deltas but not its version's", () => {
    const dir = stateDir();
    const m = sample(300);
    const base = writeManifest(dir, m)!;
    m.files["src/new.ts"] = { size: 3, mtimeMs: 3, hash: hex(3, 40), chunkIds: [] };
    const { deltas } = writeManifest(dir, m, { edits: { base, paths: new Set(["src/new.ts"]) } })!;
    const delta = join(dir, deltas[0].file);
    const text = readFileSync(delta, "utf8");
    writeFileSync(delta, text.replace('"set"', '"sat"'));
    expect(readManifest(dir)).toMatchObject({ status: "corrupt", reason: expect.stringMatching(/file table delta .* is damaged \(an unknown shape\)/) });
    writeFileSync(delta, text.slice(0, -2));
    expect(readManifest(dir)).toMatchObject({ status: "corrupt", reason: expect.stringMatching(/file table delta .* has \d+ bytes, not \d+/) });
    rmSync(delta);
    expect(readManifest(dir)).toMatchObject({ status: "corrupt", reason: expect.stringMatching(/cannot be read/) });
    // A reader of the version without deltas would take the table alone for the whole: refused.
    const header = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    writeFileSync(join(dir, "manifest.json"), JSON.stringify({ ...header, version: 2 }));
    expect(readManifest(dir)).toMatchObject({ status: "corrupt", reason: expect.stringMatching(/unknown shape or version/) });
  });

  it("reads the one-document form, and says which it read", () => {
    const dir = stateDir();
    const m = sample(20);
    writeFileSync(join(dir, "manifest.json"), JSON.stringify(m));
    const read = readManifest(dir);
    expect(read.status === "ok" && read.inline).toBe(true);
    expect(read.status === "ok" && plain(read.manifest)).toEqual(plain(m));
    writeManifest(dir, m, { inline: true });
    expect(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).files["logo.png"].skipped).toBe("binary");
  });

  it("calls a missing, truncated or foreign file table corrupt", () => {
    const dir = stateDir();
    writeManifest(dir, sample(30));
    const table = readdirSync(dir).find((n) => n.startsWith("manifest-files-"))!;
    const bytes = readFileSync(join(dir, table));
    writeFileSync(join(dir, table), bytes.subarray(0, bytes.length - 5));
    expect(readManifest(dir)).toMatchObject({ status: "corrupt", reason: expect.stringMatching(/file table .* has \d+ bytes, not \d+/) });
    writeFileSync(join(dir, table), Buffer.concat([Buffer.from("XXXXXXXX"), bytes.subarray(8)]));
    expect(readManifest(dir)).toMatchObject({ status: "corrupt", reason: expect.stringMatching(/unknown format/) });
    rmSync(join(dir, table));
    expect(readManifest(dir)).toMatchObject({ status: "corrupt", reason: expect.stringMatching(/cannot be read/) });
    expect(existsSync(join(dir, "manifest.json"))).toBe(true);
  });
});
