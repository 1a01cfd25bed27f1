// String ↔ number tables for the keyword index: repeated metadata values (paths, languages,
// kinds) are stored once and referred to by number. Portable.

/** Small string ↔ number table for repeated metadata values. */
export class Interner {
  private map = new Map<string, number>();
  private list: string[] = [];

  static from(values: string[]): Interner {
    const i = new Interner();
    i.list = values;
    i.map = indexOf(values);
    return i;
  }

  intern(value: string): number {
    let n = this.map.get(value);
    if (n === undefined) {
      n = this.list.length;
      this.list.push(value);
      this.map.set(value, n);
    }
    return n;
  }

  lookup(value: string): number | undefined {
    return this.map.get(value);
  }

  value(n: number): string {
    return this.list[n];
  }

  values(): string[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }
}

/** value → position, built with a plain loop (no temporary pair arrays: this runs on every load). */
export function indexOf(values: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < values.length; i++) map.set(values[i], i);
  return map;
}
