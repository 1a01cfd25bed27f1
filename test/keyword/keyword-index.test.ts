import { describe, expect, test } from "vitest";
import { KeywordIndex, type KeywordDoc } from "../../core/keyword/index.js";

function doc(id: string, text: string, extra: Partial<KeywordDoc> = {}): KeywordDoc {
  return { id, text, filePath: `src/${id}.ts`, language: "typescript", kind: "function", symbol: "", ...extra };
}

const corpus: KeywordDoc[] = [
  doc("batch", "export function embedInBatches(texts: string[], batchSize: number) { /* splits texts into batches */ }", { symbol: "embedInBatches" }),
  doc("user", "function getUserById(id: string) { return db.users.find(id); }", { symbol: "getUserById" }),
  doc("userCache", "const cache = new Map(); // caches the user lookup from getUserById", { symbol: "cache", kind: "variable" }),
  doc("parse", "def parse_config(path):\n    return json.load(open(path))", { symbol: "parse_config", language: "python", filePath: "tools/parse.py" }),
  doc("readme", "The configuration file is parsed at startup.", { kind: "paragraph", language: "markdown", filePath: "docs/README.md" }),
  doc("quirk", "getUserById returns undefined for deleted users", { kind: "quirk", filePath: "src/user.ts" }),
];

function build(docs = corpus): KeywordIndex {
  const index = new KeywordIndex();
  index.add(docs);
  return index;
}

describe("KeywordIndex search", () => {
  test("the chunk defining a named identifier ranks first, then chunks that mention it", () => {
    const hits = build().search("getUserById", 10);
    expect(hits.map((h) => h.id)).toEqual(["user", "userCache"]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });

  test("words of an identifier find it in any naming convention", () => {
    expect(build().search("get user by id", 3)[0].id).toBe("user");
    expect(build().search("parseConfig", 3)[0].id).toBe("parse");
    expect(build().search("embed batches", 3)[0].id).toBe("batch");
  });

  test("rarer terms weigh more than common ones (IDF)", () => {
    const index = build([doc("a", "alpha common common"), doc("b", "beta common"), doc("c", "common gamma"), doc("d", "common delta")]);
    expect(index.search("common beta", 4)[0].id).toBe("b");
  });

  test("repeated terms help but saturate, and shorter chunks win ties of content", () => {
    const index = build([doc("long", "token " + "filler words here ".repeat(30)), doc("short", "token here"), doc("none", "nothing")]);
    expect(index.search("token", 3).map((h) => h.id)).toEqual(["short", "long"]);
  });

  test("scores are in [0,1] and a chunk holding the whole query scores well above a partial match", () => {
    const hits = build().search("parse config path startup", 10);
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(h.score).toBeGreaterThan(0), expect(h.score).toBeLessThanOrEqual(1);
    expect(hits[0]).toMatchObject({ id: "parse" });
    expect(hits[0].score).toBeGreaterThan(0.5);
    expect(hits.length).toBeGreaterThan(1);
    expect(hits.at(-1)!.score).toBeLessThan(hits[0].score);
  });

  test("quirks are hidden unless asked for; filters narrow by path, language and kind", () => {
    const index = build();
    expect(index.search("deleted users", 10).map((h) => h.id)).not.toContain("quirk");
    expect(index.search("deleted users", 10, { kinds: ["quirk"] }).map((h) => h.id)).toEqual(["quirk"]);
    expect(index.search("config", 10, { languages: ["python"] }).map((h) => h.id)).toEqual(["parse"]);
    expect(index.search("configuration", 10, { pathPrefixes: ["./docs/"] }).map((h) => h.id)).toEqual(["readme"]);
    expect(index.search("getUserById", 10, { kinds: ["variable"] }).map((h) => h.id)).toEqual(["userCache"]);
  });

  test("scores stay positive while removed documents still hold postings", () => {
    const index = build([doc("a", "shared term"), doc("b", "shared term"), doc("c", "shared term")]);
    index.removeIds(["a", "b"]); // too few to trigger a merge: their postings linger
    const hits = index.search("shared", 5);
    expect(hits.map((h) => h.id)).toEqual(["c"]);
    expect(hits[0].score).toBeGreaterThan(0);
    expect(hits[0].score).toBeLessThanOrEqual(1);
  });

  test("topK bounds the result and unknown words match nothing", () => {
    expect(build().search("user", 1)).toHaveLength(1);
    expect(build().search("zzzunknown", 10)).toEqual([]);
    expect(build().search("", 10)).toEqual([]);
  });

  test("chunks declaring a name the query asks for join the best topK, however many chunks use the name more", () => {
    const users = Array.from({ length: 40 }, (_, i) => doc(`use${i}`, `val transaction = Transaction(db) // transaction ${i} uses a Transaction, transaction again`, { symbol: `run${i}` }));
    const declaring = doc("decl", "abstract class Transaction : UserDataHolder(), TransactionInterface {\n  abstract val db: Database\n  " + "val statements = mutableListOf<String>()\n  ".repeat(20) + "}", {
      symbol: "Transaction",
      kind: "class",
      declares: ["Transaction"],
    });
    const index = build([...users, declaring]);
    expect(index.search("Transaction", 10).map((h) => h.id)).not.toContain("decl");
    const hits = index.search("Transaction", 10, undefined, ["transaction"]);
    expect(hits).toHaveLength(11);
    expect(hits.map((h) => h.id)).toContain("decl");
    // In BM25 order among the rest: the declaration keeps its own (low) score.
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    // A qualified name is found by its last part too; a label that is no name declares nothing.
    const ext = build([...users, doc("ext", "fun Table.json(name: String) = registerColumn(name)", { symbol: "Table.json", declares: ["Table.json"] }), doc("impl", "impl IntoResponse for Json<T> { fn into_response(self) }", { kind: "impl", declares: ["IntoResponse for Json<T>"] })]);
    expect(ext.search("json", 5, undefined, ["json"]).map((h) => h.id)).toContain("ext");
    expect(ext.search("IntoResponse", 1, undefined, ["intoresponse"]).map((h) => h.id)).toEqual(["impl"]);
    expect(ext.search("Transaction", 3, undefined, ["intoresponse"]).map((h) => h.id)).not.toContain("impl");
  });

  test("a declaration is not a word: it leaves scores and lengths as they were", () => {
    const plain = build([doc("a", "retry the request"), doc("b", "retry later", { symbol: "Retry" })]);
    const declared = build([doc("a", "retry the request"), doc("b", "retry later", { symbol: "Retry", declares: ["Retry"] })]);
    expect(declared.search("retry request", 5)).toEqual(plain.search("retry request", 5));
    // Query text cannot reach a declaration term: "=retry" is the word "retry".
    expect(declared.search("=retry", 5)).toEqual(declared.search("retry", 5));
  });

  test("a search between additions sees the documents added after it", () => {
    const index = build();
    expect(index.search("getUserById", 10).map((h) => h.id)).toEqual(["user", "userCache"]);
    index.add([doc("later", "getUserById getUserById called again later")]);
    expect(index.search("getUserById", 10).map((h) => h.id)).toContain("later");
    expect(index.search("called again", 10).map((h) => h.id)).toEqual(["later"]);
  });

  test("removing and re-adding documents keeps search exact", () => {
    const index = build();
    index.removeIds(["user"]);
    expect(index.size).toBe(corpus.length - 1);
    expect(index.search("getUserById", 10).map((h) => h.id)).toEqual(["userCache"]);
    index.add([doc("userCache", "unrelated text now", { filePath: "src/other.ts" })]); // same id: replaces
    expect(index.size).toBe(corpus.length - 1);
    expect(index.search("getUserById", 10)).toEqual([]);
    index.removeFilePaths(["tools/parse.py"]);
    expect(index.has("parse")).toBe(false);
  });
});

describe("KeywordIndex row hints", () => {
  test("give each hit's place among the live documents in the order they were added", () => {
    const index = new KeywordIndex();
    const doc = (i: number): KeywordDoc => ({ id: `d${i}`, text: `rowhint shared term ${i}`, filePath: `src/f${i}.ts`, language: "typescript", kind: "function", symbol: "" });
    index.add(Array.from({ length: 10 }, (_, i) => doc(i)));
    const order = (ids: string[]) => new Map(ids.map((id, i) => [id, i]));
    let live = order(Array.from({ length: 10 }, (_, i) => `d${i}`));
    for (const h of index.search("rowhint", 20)) expect(h.row, h.id).toBe(live.get(h.id));
    // removals shift the later rows down; an addition comes last
    index.removeIds(["d2", "d5"]);
    index.add([doc(10)]);
    live = order(["d0", "d1", "d3", "d4", "d6", "d7", "d8", "d9", "d10"]);
    const hits = index.search("rowhint", 20);
    expect(hits).toHaveLength(9);
    for (const h of hits) expect(h.row, h.id).toBe(live.get(h.id));
    // and stay so across a merge and a round trip
    const loaded = KeywordIndex.deserialize(index.serialize());
    for (const h of loaded.search("rowhint", 20)) expect(h.row, h.id).toBe(live.get(h.id));
  });
});

describe("KeywordIndex serialization", () => {
  test("round trip gives identical results, including after removals and merges", () => {
    const index = build();
    index.removeIds(["batch"]);
    index.add([doc("late", "late addition mentions getUserById once")]);
    const bytes = index.serialize();
    const copy = KeywordIndex.deserialize(bytes);
    expect(copy.size).toBe(index.size);
    for (const q of ["getUserById", "config", "deleted users", "late addition", "embed batches"]) {
      expect(copy.search(q, 10)).toEqual(index.search(q, 10));
      expect(copy.search(q, 10, { kinds: ["quirk", "function"] })).toEqual(index.search(q, 10, { kinds: ["quirk", "function"] }));
    }
    // Declarations survive the round trip (and a removed document's are gone with it).
    index.add(Array.from({ length: 12 }, (_, i) => doc(`caller${i}`, `getUserById(getUserById(id${i}))`)));
    index.add([doc("decl", "export function getUserById(id) { return db.find(id) }", { declares: ["getUserById"] })]);
    const again = KeywordIndex.deserialize(index.serialize());
    expect(again.search("getUserById", 3, undefined, ["getuserbyid"]).map((h) => h.id)).toContain("decl");
    expect(again.search("getUserById", 3, undefined, ["getuserbyid"])).toEqual(index.search("getUserById", 3, undefined, ["getuserbyid"]));
    again.removeIds(["decl"]);
    expect(again.search("getUserById", 3, undefined, ["getuserbyid"]).map((h) => h.id)).not.toContain("decl");
    // The copy stays fully usable.
    copy.add([doc("more", "getUserById again")]);
    expect(copy.search("getUserById", 10).map((h) => h.id)).toContain("more");
  });

  test("an empty index round-trips, and empty metadata values survive", () => {
    expect(KeywordIndex.deserialize(new KeywordIndex().serialize()).size).toBe(0);
    const index = build([doc("x", "some words", { language: "", symbol: "" })]);
    expect(KeywordIndex.deserialize(index.serialize()).search("words", 5, { languages: [""] })).toHaveLength(1);
  });

  test("a large index merges in the background of add() and matches a fresh build", () => {
    const docs: KeywordDoc[] = [];
    for (let i = 0; i < 3000; i++) {
      docs.push(doc(`d${i}`, `function handler${i % 97}(request${i % 13}) { return respondWith(status${i % 7}, payload${i}) }`));
    }
    const incremental = new KeywordIndex();
    for (let i = 0; i < docs.length; i += 100) incremental.add(docs.slice(i, i + 100));
    incremental.removeIds(docs.slice(0, 1500).map((d) => d.id)); // forces a compacting merge
    const fresh = build(docs.slice(1500));
    for (const q of ["handler5 status3", "payload2999", "request7 respondWith"]) {
      expect(incremental.search(q, 20)).toEqual(fresh.search(q, 20));
    }
  });

  test("corrupt or truncated data fails with a clear error", () => {
    const bytes = build().serialize();
    expect(() => KeywordIndex.deserialize(bytes.subarray(0, bytes.length - 10))).toThrow(/keyword index data is corrupt.*re-index/);
    expect(() => KeywordIndex.deserialize(new TextEncoder().encode("{\"json\": true}"))).toThrow(/corrupt/);
  });
});

describe("KeywordIndex loaded from bytes", () => {
  test("small and large additions to a loaded index find old and new terms alike", () => {
    const loaded = KeywordIndex.deserialize(build().serialize());
    loaded.add([doc("fresh", "zebraCrossing near parse_config")]);
    expect(loaded.search("zebra crossing", 5).map((h) => h.id)).toEqual(["fresh"]);
    expect(loaded.search("parse_config", 5).map((h) => h.id).slice(0, 2)).toEqual(["parse", "fresh"]);
    // A large batch switches the loaded index to its full term map; results stay exact.
    const many = Array.from({ length: 300 }, (_, i) => doc(`m${i}`, `filler${i} common words ${i % 2 ? "zebraCrossing" : ""}`));
    loaded.add(many);
    const fresh = build([...corpus, doc("fresh", "zebraCrossing near parse_config"), ...many]);
    for (const q of ["zebra crossing", "parse_config", "getUserById", "filler17 common"]) {
      expect(loaded.search(q, 10)).toEqual(fresh.search(q, 10));
    }
    // And survives another round trip.
    const again = KeywordIndex.deserialize(loaded.serialize());
    expect(again.search("zebra crossing", 10)).toEqual(fresh.search("zebra crossing", 10));
  });

  test("a document added to a loaded index of thousands of terms counts every term it holds", () => {
    // Loaded terms are numbered by string order, so most of a real index's words have high ids.
    const words = Array.from({ length: 3000 }, (_, i) => `word${i.toString(36)}`);
    const base = Array.from({ length: 300 }, (_, i) => doc(`b${i}`, words.slice(i * 10, i * 10 + 10).join(" ")));
    // known words first: a new word (here the path's) must not be what makes room for them
    const edited = doc("edited", "wordzz word2a word1 wordzz");
    const loaded = KeywordIndex.deserialize(build(base).serialize());
    loaded.add([edited]);
    const fresh = build([...base, edited]);
    for (const q of ["wordzz", "word2a edited", "word1"]) {
      expect(loaded.search(q, 3).map((h) => h.id), q).toContain("edited");
      expect(loaded.search(q, 3)).toEqual(fresh.search(q, 3));
    }
  });
});

describe("KeywordIndex term counting", () => {
  test("a document scores the same whatever identifiers the index saw before it", () => {
    // Identifiers repeat across documents (and add() remembers their terms): the same document
    // added to a fresh index, to one that saw its identifiers in other documents, and to a
    // loaded one (terms found by binary search) must score the same for every query.
    const target = doc("t", "getUserById(getUserById); parse_config user_id HTTPServer http_server café naïve");
    const others = [doc("o1", "getUserById HTTPServer parse_config"), doc("o2", "user_id café")];
    const a = build([...others, target]);
    const b = new KeywordIndex();
    for (const d of others) b.add([d]);
    const c = KeywordIndex.deserialize(b.serialize());
    b.add([target]);
    c.add([target]);
    for (const q of ["get user by id", "getUserById", "http server", "parse config", "user id", "café", "naïve"]) {
      const expected = a.search(q, 5);
      expect(expected.map((h) => h.id), q).toContain("t");
      expect(b.search(q, 5), q).toEqual(expected);
      expect(c.search(q, 5), q).toEqual(expected);
    }
  });
});

describe("KeywordIndex file format", () => {
  test("a file of another format version is refused, not misread", () => {
    const bytes = build().serialize();
    const other = bytes.slice();
    other[4] = 1; // the version byte after "OCRK"
    expect(() => KeywordIndex.deserialize(other)).toThrow(/format version 1, expected \d/);
  });
});

describe("KeywordIndex file scores", () => {
  const at = (id: string, filePath: string, text: string): KeywordDoc => ({ id, text, filePath, language: "python", kind: "function", symbol: "" });
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `other_${i} value`).join("\n");

  test("scores a file as a whole: words split over two of its chunks count together", () => {
    const index = new KeywordIndex();
    index.add([at("a1", "paths.py", "def join_path(): pass"), at("a2", "paths.py", "def normalise(): return manager"), at("b1", "app.py", "path only")]);
    const s = index.fileScores("path manager", ["paths.py", "app.py"]);
    expect(s.get("paths.py")!).toBeGreaterThan(s.get("app.py")!);
    expect(s.get("paths.py")!).toBeLessThan(1);
  });

  test("a long file that mentions the words once ranks below a short one that is about them, unless b is 0", () => {
    const index = new KeywordIndex();
    index.add([
      at("s", "small.py", "retry backoff"),
      ...Array.from({ length: 20 }, (_, i) => at(`l${i}`, "app.py", i === 0 ? `retry backoff\n${filler(30)}` : filler(30))),
    ]);
    const normed = index.fileScores("retry backoff", ["small.py", "app.py"]);
    expect(normed.get("small.py")!).toBeGreaterThan(normed.get("app.py")!);
    const raw = index.fileScores("retry backoff", ["small.py", "app.py"], 0);
    expect(raw.get("small.py")!).toBeCloseTo(raw.get("app.py")!, 10);
  });

  test("names only the files asked for, forgets removed chunks, and knows none of an unknown query", () => {
    const index = new KeywordIndex();
    index.add([at("a", "a.py", "alpha beta"), at("b", "b.py", "alpha")]);
    expect([...index.fileScores("alpha", ["a.py"]).keys()]).toEqual(["a.py"]);
    index.removeIds(["b"]);
    expect(index.fileScores("alpha", ["a.py", "b.py"]).has("b.py")).toBe(false);
    expect(index.fileScores("zeta", ["a.py"]).size).toBe(0);
  });

  test("file sizes: each file's chunks over the mean file's, kept current as chunks come and go", () => {
    const index = new KeywordIndex();
    index.add([at("a1", "big.py", "one"), at("a2", "big.py", "two"), at("a3", "big.py", "three"), at("b", "small.py", "four")]);
    // Four chunks in two files: two a file on average.
    expect(Object.fromEntries(index.fileSizes(["big.py", "small.py", "unknown.py"]))).toEqual({ "big.py": 1.5, "small.py": 0.5 });
    index.removeIds(["a1", "a2"]);
    expect(Object.fromEntries(index.fileSizes(["big.py", "small.py"]))).toEqual({ "big.py": 1, "small.py": 1 });
    index.add([at("c", "third.py", "five"), at("c2", "third.py", "six")]);
    expect(index.fileSizes(["third.py"]).get("third.py")).toBeCloseTo(2 / (4 / 3), 10);
  });
});
