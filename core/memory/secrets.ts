// Strips secrets from any text before it is stored or logged (F37). Known token shapes are
// matched first; then long random-looking strings are caught by their entropy, since new
// credential formats appear faster than patterns can be written for them.

export interface SecretScan {
  text: string;
  /** How many secrets were replaced, by kind. */
  redactions: Record<string, number>;
}

const PATTERNS: Array<[kind: string, pattern: RegExp]> = [
  ["private-key", /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g],
  ["url-password", /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi],
  ["openai-key", /\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}\b/g],
  ["anthropic-key", /\bsk-ant-[A-Za-z0-9_-]{20,}\b/g],
  ["github-token", /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b/g],
  ["gitlab-token", /\bglpat-[A-Za-z0-9_-]{20,}\b/g],
  ["aws-access-key", /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[A-Z0-9]{16}\b/g],
  ["google-api-key", /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ["slack-token", /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g],
  ["stripe-key", /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g],
  ["npm-token", /\bnpm_[A-Za-z0-9]{36}\b/g],
  ["jwt", /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g],
  ["bearer", /\b(Bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/g],
  ["assignment", /\b((?:api[_-]?key|apikey|secret|token|passw(?:or)?d|pwd|auth|access[_-]?key|client[_-]?secret)\s*[:=]\s*["']?)([^\s"',;]{6,})/gi],
  // Prose: "the staging password is hunter2", "pwd was Tr0ub4dor&3", "pass: s3cret!".
  ["stated-secret", /\b((?:password|passwd|passphrase|pwd|pin|secret|api[\s_-]?key|access[\s_-]?token|token)\s+(?:is|was|=|:)\s+["']?)([^\s"',;]{4,})/gi],
  // "pass Tr0ub4dor&3": the word "pass" before a token mixing letters with digits or symbols.
  ["stated-secret", /\b(pass(?:word)?\s+)((?=[^\s]*[A-Za-z])(?=[^\s]*[\d!@#$%^&*])[^\s"',;]{6,})/gi],
];

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
  // Paths, URLs and dotted identifiers are structure, not secrets.
  if (/[/\\.]/.test(token) && !/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return false;
  if (/^[0-9a-f]{40}$/i.test(token) || /^[0-9a-f]{64}$/i.test(token)) return true; // hex digests of credentials
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(token)).length;
  return classes >= 2 && shannonEntropy(token) >= 4.0;
}

export function stripSecrets(input: string): SecretScan {
  const redactions: Record<string, number> = {};
  const count = (kind: string) => (redactions[kind] = (redactions[kind] ?? 0) + 1);
  let text = input;
  for (const [kind, pattern] of PATTERNS) {
    text = text.replace(pattern, (...m: string[]) => {
      count(kind);
      if (kind === "url-password") return `${m[1]}[REDACTED]${m[3]}`;
      if (kind === "bearer" || kind === "assignment" || kind === "stated-secret") return `${m[1]}[REDACTED]`;
      return `[REDACTED:${kind}]`;
    });
  }
  text = text.replace(/[A-Za-z0-9+/_=-]{24,}/g, (token) => {
    if (token.includes("REDACTED") || !looksRandom(token)) return token;
    count("high-entropy");
    return "[REDACTED:high-entropy]";
  });
  return { text, redactions };
}

export function redactionCount(scan: SecretScan): number {
  return Object.values(scan.redactions).reduce((a, b) => a + b, 0);
}
