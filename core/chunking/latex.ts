// LaTeX (F2): a chunk per \part, \chapter, \section, \subsection and \subsubsection (starred
// forms too), with the enclosing headings as context. Lines before the first heading (the
// document preamble) form their own chunk.
import type { Chunk } from "../types.js";
import { LineIndex, type Limits } from "./line-index.js";
import { chunkSections, type SectionMarker } from "./sections.js";

const LEVELS = ["part", "chapter", "section", "subsection", "subsubsection"];
const HEADING = /^\s*\\(part|chapter|section|subsection|subsubsection)\*?\s*(?:\[[^\]]*\])?\s*\{(.*)\}/;

export function chunkLatex(filePath: string, content: string, limits: Limits): Chunk[] {
  const lines = new LineIndex(content);
  const markers: SectionMarker[] = [];
  const chain: string[] = [];
  for (let row = 0; row < lines.lineCount; row++) {
    const m = HEADING.exec(lines.line(row));
    if (!m) continue;
    const level = LEVELS.indexOf(m[1]);
    const title = stripBraces(m[2]);
    chain.length = level;
    chain[level] = `${m[1]} ${title}`;
    markers.push({ row, kind: "section", symbol: title, context: chain.filter(Boolean).join(" > ") });
  }
  return chunkSections(filePath, "latex", lines, markers, limits);
}

/** `Intro to {\em fast} search}` -> `Intro to fast search` (drops a trailing unmatched brace too). */
function stripBraces(title: string): string {
  let depth = 0;
  let out = "";
  for (const c of title) {
    if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) break;
      depth--;
    } else out += c;
  }
  return out.replace(/\\[a-zA-Z]+\s*/g, "").trim();
}
