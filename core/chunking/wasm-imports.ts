// Some grammars import C library functions that the web-tree-sitter 0.25 runtime does not
// export: tree-sitter-bash's scanner calls `isalpha` (heredoc delimiters, `$name`), so the first
// parse reaching that code died with "resolved is not a function". Each such import is renamed
// to the wide-character function the runtime does export, which takes and returns the same
// i32 and agrees with it on every ASCII code and EOF. Pure byte work: no Node built-ins.

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

const IMPORT_SECTION = 2;
const FUNC = 0;
const TABLE = 1;
const MEMORY = 2;
const GLOBAL = 3;
const TAG = 4;

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

/**
 * The grammar module with its `env` function imports that the runtime lacks renamed to the
 * runtime's equivalents; the same bytes when there is nothing to rename or the module cannot
 * be read (the runtime then reports what is wrong with it).
 */
export function aliasMissingImports(wasm: Uint8Array): Uint8Array {
  try {
    return rewriteImports(wasm);
  } catch {
    return wasm;
  }
}

function rewriteImports(wasm: Uint8Array): Uint8Array {
  if (wasm.length < 8 || wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) return wasm;
  const r = new Reader(wasm, 8);
  while (r.pos < wasm.length) {
    const sectionStart = r.pos;
    const id = wasm[r.pos++];
    const size = r.u32();
    const bodyStart = r.pos;
    const bodyEnd = bodyStart + size;
    if (id !== IMPORT_SECTION) {
      r.pos = bodyEnd;
      continue;
    }
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
      else return wasm;
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
    if (!renamed || r.pos !== bodyEnd) return wasm;
    const header = [IMPORT_SECTION, ...leb(body.length)];
    const out = new Uint8Array(sectionStart + header.length + body.length + (wasm.length - bodyEnd));
    out.set(wasm.subarray(0, sectionStart), 0);
    out.set(header, sectionStart);
    out.set(body, sectionStart + header.length);
    out.set(wasm.subarray(bodyEnd), sectionStart + header.length + body.length);
    return out;
  }
  return wasm;
}
