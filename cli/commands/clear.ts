// `opencode-rag clear`: delete the index (rows, manifest, keyword index, embedding cache).
// Settings (config files, runtime overrides) are kept.
import type { Command } from "../command.js";

export const clearCommand: Command = {
  name: "clear",
  summary: "delete the index of this workspace",
  help: `Usage: opencode-rag clear

Deletes the vector store table, the manifest, the keyword index and the embedding cache.
Configuration files are kept.`,
  options: {},
  async run(ctx) {
    const engine = await ctx.engine();
    await engine.clear();
    ctx.out(`cleared the index at ${engine.storeUri}`);
    return 0;
  },
};
