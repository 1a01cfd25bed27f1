// The one source of the agent guidance (F22): the system-prompt text the plugin adds on every
// request, the AGENTS.md section and the skill written by `opencode-rag init`. Constant strings
// only — nothing here may depend on time, config values or the session, so the system prompt
// stays byte-identical and prefix caches keep working.

import { QUIRK_ENFORCEMENT_RULES } from "../core/memory/capture.js";

export const GUIDANCE_TEXT = `# opencode-rag: code search tools for this workspace

This workspace is indexed by opencode-rag (local semantic + keyword search over code, docs and images).
Prefer these tools to reading whole files or grepping blindly:

- get_file_skeleton(filePath): outline of one file (classes, functions, methods, headings) with line ranges. Use before reading a large file; then read only the lines you need.
- find_usages(symbolName, pathHint?, topK?, file?, offset?): every file that references an identifier, each with its count and kind of use (import, re-export, call, type), then the uses with context taken in turn from each file, definition excluded. Use before renaming, changing a signature or deleting code. The answer ends with how many uses are left: pass the offset it names for the next ones, or file to see one file's.
- search_semantic(query, pathHints?, languageHints?, topK?): finds code by meaning ("where are sessions expired?"). Use when you do not know where something lives. Narrow, specific queries work best; pathHints/languageHints narrow further.
- describe_image(filePath): the stored description of an indexed image (no model call).

Workflow: get_file_skeleton -> find_usages -> search_semantic -> read the exact lines -> edit.

Decision tree:
1. Know the file? get_file_skeleton, then read the relevant range.
2. Know the symbol? find_usages to see every caller before changing it.
3. Know only the behaviour? search_semantic with a precise query, then open the best hit.
4. A tool says the index is building or empty: fall back to your usual tools; results improve once indexing finishes.

Anti-patterns:
- Reading entire large files when the skeleton and a line range would do.
- Text-grepping a short name (e.g. "get", "id") instead of find_usages.
- Vague queries ("code", "stuff") or repeating the same search with the same words.
- Editing a function without checking its usages first.

Lines like "path (language, lines a-b)" appended to a user message are files opencode-rag retrieved for that message; treat them as strong hints.`;

export const WIKI_PROTOCOL = `# Project wiki protocol (opencode-rag wiki mode)

Maintain a persistent knowledge wiki in .opencode/wiki/ for this project, written by you, never by the user.
Layout: index.md (map of every page, one line each), log.md (dated entries of what changed), entities/ (one page per module, service or data type), concepts/ (one page per cross-cutting idea or convention).
Every page starts with frontmatter: title, sources (files it was drawn from), updated (date).
- Ingest: when you learn something durable about the codebase (architecture, invariants, gotchas), update or create the page and add a line to log.md.
- Query: answer project questions by reading index.md first and following links; fall back to search_semantic when the wiki has no page.
- Lint (on /wiki lint): find orphan pages, stale pages whose sources changed, contradictions and missing links; append findings to log.md.
Keep pages short and factual; link pages with relative links.`;

export const MEMORY_GUIDANCE = `# opencode-rag: quirk memory

- recall_quirks(query, topK?): facts remembered in earlier sessions (gotchas, preferences, decisions, environment constraints). Use when you hit an error or before retrying something that failed.
- add_quirk(content, type?, tags?, confidence?): remember a non-obvious, durable fact in one or two sentences once you have confirmed it. Not for secrets, temporary state or destructive instructions (they are refused).
Lines under "Remembered from earlier sessions (quirks):" in a user message are such facts, recalled for that message.`;

export interface GuidanceOptions {
  wikiMode: boolean;
  /** Quirk memory tools are offered (memory.enabled). */
  memory?: boolean;
  /** Mandatory capture rules instead of the soft nudge (memory.promptEnforcement). */
  memoryEnforcement?: boolean;
  /** The tool guidance is already in the prompt (AGENTS.md written by init): do not repeat it. */
  omitToolGuidance?: boolean;
}

/** The options that shape the guidance, from the config (read once per session). */
export function guidanceOptions(config: { wikiMode: { enabled: boolean }; memory: { enabled: boolean; promptEnforcement: boolean } }): GuidanceOptions {
  return { wikiMode: config.wikiMode.enabled, memory: config.memory.enabled, memoryEnforcement: config.memory.enabled && config.memory.promptEnforcement };
}

/** The system text for a session: the guidance, plus quirk memory and the wiki protocol when on. */
export function systemGuidance(options: GuidanceOptions): string {
  const sections = options.omitToolGuidance ? [] : [GUIDANCE_TEXT];
  if (options.memory) sections.push(options.memoryEnforcement ? `${MEMORY_GUIDANCE}\n\n${QUIRK_ENFORCEMENT_RULES}` : MEMORY_GUIDANCE);
  if (options.wikiMode) sections.push(WIKI_PROTOCOL);
  return sections.join("\n\n");
}

/** The skill written to .opencode/skills/opencode-rag/SKILL.md (OpenCode skill format). */
export function skillMarkdown(): string {
  return `---
name: opencode-rag
description: Navigate and change this codebase with opencode-rag's index - file skeletons, symbol usages and semantic search before reading or editing.
---

${GUIDANCE_TEXT}
`;
}
