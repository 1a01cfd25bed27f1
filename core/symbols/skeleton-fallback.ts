// Outline for files without a grammar (or whose parse found nothing): common declaration
// shapes by regular expression, one level deep. Portable: no Node.
import type { OutlineItem } from "./skeleton.js";

const PATTERNS: Array<{ kind: string; re: RegExp }> = [
  { kind: "heading", re: /^(#{1,6})\s+(.+?)\s*#*\s*$/ },
  { kind: "class", re: /^\s*(?:export\s+)?(?:default\s+)?(?:public\s+|private\s+|abstract\s+|final\s+|sealed\s+|data\s+)*class\s+([A-Za-z_$][\w$]*)/ },
  { kind: "interface", re: /^\s*(?:export\s+)?(?:public\s+)?interface\s+([A-Za-z_$][\w$]*)/ },
  { kind: "function", re: /^\s*(?:export\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)/ },
  { kind: "function", re: /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/ },
  { kind: "function", re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)/ },
  { kind: "function", re: /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/ },
  { kind: "function", re: /^\s*(?:local\s+)?function\s+([A-Za-z_][\w.:]*)/ },
  { kind: "function", re: /^\s*(?:fun|sub|proc)\s+([A-Za-z_][\w]*)/ },
  { kind: "struct", re: /^\s*(?:pub\s+)?struct\s+([A-Za-z_]\w*)/ },
  { kind: "enum", re: /^\s*(?:export\s+)?(?:pub\s+)?enum\s+([A-Za-z_]\w*)/ },
  { kind: "module", re: /^\s*(?:module|namespace|package)\s+([A-Za-z_][\w.:]*)/ },
];

/** Declaration-looking lines; each item spans until the next one (or the end of the file). */
export function regexOutline(content: string): OutlineItem[] {
  const lines = content.split("\n");
  const found: Array<{ kind: string; name: string; line: number }> = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) inFence = !inFence;
    if (inFence) continue;
    for (const { kind, re } of PATTERNS) {
      const m = re.exec(line);
      if (m) {
        found.push({ kind, name: (kind === "heading" ? m[2] : m[1]).trim(), line: i + 1 });
        break;
      }
    }
  }
  const total = content.endsWith("\n") ? lines.length - 1 : lines.length;
  return found.map((f, i) => ({
    kind: f.kind,
    name: f.name,
    startLine: f.line,
    endLine: Math.max(f.line, (found[i + 1]?.line ?? total + 1) - 1),
    children: [],
  }));
}

/** Number of lines as an editor shows them. */
export function lineCount(content: string): number {
  if (content.length === 0) return 0;
  const n = content.split("\n").length;
  return content.endsWith("\n") ? n - 1 : n;
}
