// Debian packages as training sources: downloading a pinned binary or source package, and
// reading its machine-readable debian/copyright so that only permissively licensed files
// are used (a package may mix licences: files under any other licence are left out).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PERMISSIVE } from "./policy.mjs";

/** Debian's short licence names → the SPDX identifiers of policy.mjs (or themselves). */
const SPDX = {
  expat: "MIT", mit: "MIT", "mit/expat": "MIT", isc: "ISC",
  "bsd-2-clause": "BSD-2-Clause", "bsd-2": "BSD-2-Clause", "bsd-3-clause": "BSD-3-Clause", "bsd-3": "BSD-3-Clause",
  "apache-2.0": "Apache-2.0", "apache-2": "Apache-2.0", "apache": "Apache-2.0", "apache2": "Apache-2.0",
  "psf-2": "PSF-2.0", "psf-2.0": "PSF-2.0", psf: "PSF-2.0", python: "PSF-2.0", "python-2.0": "PSF-2.0",
  zlib: "Zlib", "public-domain": "public-domain", "0bsd": "0BSD", unlicense: "Unlicense", "bsl-1.0": "BSL-1.0",
  "cc0-1.0": "CC0-1.0", cc0: "CC0-1.0",
};

/** One Debian licence expression ("Expat or GPL-2+", "BSD-3-clause and Apache-2.0") as SPDX when permissive, else null. */
export function permissiveLicence(expr) {
  const alternatives = expr.trim().split(/\s+or\s+/i);
  for (const alt of alternatives) {
    const parts = alt.split(/\s+and\s+|,\s*/i).map((p) => p.trim().replace(/[()]/g, "")).filter(Boolean);
    const ids = parts.map((p) => SPDX[p.toLowerCase()] ?? p);
    if (ids.length && ids.every((id) => PERMISSIVE.has(id))) return ids.join(" AND ");
  }
  return null;
}

/** Glob of a debian/copyright `Files:` line → RegExp over package-relative paths. */
function globRegex(glob) {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/**
 * Reads a DEP-5 debian/copyright. Returns { licence, excluded, uniform }: licence is the SPDX
 * of the `Files: *` paragraph (null when not permissive or not machine-readable); excluded(path)
 * is true for a source-tree path under a non-permissive licence (the last matching paragraph
 * wins, as in DEP-5); uniform is true when every paragraph outside debian/ is permissive, the
 * condition for a binary package, whose installed paths no longer match the source globs.
 */
export function readCopyright(text) {
  if (!/^Format:/m.test(text)) return { licence: null, excluded: () => false, uniform: false, reason: "copyright file not machine-readable" };
  const paras = text.split(/\n\s*\n/).map((p) => {
    const fields = {};
    let key = null;
    for (const line of p.split("\n")) {
      const m = line.match(/^([A-Za-z-]+):\s*(.*)$/);
      if (m) {
        key = m[1].toLowerCase();
        fields[key] = m[2];
      } else if (key === "files" && /^\s/.test(line)) fields[key] += ` ${line.trim()}`;
    }
    return fields;
  });
  const fileParas = paras.filter((p) => p.files !== undefined && p.license !== undefined);
  const star = fileParas.find((p) => p.files.split(/\s+/).includes("*"));
  if (!star) return { licence: null, excluded: () => false, uniform: false, reason: "no `Files: *` paragraph" };
  const rules = fileParas.map((p) => ({ globs: p.files.split(/\s+/).filter(Boolean).map(globRegex), ok: !!permissiveLicence(p.license) }));
  // a file is excluded when the last paragraph matching it is not permissive
  const excluded = (path) => {
    let ok = true;
    for (const r of rules) if (r.globs.some((g) => g.test(path))) ok = r.ok;
    return !ok;
  };
  const uniform = fileParas.every((p) => p.files.split(/\s+/).filter(Boolean).every((g) => g.startsWith("debian/")) || !!permissiveLicence(p.license));
  return { licence: permissiveLicence(star.license), excluded, uniform, reason: `Files: * is "${star.license}"` };
}

/** Private apt configuration with deb-src lines, kept under .work so the system's sources are untouched. */
export function aptSrcArgs(work) {
  const dir = join(work, "apt-src");
  const parts = join(dir, "parts");
  if (!existsSync(join(dir, ".updated"))) {
    for (const d of [parts, join(dir, "lists", "partial"), join(dir, "cache", "archives", "partial")]) mkdirSync(d, { recursive: true });
    writeFileSync(
      join(parts, "debian-src.sources"),
      "Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n",
    );
  }
  const args = ["-o", `Dir::Etc::SourceList=${join(dir, "none.list")}`, "-o", `Dir::Etc::SourceParts=${parts}`, "-o", `Dir::State::Lists=${join(dir, "lists")}`, "-o", `Dir::Cache=${join(dir, "cache")}`];
  if (!existsSync(join(dir, ".updated"))) {
    writeFileSync(join(dir, "none.list"), "");
    execFileSync("apt-get", [...args, "update"], { stdio: ["ignore", "ignore", "inherit"] });
    writeFileSync(join(dir, ".updated"), "");
  }
  return args;
}

/** Downloads and unpacks a binary package at an exact version into dest; returns its copyright text. */
export function fetchBinary(name, version, dl, dest) {
  const file = readdirSync(dl).find((f) => f.startsWith(`${name}_${version.replace(/^\d+:/, "")}_`) && f.endsWith(".deb"));
  if (!file) execFileSync("apt-get", ["download", `${name}=${version}`], { cwd: dl, stdio: ["ignore", "ignore", "inherit"] });
  const deb = readdirSync(dl).find((f) => f.startsWith(`${name}_${version.replace(/^\d+:/, "")}_`) && f.endsWith(".deb"));
  if (!deb) throw new Error(`${name}: apt-get download produced no .deb for ${version}`);
  mkdirSync(dest, { recursive: true });
  execFileSync("dpkg", ["-x", join(dl, deb), dest]);
  const cp = join(dest, "usr", "share", "doc", name, "copyright");
  return existsSync(cp) ? readFileSync(cp, "utf8") : "";
}

/** Downloads and unpacks a source package at an exact version into dest (its tree at dest/src); returns debian/copyright. */
export function fetchSource(name, version, work, dest) {
  const dl = join(work, "dl-src", name);
  mkdirSync(dl, { recursive: true });
  const args = aptSrcArgs(work);
  if (!readdirSync(dl).some((f) => f.endsWith(".dsc"))) {
    execFileSync("apt-get", [...args, "source", "--download-only", `${name}=${version}`], { cwd: dl, stdio: ["ignore", "ignore", "inherit"] });
  }
  const dsc = readdirSync(dl).find((f) => f.endsWith(".dsc"));
  if (!dsc) throw new Error(`${name}: apt-get source produced no .dsc for ${version}`);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(join(dest, ".."), { recursive: true });
  execFileSync("dpkg-source", ["--no-check", "-x", join(dl, dsc), dest], { stdio: ["ignore", "ignore", "inherit"], cwd: dl });
  const cp = join(dest, "debian", "copyright");
  return existsSync(cp) ? readFileSync(cp, "utf8") : "";
}
