// Minimal growable byte writer / bounds-checked reader with unsigned LEB128 varints, for the
// keyword index's binary format. Portable: no Node built-ins (TextEncoder is universal).

/** Where a streaming ByteWriter hands its bytes, in order. */
export type ByteSink = (chunk: Uint8Array) => void;

export class ByteWriter {
  private buf: Uint8Array;
  private pos = 0;
  /** Bytes already handed to the sink. */
  private flushed = 0;

  /**
   * With a `sink`, the writer hands on what it holds whenever its buffer is full and hands
   * blocks on as they are, so writing a large file needs memory for the buffer only.
   */
  constructor(
    initialSize = 1 << 16,
    private readonly sink: ByteSink | null = null,
  ) {
    this.buf = new Uint8Array(initialSize);
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    if (this.sink && extra <= this.buf.length) {
      this.flush();
      return;
    }
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

  /**
   * Pairs of (gap from the previous value of `values`, as a varint; the byte of `bytes`) for
   * [start, end): a posting list with its term frequencies.
   */
  gapPairs(values: Uint32Array, bytes: Uint8Array, start: number, end: number): void {
    this.ensure((end - start) * 6);
    const buf = this.buf;
    let pos = this.pos;
    let prev = 0;
    for (let i = start; i < end; i++) {
      let v = values[i] - prev;
      prev = values[i];
      while (v >= 0x80) {
        buf[pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[pos++] = v;
      buf[pos++] = bytes[i];
    }
    this.pos = pos;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.flushed + this.pos;
  }

  /** A 4-byte little-endian unsigned integer. */
  u32(value: number): void {
    this.ensure(4);
    for (let k = 0; k < 4; k++) this.buf[this.pos++] = (value >>> (8 * k)) & 0xff;
  }

  /** A block of raw bytes preceded by its length; a streaming writer hands it on uncopied. */
  block(data: Uint8Array): void {
    this.varint(data.length);
    this.raw(data);
  }

  /** Raw bytes (their length known to the reader); a streaming writer hands them on uncopied. */
  raw(data: Uint8Array): void {
    if (!this.sink) return this.bytes(data);
    this.flush();
    this.sink(data);
    this.flushed += data.length;
  }

  /** What was written (without a sink), or an empty array once a streaming writer handed on the rest. */
  finish(): Uint8Array {
    if (!this.sink) return this.buf.slice(0, this.pos);
    this.flush();
    return new Uint8Array(0);
  }

  private flush(): void {
    if (this.pos === 0) return;
    // a copy: the buffer is written again
    this.sink!(this.buf.slice(0, this.pos));
    this.flushed += this.pos;
    this.pos = 0;
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
    // One byte (most document fields, gaps and counts) without the loop: a load reads ~400k per
    // 100k documents in code not yet optimised.
    const b0 = buf[this.pos];
    if (b0 < 0x80) {
      this.pos++;
      return b0;
    }
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

  block(): Uint8Array {
    return this.raw(this.varint());
  }

  /** The next `n` bytes (their length known from elsewhere), as a view. */
  raw(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new RangeError("unexpected end of data");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  get done(): boolean {
    return this.pos === this.buf.length;
  }
}
