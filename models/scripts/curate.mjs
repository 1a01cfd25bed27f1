// `node models/scripts/curate.mjs`: chooses the Debian training sources and pins them in
// sources.json. Run by hand when the source list should change, never by the rebuild (which
// only reads sources.json). Binary packages that install source code (python3-*, golang-*-dev,
// librust-*-dev, ruby-*, node-*, lua-*, php-*, C/C++ headers in lib*-dev) are taken from apt's
// index, evenly spread over the alphabet, up to a number of new picks per family and run
// (entries already in sources.json stay); source packages (languages
// Debian ships no source for in binaries: Java, Haskell, Kotlin, Scala, Elixir, C#, C, C++,
// shell) come from the hand-written list below. Each is downloaded and kept only when its
// debian/copyright is machine-readable and permissive (for binaries: every paragraph outside
// debian/; for sources: `Files: *`, other files are filtered per file at extraction).
// Existing npm entries and every dev entry are kept as they are.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WORK, MODELS } from "./common.mjs";
import { aptSrcArgs, fetchSource, readCopyright } from "./debian.mjs";
import { isHeldOut } from "./policy.mjs";

/** Binary package families: name pattern, how many to try, optional architecture filter. */
const FAMILIES = [
  { lang: "py", re: /^python3-[a-z0-9][a-z0-9.-]*$/, cap: 700 },
  { lang: "go", re: /^golang-[a-z0-9.-]+-dev$/, cap: 600 },
  { lang: "rs", re: /^librust-[a-z0-9-]+-dev$/, cap: 500 },
  { lang: "rb", re: /^ruby-[a-z0-9.-]+$/, cap: 350 },
  { lang: "js", re: /^node-[a-z0-9.-]+$/, cap: 450, arch: "all" },
  { lang: "lua", re: /^lua-[a-z0-9.-]+$/, cap: 150 },
  { lang: "php", re: /^php-[a-z0-9.-]+$/, cap: 300, arch: "all" },
  { lang: "c", re: /^lib(?!rust-|ghc-|ocaml-|js-|.*-java|.*-perl|.*-ocaml|.*-cil|.*-ruby|.*-go)[a-z0-9.+-]+-dev$/, cap: 500 },
];
/** Never useful as code: documentation, debug symbols, metapackages, tests, huge data. */
const SKIP = /-(?:doc|dbg|dbgsym|tests?|examples|data|common|all)$|^python3-(?:all|dev|minimal|venv|distutils|lib2to3|tk|full)\b/;
const MAX_INSTALLED_KB = 30000;

/** Source packages for languages whose code Debian does not install as source. */
const SOURCE_PACKAGES = {
  java: ["commons-io", "commons-cli", "commons-codec", "commons-collections4", "commons-compress", "commons-math3", "commons-pool2", "commons-validator", "commons-exec", "commons-text", "joda-time", "jsoup", "snakeyaml", "mockito", "assertj-core", "jcommander", "caffeine", "disruptor", "jackson-core", "hamcrest", "jline3", "javaparser", "httpcomponents-core", "commons-configuration2", "jctools", "hikaricp", "byte-buddy", "jboss-logging", "slf4j", "classgraph"],
  kotlin: ["kotlin"],
  scala: ["scala", "scala-xml", "scala-parser-combinators", "scala-asm"],
  elixir: ["elixir-lang"],
  csharp: ["mono-addins", "nunit", "dbus-sharp", "ndesk-options", "nini", "mono-reflection", "libgdiplus"],
  haskell: ["haskell-split", "haskell-async", "haskell-vector", "haskell-hashable", "haskell-unordered-containers", "haskell-mtl", "haskell-optparse-applicative", "haskell-megaparsec", "haskell-scientific", "haskell-attoparsec", "haskell-case-insensitive", "haskell-http-types", "haskell-wai", "haskell-warp", "haskell-conduit", "haskell-lens", "haskell-semigroupoids", "haskell-free", "haskell-tagged", "haskell-quickcheck", "haskell-hspec", "haskell-yaml", "haskell-memory", "haskell-unliftio", "haskell-rio", "haskell-safe-exceptions", "haskell-network", "haskell-random", "haskell-primitive", "haskell-dlist", "haskell-blaze-html", "haskell-text-short", "haskell-cryptonite", "haskell-microlens", "haskell-profunctors", "haskell-comonad", "haskell-bifunctors", "haskell-contravariant", "haskell-streaming-commons", "haskell-resourcet"],
  bash: ["rbenv", "dehydrated", "git-extras", "neofetch", "shunit2", "direnv", "fzf", "bash-argsparse", "liquidprompt", "screenfetch", "pass-otp", "bashtop", "tmux-plugin-manager", "git-sh-prompt"],
  c: ["sqlite3", "jq", "lua5.4", "cjson", "jansson", "libsodium", "libyaml", "expat", "libevent", "tmux", "libxml2", "mbedtls", "c-ares", "libssh2", "nghttp2", "mruby", "musl", "pcre2", "zlib", "json-c", "zstd", "lz4", "libev", "http-parser", "libbsd", "openssh"],
  cpp: ["googletest", "rapidjson", "pugixml", "tinyxml2", "yaml-cpp", "cli11", "doctest", "leveldb", "snappy", "re2", "benchmark", "flatbuffers", "gflags", "google-glog", "catch2", "range-v3", "glm", "cereal", "magic-enum", "ms-gsl", "cpp-httplib", "tl-expected", "double-conversion", "simdjson", "utfcpp", "msgpack-c", "taskflow", "nanoflann", "xsimd", "immer"],
};
const MAX_SOURCE_MB = 40;

const TMP = join(WORK, "curate");
const DL = join(WORK, "dl");
mkdirSync(DL, { recursive: true });

function avail() {
  const text = execFileSync("apt-cache", ["dumpavail"], { encoding: "utf8", maxBuffer: 1 << 30 });
  const out = new Map();
  for (const block of text.split("\n\n")) {
    const f = Object.fromEntries([...block.matchAll(/^(Package|Version|Architecture|Installed-Size): (.*)$/gm)].map((m) => [m[1], m[2]]));
    if (f.Package && !out.has(f.Package)) out.set(f.Package, f);
  }
  return out;
}

/** The downloaded .deb of name at version, if any. */
function debFile(name, version) {
  const prefix = `${name}_${version.replace(/:/g, "%3a")}_`; // apt writes an epoch's colon as %3a
  return readdirSync(DL).find((f) => f.startsWith(prefix) && f.endsWith(".deb"));
}

/** Every n-th name of a sorted list, so the picks spread over the whole alphabet. */
function spread(names, cap) {
  if (names.length <= cap) return names;
  const step = names.length / cap;
  return Array.from({ length: cap }, (_, i) => names[Math.floor(i * step)]);
}

const { comment, sources } = JSON.parse(readFileSync(join(MODELS, "sources.json"), "utf8"));
const kept = sources.filter((s) => s.kind === "npm" || s.role === "dev");
const known = new Set(sources.map((s) => s.name));
const added = [];
const refused = [];

const pkgs = avail();
for (const fam of FAMILIES) {
  const names = [...pkgs.keys()].filter((n) => fam.re.test(n) && !SKIP.test(n) && !n.includes("+") && !isHeldOut(n) && !known.has(n))
    .filter((n) => (!fam.arch || pkgs.get(n).Architecture === fam.arch) && Number(pkgs.get(n)["Installed-Size"] ?? 0) < MAX_INSTALLED_KB)
    .sort();
  let ok = 0;
  const picks = spread(names, fam.cap);
  // one apt-get call for the whole family (a call per package costs seconds of start-up)
  const missing = picks.filter((n) => !debFile(n, pkgs.get(n).Version));
  for (let i = 0; i < missing.length; i += 200) {
    try {
      execFileSync("apt-get", ["download", ...missing.slice(i, i + 200).map((n) => `${n}=${pkgs.get(n).Version}`)], { cwd: DL, stdio: ["ignore", "ignore", "ignore"] });
    } catch {
      // a package that fails to download is reported below, the rest are there
    }
  }
  for (const name of picks) {
    const { Version: version } = pkgs.get(name);
    const deb = debFile(name, version);
    if (!deb) {
      refused.push(`${name}: not downloadable at ${version}`);
      continue;
    }
    let text = "";
    try {
      text = execFileSync("sh", ["-c", `dpkg-deb --fsys-tarfile "$1" | tar -xO "./usr/share/doc/$2/copyright"`, "sh", join(DL, deb), name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      // no copyright file of its own (it points at another package's): refused below
    }
    const c = readCopyright(text);
    if (!c.licence || !c.uniform) {
      refused.push(`${name}: ${c.reason}${c.licence && !c.uniform ? " (other paragraphs are not permissive)" : ""}`);
      continue;
    }
    added.push({ kind: "deb", name, version, license: c.licence, role: "train", lang: fam.lang });
    ok++;
  }
  console.log(`${fam.lang}: ${ok} of ${Math.min(fam.cap, names.length)} tried (${names.length} candidates)`);
}

const srcArgs = aptSrcArgs(WORK);
for (const [lang, names] of Object.entries(SOURCE_PACKAGES)) {
  let ok = 0;
  for (const name of names) {
    if (isHeldOut(name) || known.has(name)) continue;
    const dest = join(TMP, `src-${name}`);
    try {
      // version and size from the source index
      const uris = execFileSync("apt-get", [...srcArgs, "source", "--print-uris", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
      const dsc = uris.match(/'[^']+\/([^/']+)\.dsc'/);
      if (!dsc) throw new Error("no source package of that name");
      const version = decodeURIComponent(dsc[1].replace(/^[^_]+_/, ""));
      const mb = [...uris.matchAll(/^'[^']+' \S+ (\d+)/gm)].reduce((s, m) => s + Number(m[1]), 0) / 1e6;
      if (mb > MAX_SOURCE_MB) throw new Error(`${mb.toFixed(0)} MB of source, over ${MAX_SOURCE_MB} MB`);
      const text = fetchSource(name, version, WORK, dest);
      const c = readCopyright(text);
      if (!c.licence) {
        refused.push(`${name}: ${c.reason}`);
        continue;
      }
      added.push({ kind: "deb-src", name, version, license: c.licence, role: "train", lang });
      ok++;
    } catch (e) {
      refused.push(`${name}: ${String(e.message).split("\n")[0]}`);
    } finally {
      rmSync(dest, { recursive: true, force: true });
    }
  }
  console.log(`${lang} (source packages): ${ok} of ${names.length}`);
}

// earlier hand-picked Debian train entries stay too
const previous = sources.filter((s) => s.kind !== "npm" && s.role === "train");
const all = [...kept.filter((s) => s.role === "train"), ...previous, ...added, ...kept.filter((s) => s.role === "dev")];
writeFileSync(join(MODELS, "sources.json"), JSON.stringify({ comment, sources: all }, null, 1) + "\n");
writeFileSync(join(WORK, "curate-refused.txt"), refused.join("\n") + "\n");
console.log(`sources.json: ${all.length} sources (${added.length} added); ${refused.length} refused, reasons in .work/curate-refused.txt`);
