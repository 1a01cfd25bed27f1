// A script's first line names its language when its file name does not: `bin/rails`,
// `libexec/bats-core/bats-exec-test`, `nvm-exec` and `scripts/lint` are code, and chunked by
// line windows they lose their functions' names. Portable: no Node built-ins.

/**
 * Interpreters by the file extension their language has here; a version in the name is
 * ignored (`python3.11`, `lua5.4`, `php8`).
 */
const INTERPRETER_EXTENSIONS: Readonly<Record<string, string>> = {
  sh: ".sh",
  bash: ".sh",
  dash: ".sh",
  ash: ".sh",
  ksh: ".sh",
  mksh: ".sh",
  zsh: ".zsh",
  python: ".py",
  pypy: ".py",
  ruby: ".rb",
  jruby: ".rb",
  node: ".js",
  nodejs: ".js",
  bun: ".js",
  deno: ".ts",
  "ts-node": ".ts",
  tsx: ".ts",
  lua: ".lua",
  luajit: ".lua",
  php: ".php",
  elixir: ".exs",
  runghc: ".hs",
  runhaskell: ".hs",
  swift: ".swift",
  scala: ".sc",
};

/** The longest first line read for `#!`: a shebang is short (the kernel reads ~256 bytes). */
const FIRST_LINE_MAX = 256;

/**
 * The extension of the language a `#!` line names (`#!/usr/bin/env bash` → `.sh`,
 * `#!/usr/bin/python3 -u` → `.py`, `#!/usr/bin/env -S deno run` → `.ts`), or null when the
 * text has none or names an interpreter without a chunker here.
 */
export function shebangExtension(content: string): string | null {
  if (!content.startsWith("#!")) return null;
  const line = content.slice(2, FIRST_LINE_MAX).split("\n", 1)[0];
  const words = line.trim().split(/\s+/);
  let program = baseName(words[0] ?? "");
  if (program === "env") {
    // `env [-S] [-i] [NAME=value…] program args`: the first word that is neither.
    program = baseName(words.slice(1).find((w) => !w.startsWith("-") && !w.includes("=")) ?? "");
  }
  const name = program.toLowerCase().replace(/[\d.]+$/, "");
  return Object.hasOwn(INTERPRETER_EXTENSIONS, name) ? INTERPRETER_EXTENSIONS[name] : null;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
