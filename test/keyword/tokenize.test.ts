import { describe, expect, test } from "vitest";
import { normaliseTerm, tokenizeCode, tokenizePath } from "../../core/keyword/index.js";

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

  test("plural folding is symmetric and leaves -ss/-us/-is alone", () => {
    expect(normaliseTerm("embeddings")).toBe("embedding");
    expect(normaliseTerm("entries")).toBe("entry");
    expect(normaliseTerm("class")).toBe("class");
    expect(normaliseTerm("status")).toBe("status");
    expect(normaliseTerm("is")).toBe("is");
  });
});
