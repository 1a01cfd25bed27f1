// PDF (F2): text is extracted page by page (unpdf, a serverless build of pdf.js that runs on
// Node 20 and in browsers), then grouped into paragraphs that fit the limits. Line numbers
// refer to the extracted text: page texts joined by one blank line, in page order.
import type { Chunk } from "../types.js";
import { fits, LineIndex, type Limits } from "./line-index.js";
import { cutAtParagraphs } from "./sections.js";

/** The text the chunk line numbers refer to; empty for a PDF without a text layer. */
export async function extractPdfText(bytes: Uint8Array): Promise<string[]> {
  const { extractText } = await import("unpdf");
  try {
    // pdf.js may take ownership of the buffer it is given; hand it a copy.
    const { text } = await extractText(new Uint8Array(bytes), { mergePages: false });
    return text.map((page) => page.replace(/\r\n?/g, "\n").replace(/\n+$/, ""));
  } catch (err) {
    throw new Error(`cannot read PDF text (${(err as Error).message}); the file may be damaged or encrypted`);
  }
}

export async function chunkPdf(filePath: string, bytes: Uint8Array, limits: Limits): Promise<Chunk[]> {
  const pages = await extractPdfText(bytes);
  const lines = new LineIndex(pages.join("\n\n"));
  const out: Chunk[] = [];
  let row = 0;
  pages.forEach((page, i) => {
    const count = page === "" ? 0 : page.split("\n").length;
    const t = count ? lines.trim(row, row + count - 1) : null;
    if (t) {
      for (const [a, b] of groupParagraphs(lines, t[0], t[1], limits)) {
        out.push({
          filePath,
          startLine: a + 1,
          endLine: b + 1,
          language: "pdf",
          kind: "paragraph",
          symbol: "",
          context: `page ${i + 1}`,
          content: lines.slice(a, b),
        });
      }
    }
    row += count + 1;
  });
  return out;
}

/**
 * Extracted PDF text rarely has blank lines between paragraphs, so a line ending a sentence
 * (. ! ? :) followed by one starting with a capital is treated as a paragraph break too.
 */
function groupParagraphs(lines: LineIndex, a: number, b: number, limits: Limits): Array<[number, number]> {
  if (fits(lines, a, b, limits)) return [[a, b]];
  const out: Array<[number, number]> = [];
  let start = a;
  let lastBreak = -1;
  for (let row = a + 1; row <= b + 1; row++) {
    if (row <= b) {
      const ends = /[.!?:]["')\]]?\s*$/.test(lines.line(row - 1)) && /^\s*[A-Z0-9•\-–(]/.test(lines.line(row));
      if (ends || lines.isBlank(row - 1)) lastBreak = row;
      if (fits(lines, start, row, limits)) continue;
      if (lastBreak > start) {
        out.push(...cutAtParagraphs(lines, start, lastBreak - 1, limits));
        start = lastBreak;
        lastBreak = -1;
        continue;
      }
    }
    if (row > b) out.push(...cutAtParagraphs(lines, start, b, limits));
  }
  return out;
}
