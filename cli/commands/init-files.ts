// File handling shared by `opencode-rag init` and `init --mcp`: both edit project files in
// place, report what happened to each, and refuse to rewrite a JSON(C) file they cannot parse.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parse as parseJsonc, type ParseError } from "jsonc-parser";

/** The package's name, as package.json says it: how init finds it in a project's node_modules. */
export const PACKAGE_NAME = "opencode-rag";

/** What init did to one file; "kept" means it left a file the user owns alone. */
export type InitAction = "created" | "updated" | "unchanged" | "kept";

export function readIfExists(abs: string): string | null {
  return existsSync(abs) ? readFileSync(abs, "utf8") : null;
}

/** Writes `text` to `abs` (creating its folder) unless the file already holds exactly that. */
export function writeIfChanged(abs: string, text: string): Exclude<InitAction, "kept"> {
  const before = readIfExists(abs);
  if (before === text) return "unchanged";
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  return before === null ? "created" : "updated";
}

/** `text` parsed as JSONC (trailing commas allowed) when it is one object, else null. */
export function parseJsoncObject(text: string): Record<string, unknown> | null {
  const errors: ParseError[] = [];
  const parsed = parseJsonc(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0 || !parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  return parsed as Record<string, unknown>;
}
