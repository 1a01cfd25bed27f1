// The one redactor: every text the product stores, logs, embeds or sends away goes through
// here, so a secret caught in one place is caught in all of them. Portable (no Node built-ins):
// the browser build and chunking workers use it too.
//
// Two profiles:
// - "text" (logs, diagnostics, session logs, quirks): every rule, including prose ("the
//   password is …") and any long high-entropy string, since new credential formats appear
//   faster than patterns can be written for them;
// - "code" (indexed chunk content): only high-confidence shapes, so hashes, fixtures and
//   ordinary assignments in source code stay searchable.

export interface SecretScan {
  text: string;
  /** How many secrets were replaced, by kind. */
  redactions: Record<string, number>;
}

export type RedactProfile = "text" | "code";

/** Bumped whenever the rules change what is redacted in code, so indexes are rebuilt. */
export const REDACTION_VERSION = 1;

type Replacer = (m: string[], count: (kind: string) => void) => string;
interface Rule {
  kind: string;
  pattern: RegExp;
  /** Default: the whole match becomes [REDACTED:kind]. */
  replace?: Replacer;
  /** Only in the "text" profile. */
  textOnly?: boolean;
  /** A cheap test the text must pass for the rule to redact anything in it (skips the scan). */
  requires?: RegExp;
}

const keepPrefix = (kind: string): Replacer => (m, count) => (count(kind), `${m[1]}[REDACTED]`);

const PLACEHOLDER = /^(?:\[REDACTED|\$|%|<|\{\{|\*+$|x+$|\.\.\.|…|null$|none$|true$|false$|undefined$|changeme$|your[-_])/i;

/** Name parts that make an assignment's value a secret (DB_PASSWORD, MY_API_KEY, "password"). */
const SECRET_PARTS = new Set(["secret", "secrets", "password", "passwd", "pass", "pwd", "passphrase", "token", "apikey", "credential", "credentials", "auth"]);
const KEY_QUALIFIERS = new Set(["api", "access", "secret", "private", "signing", "encryption", "master", "client", "auth", "license", "service", "account"]);

/**
 * Every name isSecretName accepts holds one of these (its parts are pieces of the name): text
 * without any cannot hold a secret assignment. Most chunks of code have none, and the
 * assignment patterns are the costliest scans of a chunk.
 */
const SECRET_NAME_HINT = new RegExp([...SECRET_PARTS, "key"].join("|"), "i");

/** Whether an identifier names a secret: judged on its parts, so `DB_PASSWORD` and `dbPassword` both count. */
export function isSecretName(name: string): boolean {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (parts.length === 0) return false;
  if (parts.some((p) => SECRET_PARTS.has(p))) return true;
  const last = parts[parts.length - 1];
  if (last !== "key" && last !== "keys") return false;
  // `KEY=…`, `MY_API_KEY=…`: env-style names; `sortKey: "x"` in code is not a secret.
  const envStyle = /^[A-Z0-9_]+$/.test(name);
  return envStyle || parts.slice(0, -1).some((p) => KEY_QUALIFIERS.has(p));
}

function assignmentValue(profile: RedactProfile): Replacer {
  return (m, count) => {
    const [whole, before, name, value] = m;
    if (!isSecretName(name) || PLACEHOLDER.test(value) || value.length < 4) return whole;
    // In code an unquoted identifier, member or call is a reference, not a secret
    // (`token = self.token`); an env-style name (`DB_PASS=abcdefgh`) is configuration.
    if (profile === "code" && !/["'`]$/.test(before) && /^[A-Za-z_$][\w$]*(?:\.[\w$]+)*(?:[([].*)?$/.test(value)) {
      if (/[.([]/.test(value) || (!/^[A-Z0-9_]+$/.test(name) && !/\d/.test(value))) return whole;
    }
    count("assignment");
    return `${before}[REDACTED]`;
  };
}

// Bounded, and (where not anchored) started only at a token's first character: an unbounded
// name inside a long dotted or base64 run would make matching quadratic.
const NAME = `[A-Za-z_][A-Za-z0-9_.-]{0,80}`;
const NAME_START = `(?<![A-Za-z0-9_.$])`;

function rules(profile: RedactProfile): Rule[] {
  const all: Rule[] = [
    {
      kind: "private-key",
      pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
      // Code keeps its line count so chunk line numbers stay true.
      replace: (m, count) => (count("private-key"), "[REDACTED:private-key]" + (profile === "code" ? "\n".repeat((m[0].match(/\n/g) ?? []).length) : "")),
    },
    { kind: "slack-webhook", pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+/g },
    { kind: "discord-webhook", pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]+/g },
    {
      // scheme://user:password@host, also with an empty user (redis://:pw@cache) or a "/" in the password.
      kind: "url-password",
      // The scheme's "://" first: the pattern alone tried every word of a chunk (~1% of a first
      // index's chunking at 100k files).
      requires: /:\/\//,
      pattern: /(\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]{0,200}:)([^\s@]{1,200}?)(@)(?=[^\s@/]*[A-Za-z0-9])/gi,
      replace: (m, count) => (/^\d+\//.test(m[2]) ? m[0] : (count("url-password"), `${m[1]}[REDACTED]${m[3]}`)),
    },
    { kind: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
    // Real keys mix digits and capitals; "sk-learn-the-long-way" is prose.
    { kind: "openai-key", pattern: /\bsk-(?:proj-|live-|test-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{20,}/g },
    { kind: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b/g },
    { kind: "gitlab-token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
    { kind: "aws-access-key", pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[A-Z0-9]{16}\b/g },
    { kind: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
    { kind: "slack-token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}/g },
    { kind: "stripe-key", pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
    { kind: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
    { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
    { kind: "bearer", pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/g, replace: keepPrefix("bearer") },
    { kind: "basic-auth", pattern: /\b((?:Authorization|Proxy-Authorization)["']?\s*[:=]\s*["']?(?:Basic|Digest|Token)\s+)([A-Za-z0-9._~+/=-]{6,})/gi, replace: keepPrefix("basic-auth") },
    { kind: "basic-auth", pattern: /\b(Basic\s+)([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])/g, replace: keepPrefix("basic-auth") },
    // curl -u admin:pw, curl --user=admin:pw
    { kind: "cli-password", pattern: /((?:^|\s)(?:-u|--user)[\s=]+["']?[^\s:"']*:)([^\s"']+)/g, replace: keepPrefix("cli-password") },
    // mysql -pPW (the password glued to -p)
    { kind: "cli-password", pattern: /(\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]{0,200}?\s-p)([^\s"']+)/g, replace: keepPrefix("cli-password") },
    // "password": "hunter22", DB_PASS="x y", apiKey: 'abc'
    {
      kind: "assignment",
      requires: SECRET_NAME_HINT,
      pattern: new RegExp(`((["']?)${NAME_START}(${NAME})\\2[ \\t]*(?::=|[:=])[ \\t]*(["'\`]))([^"'\`\\n]{1,500})\\4`, "g"),
      replace: (m, count) => assignmentValue(profile)([m[0], m[1], m[3], m[5]], count) === m[0] ? m[0] : `${m[1]}[REDACTED]${m[4]}`,
    },
    // Unquoted: AWS_SECRET_ACCESS_KEY=wJal/rX…, --password=x, password: hunter22. In code only
    // at the start of a line (env files, YAML, shell), where it is configuration, not a reference.
    {
      kind: "assignment",
      requires: SECRET_NAME_HINT,
      pattern:
        profile === "code"
          ? new RegExp(`^([ \\t]*(?:export[ \\t]+|set[ \\t]+|-[ \\t]+)?(${NAME})[ \\t]*(?:=|:[ \\t]))[ \\t]*([^\\s"'\`,;]+)`, "gm")
          : new RegExp(`(${NAME_START}(${NAME})[ \\t]*(?::=|[:=])[ \\t]*)([^\\s"'\`,;]+)`, "g"),
      replace: (m, count) => assignmentValue(profile)([m[0], m[1], m[2], m[3]], count),
    },
    // Prose: "the staging password is hunter2", "pwd was Tr0ub4dor&3", "pass: s3cret!".
    {
      kind: "stated-secret",
      textOnly: true,
      pattern: /\b((?:password|passwd|passphrase|pwd|pin|secret|api[\s_-]?key|access[\s_-]?token|token)\s+(?:is|was|=|:)\s+["']?)([^\s"',;]{4,})/gi,
      replace: (m, count) => (m[2].startsWith("[REDACTED") ? m[0] : (count("stated-secret"), `${m[1]}[REDACTED]`)),
    },
    // "pass Tr0ub4dor&3": the word "pass" before a token mixing letters with digits or symbols.
    { kind: "stated-secret", textOnly: true, pattern: /\b(pass(?:word)?\s+)((?=[^\s]*[A-Za-z])(?=[^\s]*[\d!@#$%^&*])[^\s"',;[]{6,})/gi, replace: keepPrefix("stated-secret") },
  ];
  return all.filter((r) => profile === "text" || !r.textOnly);
}

const RULES: Record<RedactProfile, Rule[]> = { text: rules("text"), code: rules("code") };

function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** A long token mixing character classes with high entropy looks like a generated secret. */
export function looksRandom(token: string): boolean {
  if (token.length < 24) return false;
  if (/^[a-z]+$/i.test(token) || /^\d+$/.test(token)) return false;
  if (/[.\\]/.test(token) && !/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return false;
  // A path has a plain word among its segments (src/components/…); base64 with "/" rarely does.
  if (token.includes("/") && token.split("/").some((seg) => /^[a-z][a-z_-]{2,}$/.test(seg))) return false;
  if (/^[0-9a-f]{40}$/i.test(token) || /^[0-9a-f]{64}$/i.test(token)) return true; // hex digests of credentials
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(token)).length;
  return classes >= 2 && shannonEntropy(token) >= 4.0;
}

/** Replaces secrets in `input`; "text" for anything written or logged, "code" for indexed source. */
export function redactSecrets(input: string, profile: RedactProfile = "text"): SecretScan {
  const redactions: Record<string, number> = {};
  const count = (kind: string) => (redactions[kind] = (redactions[kind] ?? 0) + 1);
  let text = input;
  for (const rule of RULES[profile]) {
    if (rule.requires && !rule.requires.test(text)) continue;
    rule.pattern.lastIndex = 0;
    text = text.replace(rule.pattern, (...args: unknown[]) => {
      const m = args.filter((a) => typeof a === "string" || a === undefined).map((a) => (a as string | undefined) ?? "") as string[];
      if (rule.replace) return rule.replace(m, count);
      count(rule.kind);
      return `[REDACTED:${rule.kind}]`;
    });
  }
  if (profile === "text") {
    text = text.replace(/[A-Za-z0-9+/_=-]{24,}/g, (token) => {
      if (token.includes("REDACTED") || !looksRandom(token)) return token;
      count("high-entropy");
      return "[REDACTED:high-entropy]";
    });
  }
  return { text, redactions };
}

/** The redacted text alone. */
export function redact(text: string, profile: RedactProfile = "text"): string {
  return redactSecrets(text, profile).text;
}

/** Kept for callers of the older name. */
export const stripSecrets = (input: string): SecretScan => redactSecrets(input, "text");

export function redactionCount(scan: SecretScan): number {
  return Object.values(scan.redactions).reduce((a, b) => a + b, 0);
}

/**
 * Redacts every string inside a JSON-like value, however deep; values under `keepKeys`
 * (identifiers, enums, timestamps) are kept verbatim.
 */
export function redactDeep(value: unknown, keepKeys: ReadonlySet<string> = new Set(), key = ""): unknown {
  if (typeof value === "string") return keepKeys.has(key) ? value : redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, keepKeys, key));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, keepKeys, k);
    return out;
  }
  return value;
}

/** A chunk as it may be stored, embedded or shown: its text and context redacted as code. */
export function redactChunk<T extends { content: string; context: string }>(c: T): T {
  const content = redact(c.content, "code");
  const context = c.context ? redact(c.context, "code") : c.context;
  return content === c.content && context === c.context ? c : { ...c, content, context };
}
