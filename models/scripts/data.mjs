// `npm run model:data`: downloads every source listed in models/sources.json (npm tarballs,
// Debian binary and source packages), checks licence and held-out status, and extracts
//   models/.work/pairs-train.jsonl   one training pair per line {q, c, kind, src, lang, file}
//   models/.work/dev/<name>.json     dev code bases: documented units, for evaluation only
// Pair kinds: doc (doc comment → code), sig (a declaration's name and signature → its body),
// md (Markdown heading → the section's text), test (a test's name → the code it calls), path
// (a file's path words → its declarations). Downloads are cached under models/.work/dl.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join, relative } from "node:path";
import { aptSrcArgs, fetchSource, readCopyright } from "./debian.mjs";
import { extractUnits, languageName, languageOf, markdownSections } from "./extract.mjs";
import { HELD_OUT, isHeldOut, isHeldOutPath, PERMISSIVE, projectName } from "./policy.mjs";

const MODELS = new URL("..", import.meta.url).pathname;
const WORK = join(MODELS, ".work");
const DL = join(WORK, "dl");
const SRC = join(WORK, "src");
const DEV = join(WORK, "dev");
for (const d of [WORK, DL, SRC, DEV]) mkdirSync(d, { recursive: true });

/** Per code base and kind, at most this many pairs, so that a few huge packages do not dominate. */
const CAP = { doc: 4000, sig: 4000, md: 300, test: 1500, path: 1000 };
const MAX_Q = 400;
const MAX_C = 2000;

const { sources } = JSON.parse(readFileSync(join(MODELS, "sources.json"), "utf8"));

// Guard rails first: nothing held out, nothing non-permissive, train and dev disjoint.
for (const s of sources) {
  if (isHeldOut(s.name)) throw new Error(`sources.json lists ${s.name}, a held-out evaluation code base: remove it`);
  const ids = s.license.split(/\s+(?:AND|OR)\s+/).map((x) => x.replace(/[()]/g, ""));
  if (!ids.every((id) => PERMISSIVE.has(id))) throw new Error(`${s.name}: licence "${s.license}" is not on the permissive list in policy.mjs`);
}
const devNames = new Set(sources.filter((s) => s.role === "dev").map((s) => s.name));
for (const s of sources) if (s.role === "train" && devNames.has(s.name)) throw new Error(`${s.name} is both a train and a dev source in sources.json: keep one`);
console.log(`held-out list: ${HELD_OUT.length} projects excluded; ${sources.length} sources checked`);

const debFile = (name, version) => {
  const prefix = `${name}_${version.replace(/:/g, "%3a")}_`; // apt writes an epoch's colon as %3a
  return readdirSync(DL).find((f) => f.startsWith(prefix) && f.endsWith(".deb"));
};

// Binary packages: one apt-get call for all that are not cached yet.
const wanted = sources.filter((s) => s.kind === "deb" && !existsSync(join(SRC, `deb-${s.name}`, ".done")) && !debFile(s.name, s.version));
for (let i = 0; i < wanted.length; i += 200) {
  execFileSync("apt-get", ["download", ...wanted.slice(i, i + 200).map((s) => `${s.name}=${s.version}`)], { cwd: DL, stdio: ["ignore", "ignore", "inherit"] });
}
if (sources.some((s) => s.kind === "deb-src")) aptSrcArgs(WORK);

/** Unpacks one source; returns { root, excluded(path) } or throws with the reason it is refused. */
function fetchOne(s) {
  const dest = join(SRC, `${s.kind}-${s.name.replace(/\//g, "__")}`);
  const meta = join(dest, ".licence.json");
  if (existsSync(join(dest, ".done"))) {
    const copyright = existsSync(meta) ? JSON.parse(readFileSync(meta, "utf8")).copyright : "";
    return { root: dest, excluded: copyright ? readCopyright(copyright).excluded : () => false };
  }
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  let copyright = "";
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
  } else if (s.kind === "deb") {
    const deb = debFile(s.name, s.version);
    if (!deb) throw new Error(`${s.name}: apt-get download produced no .deb for ${s.version}`);
    execFileSync("dpkg", ["-x", join(DL, deb), dest]);
    const cp = join(dest, "usr", "share", "doc", s.name, "copyright");
    copyright = existsSync(cp) ? readFileSync(cp, "utf8") : "";
    const c = readCopyright(copyright);
    // a machine-readable copyright must agree; older hand-checked entries may predate DEP-5
    if (c.licence === null && /^Format:/m.test(copyright)) throw new Error(`${s.name}: debian/copyright: ${c.reason}, not permissive`);
    if (c.licence && !c.uniform) throw new Error(`${s.name}: debian/copyright lists non-permissive files`);
  } else if (s.kind === "deb-src") {
    copyright = fetchSource(s.name, s.version, WORK, dest);
    const c = readCopyright(copyright);
    if (!c.licence) throw new Error(`${s.name}: debian/copyright: ${c.reason}, not permissive`);
  } else throw new Error(`${s.name}: unknown source kind ${s.kind}`);
  writeFileSync(meta, JSON.stringify({ copyright }));
  writeFileSync(join(dest, ".done"), "");
  return { root: dest, excluded: copyright && s.kind === "deb-src" ? readCopyright(copyright).excluded : () => false };
}

function* walk(dir, base = dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names.sort()) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      if (name === "node_modules" || name === "__pycache__" || name === ".git" || (dir === base && name === "debian")) continue;
      yield* walk(p, base);
    } else if (st.isFile() && st.size < 1_000_000 && (languageOf(p) || /\.md$/i.test(name))) yield p;
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
    .replace(/^usr\/share\/nodejs\//, "")
    .replace(/^usr\/share\/php\//, "")
    .replace(/^usr\/share\/lua\/[\d.]+\//, "")
    .replace(/^usr\/include\//, "")
    .replace(/^usr\/(?:share|lib\/x86_64-linux-gnu)\/ruby\/vendor_ruby\/(?:\d[\d.]*\/)?/, "")
    .replace(/^usr\/share\/rubygems-integration\/all\/gems\//, "");
}

const hash = (t) => createHash("sha1").update(t).digest("hex");
const seenCode = new Set();
const seenDoc = new Map();
const out = [];
const stats = {};
const byKind = {};
const byLang = {};
const refused = [];
const isTestPath = (p) => /(^|\/)(test|tests|testing|spec|specs|__tests__)\/|(_test|\.test|\.spec|_spec)\.[a-z]+$|(^|\/)test_[^/]*\.py$/.test(p);
const signatureOf = (code) => {
  const lines = code.split("\n");
  let n = 0;
  while (n < lines.length - 1 && n < 6 && !/[{:=]\s*$|\bdo\s*$|\)\s*$/.test(lines[n])) n++;
  return { sig: lines.slice(0, n + 1).join(" ").replace(/\s+/g, " ").trim(), body: lines.slice(n + 1).join("\n") };
};
/** Evenly spaced picks, so a cap keeps a sample of the whole package rather than its first files. */
const spread = (items, cap) => (items.length <= cap ? items : Array.from({ length: cap }, (_, i) => items[Math.floor((i * items.length) / cap)]));

// Dev code bases first: their code is then known when training packages are read, so a
// vendored or copied unit of a dev code base never becomes a training pair.
const ordered = [...sources.filter((s) => s.role === "dev"), ...sources.filter((s) => s.role !== "dev")];
const norm = (t) => t.toLowerCase().replace(/[^a-z0-9]+/g, "");
const devDirs = new Set(sources.filter((s) => s.role === "dev").map((s) => norm(projectName(s.name))));
const inDevDir = (path) => path.split("/").slice(0, -1).some((d) => devDirs.has(norm(d)));

for (const s of ordered) {
  let got;
  try {
    got = fetchOne(s);
  } catch (e) {
    if (s.role === "dev") throw e;
    refused.push(`${s.name}: ${String(e.message).split("\n")[0]}`);
    console.log(`refused ${s.kind} ${s.name}: ${String(e.message).split("\n")[0]}`);
    continue;
  }
  const { root, excluded } = got;
  const units = [];
  const all = [];
  const md = [];
  const files = new Map();
  for (const file of walk(root)) {
    const rel = relative(root, file);
    const path = projectPath(root, file, s.kind);
    if (excluded(rel) || isHeldOutPath(path)) continue;
    if (s.role === "train" && inDevDir(path)) continue;
    // dev sets as v1 measured them: no test folders
    if (s.role === "dev" && /(^|\/)(test|tests|testing|spec|__tests__)\//.test(path)) continue;
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    if (text.includes("\u0000")) continue;
    if (/\.md$/i.test(file)) {
      if (s.role === "train") for (const sec of markdownSections(text)) md.push({ ...sec, path });
      continue;
    }
    const decls = s.role === "train" ? extractUnits(path, text, 150, true) : extractUnits(path, text);
    files.set(path, decls);
    for (const u of decls) {
      if (u.code.split("\n").length < 2 || u.code.length > 6000) continue;
      all.push(u);
      const words = u.doc.split(/\s+/).filter(Boolean).length;
      if (words < 3) continue;
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
    console.log(`dev ${s.kind} ${s.name}: ${units.length} units`);
    continue;
  }
  const pairs = { doc: [], sig: [], md: [], test: [], path: [] };
  const push = (kind, q, c, u) => pairs[kind].push({ q: q.slice(0, MAX_Q), c: c.slice(0, MAX_C), kind, src: s.name, lang: languageName(u.path), file: u.path });
  for (const u of units) {
    // the same doc on many units (generated docs, overloads) teaches nothing: keep 3 at most
    const n = seenDoc.get(u.doc) ?? 0;
    if (n >= 3) continue;
    seenDoc.set(u.doc, n + 1);
    push("doc", u.doc, `${u.path}\n${u.code}`, u);
  }
  // every declaration, documented or not: its name and signature against its body
  const bySymbol = new Map();
  for (const u of all) {
    if (u.test || isTestPath(u.path)) continue;
    const { sig, body } = signatureOf(u.code);
    if (body.trim().length > 40 && sig.length > 3) {
      const h = hash(`sig\n${body.replace(/\s+/g, " ")}`);
      if (!seenCode.has(h)) {
        seenCode.add(h);
        push("sig", `${u.path} ${sig}`, body, u);
      }
    }
    if (u.symbol.length >= 4 && !bySymbol.has(u.symbol)) bySymbol.set(u.symbol, u);
  }
  // tests: the test's name against the code of the package function it calls
  for (const u of all) {
    const named = u.test ? u.symbol : /^(?:test_?|Test)([A-Za-z0-9_]{4,})/.exec(u.symbol)?.[0];
    if (!named || !(u.test || isTestPath(u.path) || /^test/i.test(u.symbol))) continue;
    const calls = [...u.code.matchAll(/([A-Za-z_][\w]*)\s*\(/g)].map((m) => m[1]).filter((n) => n !== u.symbol && bySymbol.has(n));
    if (calls.length === 0) continue;
    const words = new Set(named.toLowerCase().split(/[^a-z0-9]+|(?<=[a-z])(?=[A-Z])/));
    const target = bySymbol.get(calls.find((c) => c.toLowerCase().split(/_/).some((w) => words.has(w))) ?? calls[0]);
    const q = named.replace(/^test_?|^Test/, "").replace(/_/g, " ").trim();
    if (q.length >= 6) push("test", q, `${target.path}\n${target.code}`, u);
  }
  for (const sec of md) push("md", sec.heading, sec.text, { path: sec.path });
  // a file's path against the signatures it declares
  for (const [path, decls] of files) {
    const sigs = decls.filter((d) => !d.test).map((d) => signatureOf(d.code).sig).filter(Boolean);
    if (sigs.length >= 2 && !isTestPath(path)) push("path", path.replace(/\.[a-z0-9]+$/i, "").replace(/[/_.-]+/g, " "), sigs.slice(0, 40).join("\n"), { path });
  }
  for (const [kind, list] of Object.entries(pairs)) {
    const kept = spread(list, CAP[kind]);
    for (const p of kept) {
      out.push(JSON.stringify(p));
      byKind[kind] = (byKind[kind] ?? 0) + 1;
      byLang[p.lang] = (byLang[p.lang] ?? 0) + 1;
    }
    stats[s.name][kind] = kept.length;
  }
  console.log(`train ${s.kind} ${s.name}: ${Object.entries(pairs).map(([k, v]) => `${k} ${Math.min(v.length, CAP[k])}`).join(", ")}`);
}

// deterministic shuffle so that batches mix languages and sources
const rnd = (() => {
  let x = 12345;
  return () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
})();
for (let i = out.length - 1; i > 0; i--) {
  const j = Math.floor(rnd() * (i + 1));
  [out[i], out[j]] = [out[j], out[i]];
}
// written in slices: the whole file is larger than one JavaScript string may be
const fd = openSync(join(WORK, "pairs-train.jsonl"), "w");
for (let i = 0; i < out.length; i += 50_000) writeSync(fd, out.slice(i, i + 50_000).join("\n") + "\n");
closeSync(fd);
const trainSources = Object.values(stats).filter((v) => v.role === "train" && Object.keys(v).length > 2).length;
writeFileSync(join(WORK, "data-stats.json"), JSON.stringify({ pairs: out.length, trainSources, byKind, byLang, refused, sources: stats }, null, 1));
console.log(`wrote ${out.length} training pairs from ${trainSources} sources; kinds ${JSON.stringify(byKind)}; languages ${JSON.stringify(byLang)}`);
console.log(`refused at download: ${refused.length}; dev sets: ${Object.entries(stats).filter(([, v]) => v.role === "dev").map(([k, v]) => `${k}=${v.units}`).join(" ")}`);
