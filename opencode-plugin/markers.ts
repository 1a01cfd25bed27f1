// The injection hand-off (F21, F31): the TUI plugin runs on another thread than this server
// plugin, so it cannot retrieve anything itself. It appends a marker to the prompt
// (api.client.tui.appendPrompt); the chat.message hook finds the marker, strips it, and
// appends the retrieved context. Slash commands use the same markers in their templates.
// This file is the single definition of the protocol; docs/plugin.md describes it.

export type MarkerAction = "files" | "chunks" | "doc" | "wiki";

/** Appended by the TUI on Ctrl+Enter: retrieve and append a file list. */
export const INJECT_FILES_MARKER = "<!-- opencode-rag:files -->";
/** Appended by the TUI on Ctrl+Alt+Enter: retrieve and append full chunks. */
export const INJECT_CHUNKS_MARKER = "<!-- opencode-rag:chunks -->";

/** `<!-- opencode-rag:ACTION [arguments] -->`; arguments may not contain "-->". */
const MARKER_RE = /<!--\s*opencode-rag:(files|chunks|doc|wiki)\b((?:(?!-->)[\s\S])*)-->/g;

export interface FoundMarker {
  action: MarkerAction;
  /** Trimmed text after the action name (e.g. `src/auth` for `/doc src/auth`). */
  args: string;
}

/** The marker for an action with arguments, as command templates write it. */
export function markerFor(action: MarkerAction, args = ""): string {
  return args ? `<!-- opencode-rag:${action} ${args} -->` : `<!-- opencode-rag:${action} -->`;
}

/** Finds every marker in `text` and returns the text without them. */
export function extractMarkers(text: string): { text: string; markers: FoundMarker[] } {
  const markers: FoundMarker[] = [];
  const stripped = text.replace(MARKER_RE, (_all, action: string, args: string) => {
    markers.push({ action: action as MarkerAction, args: args.trim() });
    return "";
  });
  if (markers.length === 0) return { text, markers };
  // Remove the blank lines a stripped marker leaves behind.
  return { text: stripped.replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim(), markers };
}
