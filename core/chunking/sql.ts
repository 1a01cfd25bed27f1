// SQL scripts and migrations: one chunk per statement, with the comment lines directly above
// it. `CREATE TABLE|VIEW|FUNCTION|…` statements are named by the object they create; others
// (inserts, grants) stay unnamed, so small ones merge with their neighbours. Semicolons inside
// strings, comments and dollar-quoted bodies ($$ … $$) do not end a statement.
import type { Chunk } from "../types.js";
import { LineIndex, type Limits } from "./line-index.js";
import { chunkSections, type SectionMarker } from "./sections.js";

const CREATE =
  /^\s*create\s+(?:or\s+replace\s+)?(?:(?:temp|temporary|unique|materialized|virtual|recursive)\s+)*(table|view|function|procedure|index|trigger|type|schema|sequence|domain|extension)\s+(?:if\s+not\s+exists\s+)?([`"[\]\w.$]+)/i;

const KIND_OF: Record<string, string> = {
  table: "table",
  view: "view",
  function: "function",
  procedure: "function",
  index: "index",
  trigger: "trigger",
  type: "type",
  domain: "type",
  schema: "namespace",
  sequence: "sequence",
  extension: "module",
};

export function chunkSql(filePath: string, content: string, limits: Limits): Chunk[] {
  const lines = new LineIndex(content);
  const markers: SectionMarker[] = [];
  let statementOpen = false;
  let dollarTag: string | null = null;
  let commentStart = -1; // first row of the comment block directly above the next statement
  for (let row = 0; row < lines.lineCount; row++) {
    const text = lines.line(row);
    if (!dollarTag && !statementOpen) {
      if (lines.isBlank(row)) {
        commentStart = -1;
        continue;
      }
      if (/^\s*--/.test(text)) {
        if (commentStart < 0) commentStart = row;
        continue;
      }
      const create = CREATE.exec(text);
      const name = create ? create[2].replace(/[`"[\]]/g, "") : "";
      const kind = create ? KIND_OF[create[1].toLowerCase()] : "statement";
      // Functions show their parameters when the header line has them: `purge_sessions(max_age interval)`.
      const params = create && kind === "function" ? (/^\s*(\([^)]*\))/.exec(text.slice(create[0].length))?.[1] ?? "") : "";
      const context = create ? `create ${create[1].toLowerCase()} ${name}${params}` : "";
      markers.push({ row: commentStart >= 0 ? commentStart : row, kind, symbol: name.split(".").pop() ?? name, context });
      statementOpen = true;
      commentStart = -1;
    }
    ({ dollarTag, statementOpen } = scanLine(text, dollarTag, statementOpen));
  }
  return chunkSections(filePath, "sql", lines, markers, limits);
}

/** Follows quotes and dollar-quoting through one line; a `;` outside them closes the statement. */
function scanLine(text: string, dollarTag: string | null, open: boolean): { dollarTag: string | null; statementOpen: boolean } {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    if (dollarTag) {
      if (text.startsWith(dollarTag, i)) {
        i += dollarTag.length - 1;
        dollarTag = null;
      }
      continue;
    }
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "-" && text[i + 1] === "-") break;
    else if (c === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i))?.[0];
      if (tag) {
        dollarTag = tag;
        i += tag.length - 1;
      }
    } else if (c === ";") open = false;
  }
  return { dollarTag, statementOpen: open };
}
