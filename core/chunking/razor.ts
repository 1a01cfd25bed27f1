// Razor (.cshtml, .razor) (F2): `@code { … }`, `@functions { … }`, `@section Name { … }` and
// multi-line `@{ … }` blocks become chunks of their own; the markup between them becomes
// template chunks. Braces inside strings and after // are skipped when finding a block's end.
import type { Chunk } from "../types.js";
import { LineIndex, type Limits } from "./line-index.js";
import { chunkSections, type SectionMarker } from "./sections.js";

const BLOCK_START = /^\s*@(code|functions|section\s+\w+|\{)\s*\{?/;

export function chunkRazor(filePath: string, content: string, limits: Limits): Chunk[] {
  const lines = new LineIndex(content);
  const markers: SectionMarker[] = [];
  let templateOpen = false;
  for (let row = 0; row < lines.lineCount; row++) {
    const m = BLOCK_START.exec(lines.line(row));
    if (!m) {
      if (!templateOpen && !lines.isBlank(row)) {
        markers.push({ row, kind: "template", symbol: "", context: "template" });
        templateOpen = true;
      }
      continue;
    }
    const end = blockEnd(lines, row);
    const symbol = m[1] === "{" ? "@{}" : `@${m[1].replace(/\s+/, " ")}`;
    markers.push({ row, kind: "block", symbol, context: `${symbol} block` });
    templateOpen = false;
    row = end;
  }
  return chunkSections(filePath, "razor", lines, markers, limits);
}

/** Row of the brace closing the block opened on `row` (the last row if it never closes). */
function blockEnd(lines: LineIndex, row: number): number {
  let depth = 0;
  let opened = false;
  for (let r = row; r < lines.lineCount; r++) {
    const text = lines.line(r);
    let quote: string | null = null;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === "/" && text[i + 1] === "/") break;
      else if (c === "{") {
        depth++;
        opened = true;
      } else if (c === "}") {
        depth--;
        if (opened && depth === 0) return r;
      }
    }
  }
  return lines.lineCount - 1;
}
