// The config file after `opencode-rag init`: it names the package's JSON Schema ("$schema"), so
// an editor completes and checks every key. A project without a config file gets
// .opencode/rag.json holding only that (the defaults apply); an existing one gets the "$schema"
// it lacks, or ours updated, with its comments and settings kept.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyEdits, modify } from "jsonc-parser";
import { SCHEMA_KEY } from "../../core/config/validate.js";
import { PACKAGE_NAME, parseJsoncObject } from "./init-files.js";

/** Where init creates the config file when the project has none (beside the plugin files). */
export const NEW_CONFIG_FILE = ".opencode/rag.json";

/**
 * A "$schema" an earlier init wrote: this package's schema file wherever it was, also in a
 * folder of another name (a checkout, a global install) whose package.json says opencode-rag.
 */
function ours(ref: unknown, configDir: string): boolean {
  if (typeof ref !== "string" || !/(^|\/)dist\/config\.schema\.json$/.test(ref)) return false;
  if (/(^|\/)opencode-rag\/dist\//.test(ref)) return true;
  try {
    const schema = ref.startsWith("file:") ? fileURLToPath(ref) : resolve(configDir, ref);
    return JSON.parse(readFileSync(join(dirname(schema), "..", "package.json"), "utf8")).name === PACKAGE_NAME;
  } catch {
    return false;
  }
}

/** The text of the config file in `configDir` with `"$schema": ref`, or why it stays as it is. */
export function withSchemaRef(existing: string | null, ref: string, configDir: string): { text: string } | { kept: string } {
  if (existing === null || existing.trim() === "") return { text: `${JSON.stringify({ [SCHEMA_KEY]: ref }, null, 2)}\n` };
  const cfg = parseJsoncObject(existing);
  if (!cfg) return { kept: `not valid JSON: fix it, then re-run init to add "${SCHEMA_KEY}"` };
  if (cfg[SCHEMA_KEY] === ref) return { text: existing };
  if (cfg[SCHEMA_KEY] !== undefined && !ours(cfg[SCHEMA_KEY], configDir)) return { kept: `its "${SCHEMA_KEY}" names another schema; left as is` };
  const edits = modify(existing, [SCHEMA_KEY], ref, { formattingOptions: { insertSpaces: true, tabSize: 2 }, getInsertionIndex: () => 0 });
  return { text: applyEdits(existing, edits) };
}
