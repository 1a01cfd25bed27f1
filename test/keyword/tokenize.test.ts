import { describe, expect, test } from "vitest";
import { normaliseTerm, tokenizeCode, tokenizePath } from "../../core/keyword/index.js";
import { distinctTerms } from "../../core/keyword/tokenize.js";

describe("tokenizeCode", () => {
  test("camelCase identifiers give their words and the whole identifier", () => {
    expect(tokenizeCode("getUserById")).toEqual(["get", "user", "by", "id", "getuserbyid"]);
  });

  test("snake_case, kebab-case and camelCase of the same name share the whole-identifier token", () => {
    const whole = (s: string) => tokenizeCode(s).at(-1);
    expect(whole("get_user_by_id")).toBe("getuserbyid");
    expect(whole("get-user-by-id")).toBe("getuserbyid");
    expect(whole("GetUserById")).toBe("getuserbyid");
    expect(whole("GET_USER_BY_ID")).toBe("getuserbyid");
  });

  test("acronyms and digits split where a reader would split them", () => {
    expect(tokenizeCode("HTTPServer")).toEqual(["http", "server", "httpserver"]);
    expect(tokenizeCode("parseXMLDocument2")).toEqual(["parse", "xml", "document", "parsexmldocument2"]);
    expect(tokenizeCode("utf16le")).toEqual(["utf", "16", "le", "utf16le"]);
  });

  test("single characters are dropped as words but kept inside the whole identifier", () => {
    expect(tokenizeCode("for (let i = 0; i < n; i++) getX()")).toEqual(["for", "let", "get", "getx"]);
  });

  test("prose and punctuation: plain lower-cased words, nothing doubled", () => {
    expect(tokenizeCode("Where are Embeddings batched?")).toEqual(["where", "are", "embeddings", "batched"]);
  });

  test("non-Latin letters are words too", () => {
    expect(tokenizeCode("größe 名前")).toEqual(["größe", "名前"]);
  });

  test("hash-like runs longer than the cap are ignored", () => {
    expect(tokenizeCode("a".repeat(80) + " ok")).toEqual(["ok"]);
  });

  test("paths give directory and file-name words, not the extension", () => {
    expect(tokenizePath("core/store/lanceDb.ts")).toEqual(["core", "store", "lance", "db", "lancedb"]);
  });

  test("inflections of one word fold together; short words and lookalikes stay apart", () => {
    const same = (...words: string[]) => expect(new Set(words.map(normaliseTerm)).size, words.join(" ")).toBe(1);
    same("batch", "batches", "batched", "batching");
    same("embed", "embeds", "embedded", "embedding", "embeddings");
    same("index", "indexed", "indexing", "indexes");
    same("map", "maps", "mapped", "mapping");
    same("load", "loads", "loaded", "loading");
    same("render", "rendered", "rendering");
    same("copy", "copies", "copied", "copying");
    same("class", "classes");
    same("entry", "entries");
    // Where a silent e may have gone, nothing is folded rather than something wrongly.
    expect(normaliseTerm("parsed")).toBe("parsed");
    expect(normaliseTerm("choose")).toBe("choose");
    expect(normaliseTerm("serves")).toBe("serve");
    expect(normaliseTerm("caches")).toBe("cache");
    expect(normaliseTerm("status")).toBe("status");
    expect(normaliseTerm("string")).toBe("string");
    expect(normaliseTerm("need")).toBe("need");
    expect(normaliseTerm("utf16s")).toBe("utf16s");
  });
});

describe("distinctTerms", () => {
  test("is the set of tokenizeCode's terms, normalised, however often an identifier repeats", () => {
    const texts = [
      "export function getUserById(id) { return getUserById(id) ?? users.get(id); } // get_user_by_id",
      "margin: max-width; --dry-run flags; HTTPServer parses JSONValue and json_value, XMLHttpRequest",
      "batched batching batches embeddings embedded Größe größe ΔT naïve 42 x i $scope _private",
      "",
    ];
    for (const text of texts) expect(distinctTerms(text)).toEqual(new Set(tokenizeCode(text).map(normaliseTerm)));
  });
});
