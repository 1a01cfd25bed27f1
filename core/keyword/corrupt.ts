// The one error a damaged keyword file gives, whether found on load or when a search first
// reads the damaged part. Portable.

export class CorruptKeywordData extends Error {}

export function corruptKeywordData(why: string): Error {
  return new CorruptKeywordData(`keyword index data is corrupt (${why}): delete it and re-index to rebuild`);
}
