// Compact markdown for an agent's context: every tool answer and every injection is fitted to
// a cl100k token budget, whole sections first, so the model never gets half a result when a
// smaller whole one fits.
import type { LineWindow } from "../core/retrieval/preview-window.js";
import { countTokens, truncateToTokens } from "../core/telemetry/tokens.js";

export { formatCount } from "../core/format-count.js";

/** A fence that the content cannot close early. */
export function fence(content: string, language = ""): string {
  let ticks = "```";
  while (content.includes(ticks)) ticks += "`";
  return `${ticks}${language}\n${content.replace(/\n+$/, "")}\n${ticks}`;
}

export interface Fitted {
  text: string;
  /** Sections that made it in whole. */
  included: number;
  tokens: number;
}

/**
 * `header`, then as many whole `sections` as fit in `budget` tokens, then a note naming how many
 * were left out. When not even the first fits, a truncated first section is used.
 */
export function fitSections(
  header: string,
  sections: string[],
  budget: number,
  options: { separator?: string; omittedNote?: (n: number) => string } = {},
): Fitted {
  const separator = options.separator ?? "\n\n";
  const omittedNote = options.omittedNote ?? ((n: number) => `_${n} more result(s) omitted to stay within the token budget._`);
  const parts = [header];
  let used = countTokens(header);
  let included = 0;
  for (const section of sections) {
    const cost = countTokens(section) + countTokens(separator);
    if (used + cost > budget) break;
    parts.push(section);
    used += cost;
    included++;
  }
  if (included === 0 && sections.length > 0) {
    const room = Math.max(0, budget - used - 30);
    const cut = truncateToTokens(sections[0], room);
    if (cut) {
      parts.push(cut + "\n…(truncated)");
      included = 1;
    }
  }
  const left = sections.length - included;
  if (left > 0) parts.push(omittedNote(left));
  const text = parts.join(separator);
  return { text, included, tokens: countTokens(text) };
}

/**
 * The `window` of a chunk's `lines` (the chunk starts at file line `startLine`), as a preview. A
 * note names the lines left out above, so an agent reads where the shown code starts rather than
 * adding it up; the note below only counts, since the header has the chunk's last line
 * (numbering both cost ~40 tokens an answer at the median of the agent-tokens bench, numbering
 * the first ~9).
 */
export function preview(lines: readonly string[], window: LineWindow, startLine: number): string {
  const { start, end } = window;
  const shown = lines.slice(start, end);
  if (start > 0) shown.unshift(`… (lines ${startLine}-${startLine + start - 1} above)`);
  if (end < lines.length) shown.push(`… (${lines.length - end} more lines)`);
  return shown.join("\n");
}
