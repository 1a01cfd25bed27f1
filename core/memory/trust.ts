// The trust monitor: an immutable rule set that keeps destructive advice out of memory.
// A quirk is recalled into future sessions as if it were trusted knowledge, so anything that
// would tell an agent to destroy data, weaken security or silence checks is refused outright,
// with the reason returned to whoever tried to store it.

export interface TrustRule {
  readonly id: string;
  readonly pattern: RegExp;
  readonly reason: string;
}

const rule = (id: string, pattern: RegExp, reason: string): TrustRule => Object.freeze({ id, pattern, reason });

/** Frozen at load: nothing at run time can add, remove or alter a rule. */
export const TRUST_RULES: readonly TrustRule[] = Object.freeze([
  rule("rm-rf", /\brm\s+(-[a-z]*r[a-z]*f|-[a-z]*f[a-z]*r|--recursive\s+--force|--force\s+--recursive|-r\s+-f|-f\s+-r)\b/i, "recursive forced deletion (rm -rf) destroys data"),
  rule("rm-root", /\brm\s+(-\S+\s+)*(\/|~|\$HOME|\*)(\s|$)/i, "deleting the root, home or everything"),
  rule("del-recursive", /\b(rmdir\s+\/s|del\s+\/[sq]|Remove-Item\b[^\n]*-Recurse[^\n]*-Force|shutil\.rmtree\(\s*['"]?\/)/i, "recursive forced deletion destroys data"),
  rule("force-push", /\bgit\s+push\b[^\n]*(\s--force(?!-with-lease)\b|\s-f\b|\s\+\w)/i, "force-pushing rewrites shared history"),
  rule("git-reset-hard", /\bgit\s+(reset\s+--hard|clean\s+-[a-z]*f[a-z]*d|clean\s+-[a-z]*d[a-z]*f|checkout\s+--\s+\.)/i, "discarding uncommitted work"),
  rule("history-rewrite", /\bgit\s+(filter-branch|filter-repo)\b|\bgit\s+branch\s+-D\s+(main|master)\b/i, "rewriting or deleting shared history"),
  rule("no-verify", /--no-verify\b|\bHUSKY=0\b|\bSKIP_HOOKS?\b/i, "skipping commit hooks and checks"),
  rule("disable-tests", /\b(skip|disable|delete|remove|comment\s+out|turn\s+off|ignore)\s+(all\s+|the\s+|failing\s+|flaky\s+)*(unit\s+|e2e\s+|integration\s+)?tests?\b|\b(it|describe|test)\.skip\b|\b@Ignore\b|\bpytest\.mark\.skip\b/i, "disabling or skipping tests hides breakage"),
  rule("disable-lint", /\b(disable|skip|turn\s+off|remove|bypass|silence)\s+(the\s+|all\s+)?(lint(er|ing)?|eslint|type[\s-]?check(s|ing)?|tsc|clippy|mypy|ruff|pylint|rubocop)\b|eslint-disable(?!-next-line\s+\S)|@ts-nocheck|\/\/\s*@ts-ignore|#\s*type:\s*ignore\b|--no-lint\b/i, "disabling lint or type checks hides defects"),
  rule("bypass-security", /\b(bypass|disable|turn\s+off|skip|circumvent|ignore)\s+(the\s+)?(security|auth(entication|orization)?|csrf|cors|ssl|tls|certificate|cert|2fa|mfa|sandbox|permission|firewall|selinux|apparmor)\b/i, "bypassing a security control"),
  rule("insecure-tls", /\b(NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['"]?0|verify\s*=\s*False|InsecureSkipVerify\s*:\s*true|rejectUnauthorized\s*:\s*false|--insecure\b|curl\s+[^\n]*\s-k\b|strict-ssl\s*(=|\s)\s*false)/i, "turning off certificate verification"),
  rule("chmod-777", /\bchmod\s+(-R\s+)?(0?777|a\+rwx|ugo\+rwx)\b/i, "world-writable permissions (chmod 777)"),
  rule("chown-root", /\bchown\s+-R\s+\S+\s+\/(\s|$)/i, "changing ownership of the whole filesystem"),
  rule("pipe-to-shell", /\b(curl|wget|iwr|Invoke-WebRequest)\b[^\n|]*\|\s*(sudo\s+)?(ba|z|k|da)?sh\b|\b(curl|wget)\b[^\n|]*\|\s*(sudo\s+)?(python|node|perl|ruby)\b|\biex\s*\(\s*(iwr|Invoke-WebRequest|New-Object\s+Net\.WebClient)/i, "piping a download straight into a shell"),
  rule("disk-wipe", /\b(mkfs(\.\w+)?\s+\/dev\/|dd\s+[^\n]*of=\/dev\/(sd|nvme|hd|disk)|shred\s+[^\n]*\/dev\/|format\s+c:)/i, "wiping a disk"),
  rule("fork-bomb", /:\(\)\s*\{\s*:\|:&\s*\}\s*;\s*:/, "a fork bomb"),
  rule("drop-database", /\bDROP\s+(DATABASE|SCHEMA|TABLE|COLLECTION)\b|\bTRUNCATE\s+(TABLE\s+)?\w+|\btruncate\s+the\s+\w+\s+(table|collection)|\bdelete\s+from\s+\w+\s*(;|$)|\bdb\.dropDatabase\(|\bFLUSHALL\b/i, "dropping or emptying database tables"),
  rule("destroy-infra", /\b(terraform|tofu|pulumi)\s+destroy\b|\bkubectl\s+delete\s+(ns|namespace|--all|all\b)|\bhelm\s+uninstall\b[^\n]*(prod|production)|\baws\s+s3\s+rb\b[^\n]*--force|\bgcloud\s+projects\s+delete\b|\bdocker\s+system\s+prune\b[^\n]*(-a|--all|--volumes)/i, "destroying infrastructure or its data"),
  rule("sudo-everything", /\bsudo\s+su\b|\bsudo\s+-s\b|\balways\s+(use|run\s+(it\s+)?(with|as))\s+(sudo|root)\b/i, "running everything as root"),
  rule("commit-secrets", /\b(commit|push|check\s+in|hard-?code)\s+(the\s+)?(\.env|secrets?|credentials|api[\s_-]?keys?|passwords?|tokens?)\b/i, "committing or hard-coding secrets"),
  rule("kill-all", /\b(killall\s+-9|kill\s+-9\s+-1|pkill\s+-9\s+-f\s+\.)\b/i, "killing every process"),
  // Quirks are injected into user messages: text addressed to the model is an injection attempt.
  rule("prompt-injection", /\b(ignore|disregard|forget|override|bypass)\s+(all\s+|any\s+|the\s+|your\s+)*(previous|prior|above|earlier|preceding|system|original|developer)\s+(instructions?|prompts?|rules|directions|messages|guidelines|context)\b|\byou\s+are\s+now\s+(a|an|in|the)\b|\bnew\s+(system\s+)?instructions\s*:|<\/?\s*(system|assistant|instructions?)\s*>|\bdo\s+not\s+(tell|inform|mention\s+(this\s+)?to)\s+the\s+user\b/i, "text that tries to instruct the model (prompt injection)"),
  rule("exfiltrate", /\b(send|upload|post|exfiltrate|transmit|forward|leak|mail|e-?mail|share|copy|scp|rsync|curl|wget|nc|netcat)\b[^\n]*(~\/\.ssh|\.ssh\/|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials|\.npmrc|\.netrc|\.env\b|\/etc\/(passwd|shadow)|\bprivate[\s_-]?keys?\b|\b(api[\s_-]?keys?|secrets|credentials|tokens|passwords)\b)[^\n]*(https?:\/\/|ftp:\/\/|\b\d{1,3}(\.\d{1,3}){3}\b|\bto\s+\S+@\S+)|(~\/\.ssh|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials|\/etc\/shadow)[^\n]*\b(to|into|at)\s+(https?|ftp):\/\//i, "sending keys, credentials or secrets off the machine"),
  rule("run-download", /\b(ba|z|k|da)?sh\s+<\(\s*(curl|wget)\b|\b(source|\.)\s+<\(\s*(curl|wget)\b|\beval\s+["']?\$\(\s*(curl|wget)\b|\b(python3?|node|perl|ruby)\s+<\(\s*(curl|wget)\b|\b(curl|wget|iwr|Invoke-WebRequest)\b[^\n]*?(\s-o\s*\S+|\s-O\b|\s--output[=\s]\S+|\s-OutFile\s+\S+|>\s*\S+)[^\n]*?(&&|;|\|\||\bthen\b)\s*(sudo\s+)?((ba|z|k|da)?sh\s+\S|source\s+\S|\.\s+\S|(python3?|node|perl|ruby)\s+\S|chmod\s+[ugoa]*\+x|\.\/\S|\/tmp\/\S)/i, "running a script straight from the network"),
  rule("find-delete", /\bfind\s+(\/|~\/?|\$HOME\/?|\/\*)(\s|$)[^\n]*(-delete\b|-exec\s+(sudo\s+)?rm\b)|\bfind\s+\S+\s+-delete\b/i, "mass deletion with find"),
  rule("code-injection-env", /\b(LD_PRELOAD|DYLD_INSERT_LIBRARIES|BASH_ENV|PERL5OPT|PYTHONSTARTUP|PYTHONINSPECT|RUBYOPT)\s*=|\bNODE_OPTIONS\s*=\s*["']?[^\n]*(--require\b|--import\b|--loader\b|--experimental-loader\b|(^|\s|["'])-r[\s=])/i, "loading foreign code into every process through the environment"),
  rule("ignore-errors", /\b(always\s+)?(ignore|suppress|swallow)\s+(all\s+)?(errors|exceptions|warnings)\s+(everywhere|globally|always)\b|\bset\s+\+e\s+everywhere\b/i, "suppressing every error hides failures"),
]);

export type TrustVerdict = { ok: true } | { ok: false; rule: string; reason: string };

/** Checks a candidate memory against every rule; the first match refuses it. */
export function checkTrust(text: string): TrustVerdict {
  for (const r of TRUST_RULES) {
    if (r.pattern.test(text)) return { ok: false, rule: r.id, reason: `refused: ${r.reason} (rule "${r.id}"); memory must not carry destructive or unsafe instructions` };
  }
  return { ok: true };
}
