import { describe, expect, it } from "vitest";
import { preprocessForEmbedding, splitIdentifier } from "../../core/embedding/preprocess.js";

describe("identifier splitting", () => {
  it("splits camelCase, PascalCase, snake_case and acronyms into lower-case words", () => {
    expect(splitIdentifier("getUserById")).toEqual(["get", "user", "by", "id"]);
    expect(splitIdentifier("HTTPServerError")).toEqual(["http", "server", "error"]);
    expect(splitIdentifier("parse_json_file")).toEqual(["parse", "json", "file"]);
    expect(splitIdentifier("MAX_RETRY_COUNT")).toEqual(["max", "retry", "count"]);
    expect(splitIdentifier("utf8Decode")).toEqual(["utf", "8", "decode"]);
    expect(splitIdentifier("$scope")).toEqual(["scope"]);
  });

  it("keeps non-ASCII words whole", () => {
    expect(splitIdentifier("größeBerechnen")).toEqual(["größe", "berechnen"]);
  });
});

describe("preprocessForEmbedding", () => {
  it("follows split parts with the joined identifier, as the model was trained", () => {
    expect(preprocessForEmbedding("getUserById")).toBe("get user by id getuserbyid");
  });

  it("drops punctuation and operators but keeps every word in order", () => {
    expect(preprocessForEmbedding("if (a.size >= MAX_SIZE) { return null; }")).toBe("if a size max size maxsize return null");
  });

  it("leaves plain prose as lower-case words", () => {
    expect(preprocessForEmbedding("Where are Embeddings batched?")).toBe("where are embeddings batched");
  });

  it("skips blobs longer than any identifier", () => {
    const blob = "A".repeat(30) + "b".repeat(30);
    expect(preprocessForEmbedding(`key ${blob} value`)).toBe("key value");
  });

  it("caps the number of words", () => {
    const text = Array.from({ length: 100 }, (_, i) => `word${i}`).join(" ");
    expect(preprocessForEmbedding(text, 10).split(" ")).toHaveLength(10);
  });

  it("returns an empty string for text with no words", () => {
    expect(preprocessForEmbedding("{}();=>")).toBe("");
  });
});
