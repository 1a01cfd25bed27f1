// Markdown (F2): one chunk per h1/h2 section (ATX `#`/`##` or setext underlines), deeper
// headings stay inside their h2. Headings inside fenced code blocks are ignored. When an
// oversized section is cut, each later piece names the deeper heading it falls under.
import type { Chunk } from "../types.js";
import { LineIndex, type Limits } from "./line-index.js";
import { chunkSections, type SectionMarker } from "./sections.js";

export function chunkMarkdown(filePath: string, content: string, limits: Limits): Chunk[] {
  const lines = new LineIndex(content);
  const markers: SectionMarker[] = [];
  const subheadings: Array<{ row: number; title: string }> = [];
  let fence: string | null = null;
  let h1 = "";
  for (let row = 0; row < lines.lineCount; row++) {
    const text = lines.line(row);
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
    if (fenceMatch) {
      if (!fence) fence = fenceMatch[1][0];
      else if (fenceMatch[1][0] === fence) fence = null;
      continue;
    }
    if (fence) continue;
    let level = 0;
    let title = "";
    const deep = /^\s{0,3}#{3,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (deep) {
      subheadings.push({ row, title: deep[1] });
      continue;
    }
    const atx = /^\s{0,3}(#{1,2})\s+(.*?)\s*#*\s*$/.exec(text);
    if (atx) {
      level = atx[1].length;
      title = atx[2];
    } else if (row + 1 < lines.lineCount && text.trim() && /^\s{0,3}(=+|-+)\s*$/.test(lines.line(row + 1)) && !lines.isBlank(row)) {
      // Setext: a paragraph line underlined by === (h1) or --- (h2).
      const under = lines.line(row + 1).trim();
      if (row === 0 || lines.isBlank(row - 1)) {
        level = under.startsWith("=") ? 1 : 2;
        title = text.trim();
      }
    }
    if (!level) continue;
    if (level === 1) h1 = title;
    const context = level === 1 ? title : h1 ? `${h1} > ${title}` : title;
    markers.push({ row, kind: "section", symbol: title, context });
  }
  const chunks = chunkSections(filePath, "markdown", lines, markers, limits, new Set(subheadings.map((h) => h.row)));
  for (const chunk of chunks) {
    // A piece that starts inside its section, after an h3–h6: `Guide > Install > Requirements`.
    const section = markers.filter((m) => m.row < chunk.startLine).at(-1);
    const under = subheadings.filter((h) => h.row < chunk.startLine && (!section || h.row > section.row)).at(-1);
    const startsAtHeading = markers.some((m) => m.row === chunk.startLine - 1);
    if (under && !startsAtHeading) chunk.context = chunk.context ? `${chunk.context} > ${under.title}` : under.title;
  }
  return chunks;
}
