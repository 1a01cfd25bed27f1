// Visual Studio solutions (.sln) (F2): one chunk per `Project(…) … EndProject` entry (symbol:
// the project name) and per `GlobalSection(…) … EndGlobalSection` (symbol: the section name).
import type { Chunk } from "../types.js";
import { LineIndex, type Limits } from "./line-index.js";
import { chunkSections, type SectionMarker } from "./sections.js";

const PROJECT = /^\s*Project\("[^"]*"\)\s*=\s*"([^"]*)"\s*,\s*"([^"]*)"/;
const GLOBAL_SECTION = /^\s*GlobalSection\(([^)]*)\)/;

export function chunkSolution(filePath: string, content: string, limits: Limits): Chunk[] {
  const lines = new LineIndex(content);
  const markers: SectionMarker[] = [];
  for (let row = 0; row < lines.lineCount; row++) {
    const text = lines.line(row);
    const project = PROJECT.exec(text);
    if (project) {
      markers.push({ row, kind: "project", symbol: project[1], context: `project ${project[1]} (${project[2].replace(/\\/g, "/")})` });
      continue;
    }
    const section = GLOBAL_SECTION.exec(text);
    if (section) {
      markers.push({ row, kind: "section", symbol: section[1], context: `Global > ${section[1]}` });
      continue;
    }
    // `Global` opens the global sections; it joins the first of them as an unnamed piece.
    if (/^\s*Global\s*$/.test(text)) markers.push({ row, kind: "section", symbol: "", context: "Global" });
  }
  return chunkSections(filePath, "sln", lines, markers, limits);
}
