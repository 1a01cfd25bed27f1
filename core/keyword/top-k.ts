// The k best results of a keyword query, kept in a bounded heap while candidates stream in. Portable.

/** Bounded min-heap keeping the k best (doc, score) pairs; ties broken by lower doc number. */
export class TopK {
  private docs: number[] = [];
  private scores: number[] = [];

  constructor(private readonly k: number) {}

  wouldAccept(score: number): boolean {
    return this.docs.length < this.k || score > this.scores[0];
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
    [this.docs[i], this.docs[j]] = [this.docs[j], this.docs[i]];
    [this.scores[i], this.scores[j]] = [this.scores[j], this.scores[i]];
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
