import { describe, expect, test } from "vitest";
import { formatCount } from "../../core/format-count.js";

describe("formatCount", () => {
  test("writes whole numbers as en-US does, commas every three digits", () => {
    const numbers = [0, 1, 12, 999, 1000, 1234, 99_999, 100_000, 1_000_000, 123_456_789, Number.MAX_SAFE_INTEGER, -1, -1000, -123_456_789];
    for (let k = 1; k < 1e15; k *= 7) numbers.push(k, k + 1, -k);
    for (const n of numbers) expect(formatCount(n), String(n)).toBe(n.toLocaleString("en-US"));
  });

  test("leaves fractions and other numbers to the locale's own formatting", () => {
    for (const n of [1234.5678, 0.5, -2.25, NaN, Infinity, 2 ** 60]) expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
  });
});
