// Slash commands this plugin adds to OpenCode through the `config` hook. Each template carries a
// marker (markers.ts) that the chat.message hook expands, so the commands work the same in the
// TUI and in `opencode run --command`.
import type { RagConfig } from "../core/config/defaults.js";
import { INJECT_CHUNKS_MARKER, INJECT_FILES_MARKER, markerFor } from "./markers.js";

export interface CommandDefinition {
  template: string;
  description: string;
}

export function slashCommands(config: RagConfig): Record<string, CommandDefinition> {
  const commands: Record<string, CommandDefinition> = {
    rag: {
      template: `$ARGUMENTS\n\n${INJECT_FILES_MARKER}`,
      description: "opencode-rag: ask with a list of related files appended",
    },
    "rag-chunks": {
      template: `$ARGUMENTS\n\n${INJECT_CHUNKS_MARKER}`,
      description: "opencode-rag: ask with related code chunks appended",
    },
  };
  if (config.documentationMode.enabled) {
    commands.doc = {
      template: `${markerFor("doc", "$ARGUMENTS")}\nDocumentation mode (opencode-rag).`,
      description: "opencode-rag: list undocumented files; /doc <dir> marks a directory done",
    };
  }
  if (config.wikiMode.enabled) {
    commands.wiki = {
      template: `${markerFor("wiki", "$ARGUMENTS")}\nProject wiki (opencode-rag).`,
      description: "opencode-rag: wiki status; /wiki lint, /wiki seed",
    };
  }
  return commands;
}
