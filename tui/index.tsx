/** @jsxImportSource @opentui/solid */
// The OpenCode TUI plugin: settings dialog (F30), keybindings (F31), model picker (F32) and the
// status sidebar (F33). It runs on OpenCode's main thread; retrieval stays in the server plugin
// (another thread): the inject keys only append a marker that its chat.message hook expands.
// Registered through .opencode/tui.json (written by `opencode-rag init`).
import type { TuiPlugin, TuiPluginApi, TuiPluginModule } from "@opencode-ai/plugin/tui";
import { createSignal } from "solid-js";
import { INJECT_CHUNKS_MARKER, INJECT_FILES_MARKER } from "../opencode-plugin/markers.js";
import { DEFAULT_CONFIG, type RagConfig } from "../core/config/defaults.js";
import { checkKeybinding } from "./setting-values.js";
import { SettingsDialog } from "./components/SettingsDialog.js";
import { StatusSidebar } from "./components/StatusSidebar.js";
import { StatusLine } from "./components/StatusLine.js";
import { PaletteContext, paletteFromTheme } from "./components/colors.js";
import { watchSidebarStatus, type SidebarStatus } from "./index-status.js";
import { loadWorkspaceConfig } from "./workspace.js";
import { startReindex } from "./reindex.js";
import type { ProviderLike } from "./model-options.js";

export const TUI_PLUGIN_ID = "opencode-rag:tui";

/** Palette / keymap command names. */
export const COMMANDS = {
  settings: "opencode-rag.settings",
  injectFiles: "opencode-rag.inject-files",
  injectChunks: "opencode-rag.inject-chunks",
} as const;

type InjectKind = "injectFiles" | "injectChunks";

const tui: TuiPlugin = async (api: TuiPluginApi) => {
  const root = api.state.path.directory || process.cwd();
  let workspace = loadWorkspaceConfig(root);
  const currentConfig = (): RagConfig => workspace.config;
  const reload = () => {
    workspace = loadWorkspaceConfig(root);
    return workspace.config;
  };

  // Read on every render, so a theme switch recolours the views.
  const palette = () => paletteFromTheme(api.theme.current);
  const toastError = (message: string) => api.ui.toast({ variant: "error", title: "opencode-rag", message });

  function openSettings() {
    reload();
    api.ui.dialog.replace(() => (
      <PaletteContext.Provider value={palette}>
        <SettingsDialog
          stateDir={workspace.stateDir}
          readConfig={reload}
          providers={api.state.provider as readonly ProviderLike[]}
          problem={workspace.problem}
          onClose={() => api.ui.dialog.clear()}
          onReindex={() => startReindex(root, toastError)}
          onSaved={(keys) => {
            if (keys.some((k) => k.startsWith("keybindings."))) registerKeys();
          }}
        />
      </PaletteContext.Provider>
    ));
    api.ui.dialog.setSize("large");
  }

  // The prompt is the editor that has focus while no dialog is open. Remember it: run from the
  // palette, the palette's input has focus, and after the palette closes nothing may have.
  type Editor = NonNullable<typeof api.renderer.currentFocusedEditor>;
  let promptEditor: Editor | null = null;
  const onFocusedEditor = (editor: Editor | null) => {
    if (editor && !api.ui.dialog.open) promptEditor = editor;
  };
  api.renderer.on("focused_editor", onFocusedEditor);
  onFocusedEditor(api.renderer.currentFocusedEditor);

  async function promptText(): Promise<string> {
    for (let i = 0; i < 40 && api.ui.dialog.open; i++) await new Promise((r) => setTimeout(r, 25));
    if (api.ui.dialog.open) return "";
    const editor = api.renderer.currentFocusedEditor ?? (promptEditor && !promptEditor.isDestroyed ? promptEditor : null);
    return editor?.plainText ?? "";
  }

  async function inject(kind: InjectKind) {
    const prompt = await promptText();
    if (!prompt.trim()) {
      const what = kind === "injectFiles" ? "a list of related files" : "related code";
      api.ui.toast({ variant: "warning", title: "opencode-rag", message: `Type a prompt first: the key adds ${what} to it.` });
      return;
    }
    const marker = kind === "injectFiles" ? INJECT_FILES_MARKER : INJECT_CHUNKS_MARKER;
    try {
      await api.client.tui.appendPrompt({ text: ` ${marker}` });
      await api.client.tui.submitPrompt();
    } catch (err) {
      toastError(`could not send the prompt: ${(err as Error).message}`);
    }
  }

  /** The configured key of each binding; a value the keymap cannot parse falls back to the default. */
  function bindingKeys(): RagConfig["keybindings"] {
    const keys = { ...currentConfig().keybindings };
    for (const name of Object.keys(keys) as Array<keyof typeof keys>) {
      const problem = checkKeybinding(String(keys[name]));
      if (problem) {
        toastError(`keybindings.${name}: ${problem}; using ${DEFAULT_CONFIG.keybindings[name]}`);
        keys[name] = DEFAULT_CONFIG.keybindings[name];
      }
    }
    return keys;
  }

  let unregisterKeys: (() => void) | null = null;
  function registerKeys() {
    unregisterKeys?.();
    unregisterKeys = null;
    const keys = bindingKeys();
    try {
      unregisterKeys = api.keymap.registerLayer({
        commands: [
          {
            name: COMMANDS.settings,
            title: "RAG settings",
            desc: "Retrieval, indexing, chunking, models and keys of opencode-rag",
            category: "opencode-rag",
            namespace: "palette",
            slashName: "rag-settings",
            run: () => openSettings(),
          },
          {
            name: COMMANDS.injectFiles,
            title: "RAG: send prompt with related files",
            category: "opencode-rag",
            namespace: "palette",
            run: () => void inject("injectFiles"),
          },
          {
            name: COMMANDS.injectChunks,
            title: "RAG: send prompt with related code",
            category: "opencode-rag",
            namespace: "palette",
            run: () => void inject("injectChunks"),
          },
        ],
        // "a,b" alternatives become one binding each.
        bindings: (["settings", "injectFiles", "injectChunks"] as const).flatMap((name) =>
          String(keys[name])
            .split(",")
            .map((key) => ({ key: key.trim(), cmd: COMMANDS[name] })),
        ),
      });
    } catch (err) {
      toastError(`could not register the opencode-rag keys: ${(err as Error).message}`);
    }
  }
  registerKeys();

  const [status, setStatus] = createSignal<SidebarStatus | null>(null);
  const stopStatus = watchSidebarStatus(workspace.stateDir, currentConfig, setStatus);
  api.slots.register({
    order: 50,
    slots: {
      home_bottom() {
        return (
          <PaletteContext.Provider value={palette}>
            <StatusLine status={status} />
          </PaletteContext.Provider>
        );
      },
      sidebar_content() {
        return (
          <PaletteContext.Provider value={palette}>
            <StatusSidebar status={status} />
          </PaletteContext.Provider>
        );
      },
    },
  });

  api.lifecycle.onDispose(() => {
    api.renderer.off("focused_editor", onFocusedEditor);
    stopStatus();
    unregisterKeys?.();
  });
};

const plugin: TuiPluginModule & { id: string } = { id: TUI_PLUGIN_ID, tui };
export default plugin;
