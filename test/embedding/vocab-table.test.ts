// The vocabulary table must answer exactly as a Map of the same tokens would: every token to
// its id, anything else to undefined, a token listed twice to its later id.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_MODEL_ID } from "../../core/config/defaults.js";
import { VocabTable } from "../../core/embedding/vocab-table.js";
import { modelsDir } from "../../core/paths.js";

const vocab = JSON.parse(readFileSync(join(modelsDir(), BUNDLED_MODEL_ID, "tokenizer.json"), "utf8")).model.vocab as Record<string, number>;
const tokens: string[] = [];
for (const [token, id] of Object.entries(vocab)) tokens[id] = token;

describe("VocabTable", () => {
  const table = VocabTable.fromTokens(tokens);

  it("finds every token of the bundled vocabulary at its id, and knows its longest token", () => {
    expect(table.size).toBe(tokens.length);
    for (let id = 0; id < tokens.length; id++) if (table.get(tokens[id]) !== id) throw new Error(`${JSON.stringify(tokens[id])}: ${table.get(tokens[id])} != ${id}`);
    expect(table.longest).toBe(Math.max(...tokens.map((t) => t.length)));
    expect(table.token(1234)).toBe(tokens[1234]);
  });

  it("finds nothing else: prefixes, extensions, other cases, near misses", () => {
    const known = new Set(tokens);
    const probes = tokens.slice(0, 5000).flatMap((t) => [t + "x", t.slice(0, -1), "##" + t, t.toUpperCase(), t + "\n", ""]);
    for (const p of probes) expect(table.get(p)).toBe(known.has(p) ? vocab[p] : undefined);
  });

  it("is rebuilt from its parts as it was, and refuses parts that do not fit together", () => {
    const again = VocabTable.fromParts(table.parts)!;
    expect(again.size).toBe(table.size);
    expect(again.longest).toBe(table.longest);
    for (const id of [0, 1, 999, 31_000, tokens.length - 1]) expect(again.get(tokens[id])).toBe(id);
    expect(again.get("not-a-token-anywhere")).toBeUndefined();
    const { text, starts, slots, longest } = table.parts;
    expect(VocabTable.fromParts({ text: text.slice(1), starts, slots, longest })).toBeNull();
    expect(VocabTable.fromParts({ text, starts, slots: slots.subarray(1), longest })).toBeNull();
  });

  it("reads a file's lines from an offset, with other scripts, and gives a repeated token its later id", () => {
    const text = '{"settings":1}\nalpha\nbeta\nжук\n東京\nalpha\n##a\n';
    const t = VocabTable.fromLines(text, text.indexOf("\n") + 1);
    expect([t.get("alpha"), t.get("beta"), t.get("жук"), t.get("東京"), t.get("##a"), t.get("{\"settings\":1}")]).toEqual([4, 1, 2, 3, 5, undefined]);
    expect(t.size).toBe(6);
    expect(VocabTable.fromTokens([]).get("")).toBeUndefined();
    expect(() => VocabTable.fromTokens(["a\nb"])).toThrow(/line break/);
  });
});
