// Turns what a user typed into a config value, or a one-line error that says what to type.
// The core's validateConfig checks types and ranges of the whole file afterwards; the checks
// here cover what it leaves open (integers, the nodeTypes map, key syntax).
import type { SettingField } from "./settings-schema.js";

export type ParsedValue = { ok: true; value: unknown } | { ok: false; error: string };

const MODIFIERS = new Set(["ctrl", "alt", "shift", "super", "meta"]);
const NAMED_KEYS = new Set([
  "return", "enter", "escape", "tab", "space", "backspace", "delete", "insert",
  "up", "down", "left", "right", "home", "end", "pageup", "pagedown",
]);

/** Checks one key binding string (comma-separated alternatives, OpenTUI keymap syntax). */
export function checkKeybinding(text: string): string | null {
  const trimmed = text.trim().toLowerCase();
  if (!trimmed) return "a key binding cannot be empty (e.g. ctrl+return)";
  for (const alt of trimmed.split(",").map((a) => a.trim())) {
    if (!alt) return `"${text}" has an empty alternative; separate keys with single commas`;
    const leader = /^<leader>(.+)$/.exec(alt);
    const combo = leader ? leader[1] : alt;
    const parts = combo.split("+");
    const key = parts.pop() ?? "";
    for (const m of parts) {
      if (!MODIFIERS.has(m)) return `unknown modifier "${m}" in "${alt}"; use ctrl, alt, shift or super`;
    }
    const isKey = /^[a-z0-9]$/.test(key) || /^f([1-9]|1[0-2])$/.test(key) || NAMED_KEYS.has(key) || /^[`\-=[\]\\;',./]$/.test(key);
    if (!isKey) return `unknown key "${key}" in "${alt}"; use a letter, digit, f1-f12 or a name like return, escape, tab`;
  }
  return null;
}

/** Checks the chunking.nodeTypes map: { language: ["node_type", ...] }. */
export function checkNodeTypes(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return 'nodeTypes must be a JSON object like {"python": ["match_statement"]}';
  }
  for (const [lang, types] of Object.entries(value)) {
    if (!Array.isArray(types) || types.some((t) => typeof t !== "string" || t.trim() === "")) {
      return `nodeTypes["${lang}"] must be an array of node type names like ["match_statement"]`;
    }
  }
  return null;
}

/** Parses the text typed into a field's editor. */
export function parseFieldInput(field: SettingField, text: string): ParsedValue {
  const raw = text.trim();
  switch (field.kind) {
    case "integer":
    case "number": {
      if (!/^-?\d+(\.\d+)?$/.test(raw)) return { ok: false, error: `${field.key} needs a number, got "${raw}"` };
      const n = Number(raw);
      if (field.kind === "integer" && !Number.isInteger(n)) return { ok: false, error: `${field.key} needs a whole number, got ${raw}` };
      if (n < 0) return { ok: false, error: `${field.key} cannot be negative` };
      if (field.key === "retrieval.minScore" && n > 1) return { ok: false, error: "retrieval.minScore is a score between 0 and 1" };
      return { ok: true, value: n };
    }
    case "boolean": {
      if (/^(on|true|yes|1)$/i.test(raw)) return { ok: true, value: true };
      if (/^(off|false|no|0)$/i.test(raw)) return { ok: true, value: false };
      return { ok: false, error: `${field.key} is on or off, got "${raw}"` };
    }
    case "json": {
      let value: unknown;
      try {
        value = JSON.parse(raw === "" ? "{}" : raw);
      } catch (err) {
        return { ok: false, error: `invalid JSON: ${(err as Error).message}` };
      }
      const problem = field.key === "chunking.nodeTypes" ? checkNodeTypes(value) : null;
      return problem ? { ok: false, error: problem } : { ok: true, value };
    }
    case "keybinding": {
      const problem = checkKeybinding(raw);
      // Stored as the keymap writes it: lower case, alternatives joined by bare commas.
      const normalized = raw.toLowerCase().split(",").map((k) => k.trim()).join(",");
      return problem ? { ok: false, error: problem } : { ok: true, value: normalized };
    }
    default:
      return { ok: true, value: raw };
  }
}

/** The text an editor starts with for a field's current value. */
export function editorText(field: SettingField, value: unknown): string {
  if (field.kind === "json") return JSON.stringify(value ?? {});
  if (value === undefined || value === null) return "";
  return String(value);
}
