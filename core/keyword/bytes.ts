// Minimal growable byte writer / bounds-checked reader with unsigned LEB128 varints, for the
// keyword index's binary format. Portable: no Node built-ins (TextEncoder is universal).

export class ByteWriter {
  private buf: Uint8Array;
  private pos = 0;

  constructor(initialSize = 1 << 16) {
    this.buf = new Uint8Array(initialSize);
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  bytes(data: Uint8Array): void {
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  u8(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value;
  }

  /** Unsigned varint; values up to 2^53 (at most 8 bytes, reserved up front). */
  varint(value: number): void {
    this.ensure(8);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  /** Values [start, end) of `values` as varints; as differences from the previous one when `delta`. */
  varints(values: Uint32Array | Uint8Array, start: number, end: number, delta: boolean): void {
    this.ensure((end - start) * 5);
    const buf = this.buf;
    let pos = this.pos;
    let prev = 0;
    for (let i = start; i < end; i++) {
      let v = delta ? values[i] - prev : values[i];
      if (delta) prev = values[i];
      while (v >= 0x80) {
        buf[pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[pos++] = v;
    }
    this.pos = pos;
  }

  /** A block of raw bytes preceded by its length. */
  block(data: Uint8Array): void {
    this.varint(data.length);
    this.bytes(data);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

export class ByteReader {
  pos = 0;

  constructor(private readonly buf: Uint8Array) {}

  u8(): number {
    if (this.pos >= this.buf.length) throw new RangeError("unexpected end of data");
    return this.buf[this.pos++];
  }

  varint(): number {
    const buf = this.buf;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= buf.length) throw new RangeError("unexpected end of data");
      const b = buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 0x80;
    }
    throw new RangeError("varint too long");
  }

  /** Decodes `count` varints into `out` starting at `offset`, each added to a running sum when `delta`. */
  varints(out: Uint32Array | Uint8Array, offset: number, count: number, delta: boolean): void {
    const buf = this.buf;
    let pos = this.pos;
    let prev = 0;
    for (let i = 0; i < count; i++) {
      let b = buf[pos++];
      let v = b & 0x7f;
      let shift = 7;
      while (b >= 0x80) {
        if (shift > 28) throw new RangeError("varint too long");
        b = buf[pos++];
        v |= (b & 0x7f) << shift;
        shift += 7;
      }
      if (pos > buf.length) throw new RangeError("unexpected end of data");
      v >>>= 0;
      if (delta) {
        prev += v;
        out[offset + i] = prev;
      } else {
        out[offset + i] = v;
      }
    }
    this.pos = pos;
  }

  block(): Uint8Array {
    const n = this.varint();
    if (this.pos + n > this.buf.length) throw new RangeError("unexpected end of data");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  get done(): boolean {
    return this.pos === this.buf.length;
  }
}
