// Colours of the plugin's own views. Inside OpenCode they come from the active theme (so text
// stays readable on light and dark themes alike); the defaults serve tests and other hosts.
import { createContext, useContext, type Accessor } from "solid-js";
import type { RGBA } from "@opentui/core";

export interface Palette {
  title: string | RGBA;
  group: string | RGBA;
  text: string | RGBA;
  selected: string | RGBA;
  muted: string | RGBA;
  error: string | RGBA;
  ok: string | RGBA;
  warn: string | RGBA;
}

export const DEFAULT_PALETTE: Palette = {
  title: "#7aa2f7",
  group: "#bb9af7",
  text: "#c0caf5",
  selected: "#e0af68",
  muted: "#808080",
  error: "#f7768e",
  ok: "#9ece6a",
  warn: "#e0af68",
};

/** The subset of OpenCode's theme colours the views use. */
export interface ThemeColors {
  primary: RGBA;
  accent: RGBA;
  text: RGBA;
  textMuted: RGBA;
  error: RGBA;
  warning: RGBA;
  success: RGBA;
}

export function paletteFromTheme(t: ThemeColors): Palette {
  return { title: t.primary, group: t.accent, text: t.text, selected: t.warning, muted: t.textMuted, error: t.error, ok: t.success, warn: t.warning };
}

export const PaletteContext = createContext<Accessor<Palette>>(() => DEFAULT_PALETTE);

export function usePalette(): Accessor<Palette> {
  return useContext(PaletteContext);
}
