// Colours of the plugin's own views: readable on OpenCode's dark and light themes.
export const COLORS = {
  title: "#7aa2f7",
  group: "#bb9af7",
  text: "#c0caf5",
  selected: "#e0af68",
  muted: "#808080",
  error: "#f7768e",
  ok: "#9ece6a",
  warn: "#e0af68",
} as const;
