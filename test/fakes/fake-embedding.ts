// Deterministic stand-in for an embedding model: a signed, hashed bag of words (code-aware
// splitting of camelCase and snake_case). Texts sharing words get similar vectors, so search
// through a fake provider ranks sensibly without any real model.
export function fakeEmbedding(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  // Like the real models that use them, the fake understands task prefixes rather than embedding them as words.
  const words = text
    .replace(/^search_(query|document): /, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
  for (const w of words) {
    const h = fnv1a(w);
    v[h % dim] += (h >>> 16) & 1 ? 1 : -1;
  }
  // Never all zeros, so normalising is always defined.
  v[0] += 0.01;
  return v;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
