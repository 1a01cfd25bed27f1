// Which workspace files hold credentials and are never indexed: by name (indexing.secretFiles,
// gitignore-style) and, for the few formats whose name says nothing, by content. Portable.
import ignore, { type Ignore } from "ignore";
import type { RagConfig } from "../config/defaults.js";

/** The reason a secret file is listed as skipped, wherever skipped files are reported. */
export const SECRET_REASON = "secret";

export type SecretFileSettings = Partial<Pick<RagConfig["indexing"], "secretFiles" | "extraSecretFiles" | "allowSecretFiles">>;

export class SecretFileRules {
  private readonly secret: Ignore;
  private readonly allow: Ignore;
  private readonly any: boolean;
  /** The patterns' last segments: a file name none of them matches is no secret, whatever its folder. */
  private readonly names: NameFilter | null;

  constructor(settings: SecretFileSettings) {
    const patterns = [...(settings.secretFiles ?? []), ...(settings.extraSecretFiles ?? [])];
    this.secret = ignore().add(patterns);
    this.allow = ignore().add(settings.allowSecretFiles ?? []);
    this.any = patterns.length > 0;
    this.names = nameFilter(patterns);
  }

  /** Whether a workspace-relative file path names a secret file (and was not allowed back). */
  isSecretPath(relPath: string): boolean {
    if (!this.any) return false;
    // The walker asks for every file: one test of the name settles almost all of them.
    if (this.names && !this.names.mayMatch(relPath.slice(relPath.lastIndexOf("/") + 1))) return false;
    if (!this.secret.ignores(relPath) || this.allow.ignores(relPath)) return false;
    // The pattern must name the file itself: `credentials` is a secret file, but code in a
    // folder named credentials/ is code (gitignore semantics would take the whole folder).
    const slash = relPath.lastIndexOf("/");
    return slash < 0 || !this.secret.ignores(relPath.slice(0, slash + 1));
  }

  /** Whether the user let this path back in (then its content is not judged either). */
  isAllowed(relPath: string): boolean {
    return this.allow.ignores(relPath);
  }
}

/** Quick test of a file name against the patterns' last segments (case-insensitive, as the rules are). */
class NameFilter {
  private readonly exact = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly prefixes: string[] = [];
  private readonly other: Ignore | null;

  constructor(segments: string[]) {
    const rest: string[] = [];
    for (const seg of segments) {
      const lower = seg.toLowerCase();
      if (!/[*?[\\!#]/.test(lower)) this.exact.add(lower);
      else if (lower.startsWith("*") && !/[*?[\\]/.test(lower.slice(1))) this.suffixes.push(lower.slice(1));
      else if (lower.endsWith("*") && !/[*?[\\!#]/.test(lower.slice(0, -1))) this.prefixes.push(lower.slice(0, -1));
      else rest.push(seg);
    }
    this.other = rest.length > 0 ? ignore().add(rest) : null;
  }

  /** False only when no segment can match `name`; true may still be no match. */
  mayMatch(name: string): boolean {
    const lower = name.toLowerCase();
    if (this.exact.has(lower)) return true;
    for (const s of this.suffixes) if (lower.endsWith(s)) return true;
    for (const p of this.prefixes) if (lower.startsWith(p)) return true;
    return this.other !== null && this.other.ignores(name);
  }
}

/**
 * A secret file is one a pattern names itself (not through a parent folder, see isSecretPath),
 * so the pattern's last segment matches the file's name. Null (no shortcut) when a pattern ends
 * in `**`, which names files by their folder alone, or looks like one this reasoning may miss.
 */
function nameFilter(patterns: string[]): NameFilter | null {
  const names: string[] = [];
  for (const line of patterns.flatMap((p) => p.split(/\r?\n/))) {
    const p = line.replace(/(?<!\\)\s+$/, "");
    if (!p || p.startsWith("#") || p.startsWith("!")) continue;
    const trimmed = p.replace(/\/+$/, "");
    const slash = trimmed.lastIndexOf("/");
    if (slash < 0) {
      names.push(trimmed);
      continue;
    }
    const last = trimmed.slice(slash + 1);
    if (!last || last.includes("**") || trimmed.includes("[") || trimmed.includes("\\")) return null;
    names.push(last.startsWith("!") || last.startsWith("#") ? `\\${last}` : last);
  }
  return new NameFilter(names);
}

const cache = new WeakMap<object, SecretFileRules>();

/** Rules for a config's indexing section, built once per config object. */
export function secretFileRules(indexing: SecretFileSettings): SecretFileRules {
  let r = cache.get(indexing);
  if (!r) cache.set(indexing, (r = new SecretFileRules(indexing)));
  return r;
}

/**
 * Whether a file's text is a credential whatever its name: a cloud service-account key
 * (`"type": "service_account"` with a `private_key`), or a file that is a private key block.
 */
export function looksLikeSecretContent(text: string): boolean {
  const head = text.slice(0, 64 * 1024);
  if (/"type"\s*:\s*"service_account"/.test(head) && /"private_key"\s*:/.test(head)) return true;
  return /^\s*-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/.test(head);
}
