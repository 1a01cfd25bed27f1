// `npm run model:data`: downloads every source listed in models/sources.json (npm tarballs,
// Debian packages), checks licence and held-out status, and extracts documented units into
//   models/.work/pairs-train.jsonl   one training pair per line {q, c, kind, src, lang}
//   models/.work/dev/<name>.json     dev code bases: documented units, for evaluation only
// Downloads are cached under models/.work/dl; re-running skips what is already there.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, lstatSync } from "node:fs";
import { join, relative } from "node:path";
import { extractUnits, languageOf } from "./extract.mjs";
import { HELD_OUT, isHeldOut, PERMISSIVE } from "./policy.mjs";

const MODELS = new URL("..", import.meta.url).pathname;
const WORK = join(MODELS, ".work");
const DL = join(WORK, "dl");
const SRC = join(WORK, "src");
const DEV = join(WORK, "dev");
for (const d of [WORK, DL, SRC, DEV]) mkdirSync(d, { recursive: true });

const { sources } = JSON.parse(readFileSync(join(MODELS, "sources.json"), "utf8"));

// Guard rails first: nothing held out, nothing non-permissive, train and dev disjoint.
for (const s of sources) {
  if (isHeldOut(s.name)) throw new Error(`sources.json lists ${s.name}, a held-out evaluation code base: remove it`);
  const ids = s.license.split(/\s+(?:AND|OR)\s+/).map((x) => x.replace(/[()]/g, ""));
  if (!ids.every((id) => PERMISSIVE.has(id))) throw new Error(`${s.name}: licence "${s.license}" is not on the permissive list in policy.mjs`);
}
console.log(`held-out list: ${HELD_OUT.length} projects excluded; ${sources.length} sources checked`);

function fetchSource(s) {
  const dest = join(SRC, `${s.kind}-${s.name.replace(/\//g, "__")}`);
  if (existsSync(join(dest, ".done"))) return dest;
  mkdirSync(dest, { recursive: true });
  if (s.kind === "npm") {
    const out = execFileSync("npm", ["pack", `${s.name}@${s.version}`, "--pack-destination", DL, "--silent"], { encoding: "utf8" }).trim().split("\n").pop();
    execFileSync("tar", ["-xzf", join(DL, out), "-C", dest]);
    // most tarballs unpack into package/, some (@types/*) into a folder named after the package
    const top = readdirSync(dest).find((d) => existsSync(join(dest, d, "package.json")));
    if (!top) throw new Error(`${s.name}: no package.json in the tarball`);
    const pkg = JSON.parse(readFileSync(join(dest, top, "package.json"), "utf8"));
    const declared = typeof pkg.license === "string" ? pkg.license : JSON.stringify(pkg.license);
    if (pkg.version !== s.version) throw new Error(`${s.name}: got ${pkg.version}, expected ${s.version}`);
    if (!declared.replace(/[()]/g, "").includes(s.license.split(/\s+/)[0])) throw new Error(`${s.name}: package.json licence ${declared} differs from sources.json ${s.license}`);
  } else {
    const before = new Set(readdirSync(DL));
    execFileSync("apt-get", ["download", `${s.name}=${s.version}`], { cwd: DL, stdio: ["ignore", "ignore", "inherit"] });
    const deb = readdirSync(DL).find((f) => !before.has(f) && f.endsWith(".deb")) ?? readdirSync(DL).find((f) => f.startsWith(`${s.name}_`) && f.endsWith(".deb"));
    if (!deb) throw new Error(`${s.name}: apt-get download produced no .deb`);
    execFileSync("dpkg", ["-x", join(DL, deb), dest]);
  }
  writeFileSync(join(dest, ".done"), "");
  return dest;
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      if (name === "node_modules" || name === "__pycache__") continue;
      yield* walk(p);
    } else if (st.isFile() && st.size < 2_000_000 && languageOf(p)) yield p;
  }
}

/** Paths as a project would show them: drop the package/prefix noise of the archive layout. */
function projectPath(root, file, kind) {
  const rel = relative(root, file);
  // npm tarballs hold one top folder (package/, or the name for @types/*)
  return (kind === "npm" ? rel.replace(/^[^/]+\//, "") : rel)
    .replace(/^usr\/lib\/python3(?:\.\d+)?\/(?:dist-packages\/)?/, "")
    .replace(/^usr\/share\/gocode\/src\//, "")
    .replace(/^usr\/share\/cargo\/registry\//, "")
    .replace(/^usr\/(?:share|lib\/x86_64-linux-gnu)\/ruby\/vendor_ruby\/(?:\d[\d.]*\/)?/, "")
    .replace(/^usr\/share\/rubygems-integration\/all\/gems\//, "");
}

const hash = (t) => createHash("sha1").update(t).digest("hex");
const seenCode = new Set();
const seenDoc = new Map();
const trainLines = [];
const stats = {};

for (const s of sources) {
  const root = fetchSource(s);
  const units = [];
  for (const file of walk(root)) {
    const path = projectPath(root, file, s.kind);
    if (/(^|\/)(test|tests|testing|spec|__tests__)\//.test(path) && s.role === "dev") continue;
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const u of extractUnits(path, text)) {
      const words = u.doc.split(/\s+/).filter(Boolean).length;
      if (words < 3 || u.code.split("\n").length < 2 || u.code.length > 6000) continue;
      // identical code shipped twice (lodash modules, dist + src copies) counts once
      const h = hash(u.code.replace(/\s+/g, " "));
      if (seenCode.has(h)) continue;
      seenCode.add(h);
      units.push({ ...u, doc: u.doc.split(/\s+/).slice(0, 64).join(" ") });
    }
  }
  stats[s.name] = { role: s.role, units: units.length };
  if (s.role === "dev") {
    writeFileSync(join(DEV, `${s.name}.json`), JSON.stringify({ source: s, units }));
    continue;
  }
  for (const u of units) {
    // the same doc on many units (generated docs, overloads) teaches nothing: keep 3 at most
    const n = seenDoc.get(u.doc) ?? 0;
    if (n >= 3) continue;
    seenDoc.set(u.doc, n + 1);
    const code = `${u.path}\n${u.code}`;
    trainLines.push(JSON.stringify({ q: u.doc, c: code, kind: "doc", src: s.name, lang: u.lang }));
    // a second view: what the unit is called and where it lives, against its body
    const body = u.code.split("\n").slice(1).join("\n");
    if (body.trim().length > 40) trainLines.push(JSON.stringify({ q: `${u.path} ${u.symbol}`, c: body, kind: "name", src: s.name, lang: u.lang }));
  }
  console.log(`${s.role} ${s.kind} ${s.name}: ${units.length} units`);
}

// deterministic shuffle so that batches mix languages and sources
const rnd = (() => {
  let x = 12345;
  return () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
})();
for (let i = trainLines.length - 1; i > 0; i--) {
  const j = Math.floor(rnd() * (i + 1));
  [trainLines[i], trainLines[j]] = [trainLines[j], trainLines[i]];
}
writeFileSync(join(WORK, "pairs-train.jsonl"), trainLines.join("\n") + "\n");
writeFileSync(join(WORK, "data-stats.json"), JSON.stringify(stats, null, 1));
console.log(`wrote ${trainLines.length} training pairs; dev sets: ${Object.entries(stats).filter(([, v]) => v.role === "dev").map(([k, v]) => `${k}=${v.units}`).join(" ")}`);
void statSync;
