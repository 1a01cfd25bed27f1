// Lexical similarity for deduplicating memories and for the auto-inject relevance gate.
// Word-level, not embedding-level: two quirks that say the same thing in the same words are
// duplicates whatever the model thinks, and the gate must be explainable to a user.

const STOP = new Set(
  "the and for with that this from into when then than are was were you your our its not but use uses used can will should must have has had any all also only just more most very does did done each such onto over under about after before".split(" "),
);

/**
 * Lower-cased word tokens of at least `minLength` characters. Identifiers yield the whole word
 * and its camelCase/snake_case parts, so "LanceDB" meets both "lancedb" and "lance".
 */
export function wordTokens(text: string, minLength = 3): string[] {
  const out: string[] = [];
  const keep = (t: string) => {
    if (t.length >= minLength && !STOP.has(t)) out.push(t);
  };
  for (const word of text.match(/[A-Za-z0-9_]+/g) ?? []) {
    const whole = word.toLowerCase();
    keep(whole.replace(/_/g, ""));
    const parts = word.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").toLowerCase().split(/[\s_]+/);
    if (parts.length > 1) for (const p of parts) keep(p);
  }
  return out;
}

/** Similarity in [0,1]: the mean of word-set Jaccard and character-trigram Dice. */
export function lexicalSimilarity(a: string, b: string): number {
  const wa = new Set(wordTokens(a, 2));
  const wb = new Set(wordTokens(b, 2));
  const jaccard = wa.size + wb.size === 0 ? 1 : intersection(wa, wb) / (wa.size + wb.size - intersection(wa, wb));
  const ta = trigrams(a);
  const tb = trigrams(b);
  const dice = ta.size + tb.size === 0 ? 1 : (2 * intersection(ta, tb)) / (ta.size + tb.size);
  return (jaccard + dice) / 2;
}

function trigrams(text: string): Set<string> {
  const s = ` ${text.toLowerCase().replace(/\s+/g, " ").trim()} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}

function intersection<T>(a: Set<T>, b: Set<T>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}

export interface DuplicateMatch<T> {
  item: T;
  similarity: number;
}

/** The most similar existing text at or above `threshold`, if any. */
export function findDuplicate<T>(text: string, existing: T[], getText: (item: T) => string, threshold: number): DuplicateMatch<T> | null {
  let best: DuplicateMatch<T> | null = null;
  for (const item of existing) {
    const similarity = lexicalSimilarity(text, getText(item));
    if (similarity >= threshold && (!best || similarity > best.similarity)) best = { item, similarity };
  }
  return best;
}

/** Words too common in questions to show that a quirk is about the same thing. */
const GATE_STOP = new Set(
  "how why what where which who whom whose does doing done get got gets set run runs running make makes need needs want like work works working fix fixed file files code error errors issue problem thing way new old now here there".split(" "),
);

/**
 * Relevance gate: how many distinct content words (≥3 chars) the quirk shares with the
 * message. An identifier counts with its parts (`Float32Array` → float32array, float32,
 * array), so one shared identifier passes a gate of two where one shared word does not.
 */
export function tokenOverlap(message: string, quirk: string): number {
  const m = new Set(wordTokens(message).filter((t) => !GATE_STOP.has(t)));
  let n = 0;
  for (const t of new Set(wordTokens(quirk))) if (m.has(t)) n++;
  return n;
}
