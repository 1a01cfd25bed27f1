import { describe, expect, it } from "vitest";
import { effectiveConfidence } from "../../core/memory/decay.js";
import { findDuplicate, lexicalSimilarity, tokenOverlap, wordTokens } from "../../core/memory/similarity.js";

describe("decay", () => {
  const day = 86_400_000;
  it("halves confidence every half-life", () => {
    const t0 = Date.UTC(2026, 0, 1);
    expect(effectiveConfidence(0.8, t0, t0, { enabled: true, halfLifeDays: 30 })).toBeCloseTo(0.8);
    expect(effectiveConfidence(0.8, t0, t0 + 30 * day, { enabled: true, halfLifeDays: 30 })).toBeCloseTo(0.4);
    expect(effectiveConfidence(0.8, t0, t0 + 60 * day, { enabled: true, halfLifeDays: 30 })).toBeCloseTo(0.2);
  });
  it("does nothing when disabled", () => {
    expect(effectiveConfidence(0.8, 0, 1e12, { enabled: false, halfLifeDays: 30 })).toBe(0.8);
  });
});

describe("lexical similarity and dedup", () => {
  it("scores a rephrasing high and an unrelated text low", () => {
    const a = "npm install needs --legacy-peer-deps because of the react peer range";
    const b = "npm install needs the --legacy-peer-deps flag because of react's peer range";
    const c = "LanceDB vector columns must be Float32Array";
    expect(lexicalSimilarity(a, b)).toBeGreaterThan(0.6);
    expect(lexicalSimilarity(a, c)).toBeLessThan(0.2);
    expect(lexicalSimilarity(a, a)).toBeCloseTo(1);
  });
  it("finds the closest duplicate above a threshold", () => {
    const existing = ["LanceDB vector columns must be Float32Array", "use pnpm in web/", "LanceDB vectors must be a Float32Array, not number[]"];
    const dup = findDuplicate("LanceDB vector columns must be a Float32Array", existing, (s) => s, 0.6);
    expect(dup?.item).toBe(existing[0]);
    expect(findDuplicate("something else entirely", existing, (s) => s, 0.6)).toBeNull();
  });
});

describe("relevance gate tokens", () => {
  it("splits identifiers and drops short and stop words", () => {
    expect(wordTokens("The getUserById in user_service.ts")).toEqual(["getuserbyid", "get", "user", "userservice", "user", "service"]);
  });
  it("counts distinct shared words", () => {
    expect(tokenOverlap("why does the lancedb insert fail?", "LanceDB insert needs Float32Array")).toBe(2);
    expect(tokenOverlap("write a haiku", "LanceDB insert needs Float32Array")).toBe(0);
  });
});
