// Repairs to grammar .wasm files that web-tree-sitter 0.25 cannot run as shipped, applied to the
// bytes before they load. Pure byte work (no Node built-ins), and each repair matches exactly
// what it fixes: any other module passes through unchanged.
//
// 1. Imports the runtime lacks: tree-sitter-bash's scanner calls `isalpha` (heredoc delimiters,
//    `$name`), so the first parse reaching that code died with "resolved is not a function".
//    Such an import is renamed to the wide-character function the runtime does export, which
//    takes and returns the same i32 and agrees with it on every ASCII code and EOF.
// 2. Scanner state that is never reset: tree-sitter-lua's scanner keeps its state in 8 bytes
//    from an uninitialised malloc and ignores the "no state" call tree-sitter makes at the start
//    of every parse, so a parser reusing freed memory (any parse after the first) started inside
//    a string or comment and mis-parsed everything. Its deserialize function gains the missing
//    `else` that clears the state.

/** Missing import -> the runtime export with the same signature and ASCII behaviour. */
const RUNTIME_ALIASES: Record<string, string> = {
  isalpha: "iswalpha",
  isalnum: "iswalnum",
  isdigit: "iswdigit",
  isspace: "iswspace",
  isblank: "iswblank",
  isupper: "iswupper",
  islower: "iswlower",
  isxdigit: "iswxdigit",
  toupper: "towupper",
  tolower: "towlower",
};

/** Function bodies (locals + code) replaced by a corrected one: tree-sitter-lua's deserialize. */
const BODY_FIXES: Array<{ from: number[]; to: number[] }> = [
  {
    // if (length == 2) { state->started = buffer[0]; state->depth = buffer[1]; }
    from: hex("00 20 02 41 02 46 04 40 20 00 20 01 2c 00 00 36 02 00 20 00 20 01 2c 00 01 36 02 04 0b 0b"),
    // ... else { state->started = 0; state->depth = 0; }
    to: hex("00 20 02 41 02 46 04 40 20 00 20 01 2c 00 00 36 02 00 20 00 20 01 2c 00 01 36 02 04 05 20 00 41 00 36 02 00 20 00 41 00 36 02 04 0b 0b"),
  },
];

const IMPORT_SECTION = 2;
const CODE_SECTION = 10;
const FUNC = 0;
const TABLE = 1;
const MEMORY = 2;
const GLOBAL = 3;
const TAG = 4;

function hex(text: string): number[] {
  return text.split(" ").map((h) => parseInt(h, 16));
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
  ) {}

  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.bytes.length) throw new Error("truncated LEB128");
      const b = this.bytes[this.pos++];
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  }

  name(): string {
    const len = this.u32();
    const text = new TextDecoder().decode(this.bytes.subarray(this.pos, this.pos + len));
    this.pos += len;
    return text;
  }

  limits(): void {
    const flags = this.bytes[this.pos++];
    this.u32();
    if (flags & 1) this.u32();
  }
}

function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let b = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) b |= 0x80;
    out.push(b);
  } while (value > 0);
  return out;
}

function nameBytes(text: string): number[] {
  const utf8 = new TextEncoder().encode(text);
  return [...leb(utf8.length), ...utf8];
}

function sameBytes(a: Uint8Array, b: number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A grammar module with the repairs above applied; the same bytes when none applies or the
 * module cannot be read (the runtime then reports what is wrong with it).
 */
export function patchGrammar(wasm: Uint8Array): Uint8Array {
  try {
    return rewriteSections(wasm);
  } catch {
    return wasm;
  }
}

function rewriteSections(wasm: Uint8Array): Uint8Array {
  if (wasm.length < 8 || wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) return wasm;
  const parts: Uint8Array[] = [wasm.subarray(0, 8)];
  let changed = false;
  const r = new Reader(wasm, 8);
  while (r.pos < wasm.length) {
    const sectionStart = r.pos;
    const id = wasm[r.pos++];
    const size = r.u32();
    const bodyEnd = r.pos + size;
    const body = id === IMPORT_SECTION ? importSection(r, bodyEnd) : id === CODE_SECTION ? codeSection(r, bodyEnd) : null;
    if (body) {
      parts.push(new Uint8Array([id, ...leb(body.length)]), body);
      changed = true;
    } else {
      parts.push(wasm.subarray(sectionStart, bodyEnd));
    }
    r.pos = bodyEnd;
  }
  if (!changed) return wasm;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

/** The import section with missing C library imports renamed, or null when none is. */
function importSection(r: Reader, end: number): Uint8Array | null {
  const wasm = r.bytes;
  const body: number[] = [];
  let renamed = false;
  const count = r.u32();
  body.push(...leb(count));
  for (let i = 0; i < count; i++) {
    const module = r.name();
    const fieldStart = r.pos;
    const field = r.name();
    const descStart = r.pos;
    const kind = wasm[r.pos++];
    if (kind === FUNC) r.u32();
    else if (kind === TABLE) (r.pos++, r.limits());
    else if (kind === MEMORY) r.limits();
    else if (kind === GLOBAL) r.pos += 2;
    else if (kind === TAG) (r.pos++, r.u32());
    else return null;
    const alias = module === "env" && kind === FUNC ? RUNTIME_ALIASES[field] : undefined;
    body.push(...nameBytes(module));
    if (alias) {
      body.push(...nameBytes(alias));
      renamed = true;
    } else {
      body.push(...wasm.subarray(fieldStart, descStart));
    }
    body.push(...wasm.subarray(descStart, r.pos));
  }
  return renamed && r.pos === end ? new Uint8Array(body) : null;
}

/** The code section with known broken function bodies replaced, or null when none is there. */
function codeSection(r: Reader, end: number): Uint8Array | null {
  const wasm = r.bytes;
  const parts: Uint8Array[] = [];
  let fixed = false;
  const count = r.u32();
  parts.push(new Uint8Array(leb(count)));
  for (let i = 0; i < count; i++) {
    const sizeStart = r.pos;
    const size = r.u32();
    const fn = wasm.subarray(r.pos, r.pos + size);
    r.pos += size;
    const fix = BODY_FIXES.find((f) => sameBytes(fn, f.from));
    if (fix) {
      parts.push(new Uint8Array([...leb(fix.to.length), ...fix.to]));
      fixed = true;
    } else {
      parts.push(wasm.subarray(sizeStart, r.pos));
    }
  }
  if (!fixed || r.pos !== end) return null;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}
