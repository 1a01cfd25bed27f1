// Outline for files without a grammar (or whose parse found nothing): common declaration
// shapes by regular expression; Markdown headings nested by level. Portable: no Node.
import type { OutlineItem } from "./outline-item.js";

const PATTERNS: Array<{ kind: string; re: RegExp }> = [
  { kind: "heading", re: /^(#{1,6})\s+(.+?)\s*#*\s*$/ },
  { kind: "class", re: /^\s*(?:export\s+)?(?:default\s+)?(?:public\s+|private\s+|abstract\s+|final\s+|sealed\s+|data\s+)*class\s+([A-Za-z_$][\w$]*)/ },
  { kind: "interface", re: /^\s*(?:export\s+)?(?:public\s+)?interface\s+([A-Za-z_$][\w$]*)/ },
  // MATLAB and Octave name a function after its outputs: `function [a, b] = name(x)`.
  { kind: "function", re: /^\s*function\s+(?:\[[^\]]*\]|[A-Za-z_]\w*)\s*=\s*([A-Za-z_][\w.]*)/ },
  { kind: "function", re: /^\s*(?:export\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)/ },
  { kind: "function", re: /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/ },
  { kind: "function", re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)/ },
  { kind: "function", re: /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/ },
  { kind: "function", re: /^\s*(?:local\s+)?function\s+([A-Za-z_][\w.:]*)/ },
  { kind: "function", re: /^\s*(?:fun|sub|proc)\s+([A-Za-z_][\w]*)/ },
  { kind: "class", re: /^\s*classdef\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/ },
  { kind: "struct", re: /^\s*(?:pub\s+)?struct\s+([A-Za-z_]\w*)/ },
  { kind: "enum", re: /^\s*(?:export\s+)?(?:pub\s+)?enum\s+([A-Za-z_]\w*)/ },
  { kind: "module", re: /^\s*(?:module|namespace|package)\s+([A-Za-z_][\w.:]*)/ },
];

/**
 * Declaration-looking lines. Markdown headings nest by level and span their section; any other
 * item spans until the next one and stays at the top level (a `#` line may be a comment in a
 * language without a grammar, not a section holding what follows).
 */
export function regexOutline(content: string): OutlineItem[] {
  const lines = content.split("\n");
  const found: Array<{ kind: string; name: string; line: number; level: number }> = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    for (const { kind, re } of PATTERNS) {
      const m = re.exec(line);
      if (m) {
        found.push({ kind, name: (kind === "heading" ? m[2] : m[1]).trim(), line: i + 1, level: kind === "heading" ? m[1].length : 0 });
        break;
      }
    }
  }
  const total = content.endsWith("\n") ? lines.length - 1 : lines.length;
  const roots: OutlineItem[] = [];
  const open: Array<{ level: number; item: OutlineItem }> = [];
  found.forEach((f, i) => {
    const next = f.level === 0 ? found[i + 1] : found.slice(i + 1).find((g) => g.level <= f.level);
    const item: OutlineItem = { kind: f.kind, name: f.name, startLine: f.line, endLine: Math.max(f.line, (next?.line ?? total + 1) - 1), children: [] };
    while (open.length > 0 && open[open.length - 1].level >= f.level) open.pop();
    (open.length > 0 ? open[open.length - 1].item.children : roots).push(item);
    if (f.level > 0) open.push({ level: f.level, item });
  });
  return roots;
}

/** Number of lines as an editor shows them. */
export function lineCount(content: string): number {
  if (content.length === 0) return 0;
  const n = content.split("\n").length;
  return content.endsWith("\n") ? n - 1 : n;
}
