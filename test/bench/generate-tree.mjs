// A generated workspace of many small source files (a big monorepo's shape: thousands of
// folders of short modules), written deterministically into a temp folder. Each file holds a
// few functions or a class built from a fixed word list, so chunks and the keyword index get
// realistic, varied identifiers.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const WORDS = (
  "user account order invoice payment cart item product price tax discount shipping address " +
  "session token auth login logout permission role group team project task issue comment " +
  "file folder path buffer stream reader writer parser lexer token node tree graph edge " +
  "cache store queue worker job retry timeout limit batch page cursor offset index search " +
  "query filter sort rank score vector embed chunk model config option setting flag feature " +
  "event handler listener emitter message channel socket request response header body status " +
  "error warning logger metric trace span counter gauge histogram report export import sync"
).split(" ");

/** A small seeded PRNG (mulberry32): the same tree on every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const cap = (w) => w[0].toUpperCase() + w.slice(1);

function tsFile(r, i) {
  const pick = () => WORDS[Math.floor(r() * WORDS.length)];
  const a = pick(), b = pick(), c = pick();
  const fns = 1 + Math.floor(r() * 3);
  let out = `// ${cap(a)} ${b} helpers (module ${i}).\nimport { ${pick()}${cap(pick())} } from "../shared/${pick()}";\n\n`;
  for (let f = 0; f < fns; f++) {
    const name = `${pick()}${cap(pick())}${cap(pick())}`;
    out += `/** Returns the ${pick()} of a ${pick()} for the given ${pick()}. */\nexport function ${name}(${a}: ${cap(b)}, ${c}Id: string): ${cap(c)} | null {\n`;
    out += `  if (!${a}.${pick()}) return null;\n  const ${pick()}${f} = ${a}.${pick()}s.filter((x) => x.${c}Id === ${c}Id);\n`;
    out += `  return ${pick()}${f}.length > ${f} ? { ...${a}, ${pick()}: ${pick()}${f}[0] } as ${cap(c)} : null;\n}\n\n`;
  }
  return out;
}

function pyFile(r, i) {
  const pick = () => WORDS[Math.floor(r() * WORDS.length)];
  const cls = `${cap(pick())}${cap(pick())}`;
  let out = `"""${cap(pick())} ${pick()} service, module ${i}."""\nfrom .${pick()} import ${cap(pick())}\n\n\nclass ${cls}:\n`;
  out += `    def __init__(self, ${pick()}_${pick()}, ${pick()}=None):\n        self.${pick()} = ${pick()}\n\n`;
  const methods = 1 + Math.floor(r() * 3);
  for (let m = 0; m < methods; m++) {
    out += `    def ${pick()}_${pick()}(self, ${pick()}_id):\n        """Look up the ${pick()} by ${pick()}."""\n`;
    out += `        return [x for x in self.${pick()}s if x.${pick()}_id == ${pick()}_id][:${m + 1}]\n\n`;
  }
  return out;
}

/** Writes `files` small files under `root` (100 per folder); returns their total bytes. */
export function generateTree(root, files, seed = 1) {
  const r = rng(seed);
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${Math.floor(i / 10000)}`, `mod${Math.floor(i / 100) % 100}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    const py = i % 4 === 3;
    const text = py ? pyFile(r, i) : tsFile(r, i);
    writeFileSync(join(dir, `${py ? "m" : "f"}${i}.${py ? "py" : "ts"}`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}
