// The bundled model's input in one pass: text straight to WordPiece ids, exactly the ids that
// encodeWordPiece(preprocessForEmbedding(text)) gives. Each run of letters and digits is looked
// up once, for all the ids its words make: the two steps joined the words into a text, split it
// again and looked each word up three or four times, the largest cost of embedding at 100k
// files. Portable: no Node built-ins.
import { boundedMemo } from "../bounded-memo.js";
import { forEachWordRun } from "../word-runs.js";
import { expandRun } from "./preprocess.js";
import { encodeWord, type WordPieceVocab } from "./wordpiece.js";

/** The ids of a run's words, one after another, and where each word's ids end. */
interface RunIds {
  ids: number[];
  wordEnds: number[];
}

/** Runs whose ids one encoder remembers. */
const REMEMBERED_RUNS = 20_000;

/** `text` -> ids, as the model reads it: [CLS], the first `maxWords` words' ids, [SEP], cut to `maxLength`. */
export function textIdsEncoder(wp: WordPieceVocab, maxLength: number, maxWords = 512): (text: string) => number[] {
  const idsOfRun = boundedMemo((run: string): RunIds | null => {
    const words = expandRun(run);
    if (words === null) return null;
    const out: RunIds = { ids: [], wordEnds: [] };
    for (const word of words) {
      encodeWord(word, wp, out.ids);
      out.wordEnds.push(out.ids.length);
    }
    return out;
  }, REMEMBERED_RUNS);
  return (text) => {
    const ids = [wp.clsId];
    let words = 0;
    forEachWordRun(text, false, (run) => {
      const r = idsOfRun(run);
      if (r === null) return true;
      let from = 0;
      for (const to of r.wordEnds) {
        // the word budget, then the id budget, exactly where the two-step encoding stops
        if (words >= maxWords || ids.length >= maxLength) return false;
        words++;
        for (let k = from; k < to; k++) ids.push(r.ids[k]);
        from = to;
      }
      return true;
    });
    ids.push(wp.sepId);
    if (ids.length > maxLength) ids.length = maxLength;
    return ids;
  };
}
