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

  constructor(settings: SecretFileSettings) {
    const patterns = [...(settings.secretFiles ?? []), ...(settings.extraSecretFiles ?? [])];
    this.secret = ignore().add(patterns);
    this.allow = ignore().add(settings.allowSecretFiles ?? []);
    this.any = patterns.length > 0;
  }

  /** Whether a workspace-relative file path names a secret file (and was not allowed back). */
  isSecretPath(relPath: string): boolean {
    if (!this.any || !this.secret.ignores(relPath) || this.allow.ignores(relPath)) return false;
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
