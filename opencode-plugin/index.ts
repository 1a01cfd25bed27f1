// Entry of dist/plugin.js, the OpenCode server plugin (F29). OpenCode 1.18 loads a file plugin
// from its default export `{ id, server }`; the named exports are for callers that embed the
// plugin or hand-off partners (the TUI plugin uses the marker constants).
import type { PluginModule } from "@opencode-ai/plugin";
import { parseSource, languageForPath } from "../core/chunking/index.js";
import { openEngine } from "../core/engine.js";
import type { SyntaxNodeLike } from "../core/symbols/index.js";
import type { CoreDeps } from "./deps.js";
import { createServer, PLUGIN_ID } from "./server.js";

export const coreDeps: CoreDeps = {
  openEngine,
  async parseSource(filePath, content) {
    const parsed = await parseSource(filePath, content);
    return parsed ? { language: parsed.language, root: parsed.tree.rootNode as unknown as SyntaxNodeLike, ...(parsed.outline ? { outline: parsed.outline } : {}) } : null;
  },
  languageForPath: (filePath, content) => languageForPath(filePath, content) ?? null,
};

export const server = createServer(coreDeps);
export const id = PLUGIN_ID;
export { createServer, createRagHooks, guard, PLUGIN_ID } from "./server.js";
export { GUIDANCE_TEXT, WIKI_PROTOCOL, systemGuidance, skillMarkdown } from "./guidance.js";
export { INJECT_FILES_MARKER, INJECT_CHUNKS_MARKER, markerFor, extractMarkers, type MarkerAction } from "./markers.js";

const plugin: PluginModule = { id: PLUGIN_ID, server };
export default plugin;
