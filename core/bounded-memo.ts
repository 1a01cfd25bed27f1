// A function's results remembered per key, within a bound. Text work on code repeats itself
// (the same identifiers in every file), so a memo pays; the bound keeps a long-lived process
// from holding every word it ever saw. When full it forgets everything at once: cheaper than
// tracking recency, and the frequent keys come back within a few texts. Portable.

/** `compute` remembered for at most `max` keys; `compute` must never return undefined. */
export function boundedMemo<V>(compute: (key: string) => V, max: number): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = compute(key);
      if (known.size >= max) known.clear();
      known.set(key, value);
    }
    return value;
  };
}
