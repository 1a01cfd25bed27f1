// The k best results of a keyword query, kept in a bounded heap while candidates stream in. Portable.

/** Bounded min-heap keeping the k best (doc, score) pairs; ties broken by lower doc number. */
export class TopK {
  private docs: number[] = [];
  private scores: number[] = [];

  constructor(private readonly k: number) {}

  wouldAccept(score: number): boolean {
    return score > this.floor;
  }

  /** The score a result must beat to be kept: the k-th best so far, or -Infinity until there are k. */
  get floor(): number {
    return this.docs.length < this.k ? -Infinity : this.scores[0];
  }

  push(doc: number, score: number): void {
    if (this.docs.length < this.k) {
      this.docs.push(doc);
      this.scores.push(score);
      this.up(this.docs.length - 1);
    } else if (score > this.scores[0]) {
      this.docs[0] = doc;
      this.scores[0] = score;
      this.down(0);
    }
  }

  sorted(): Array<[number, number]> {
    const out: Array<[number, number]> = this.docs.map((d, i) => [d, this.scores[i]]);
    return out.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  }

  private less(i: number, j: number): boolean {
    return this.scores[i] < this.scores[j] || (this.scores[i] === this.scores[j] && this.docs[i] > this.docs[j]);
  }

  private swap(i: number, j: number): void {
    const { docs, scores } = this;
    const doc = docs[i];
    docs[i] = docs[j];
    docs[j] = doc;
    const score = scores[i];
    scores[i] = scores[j];
    scores[j] = score;
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.docs.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
}
