// What a typed value becomes, and the one-line errors that tell the user what to type instead.
import { describe, expect, test } from "bun:test";
import { checkKeybinding, parseFieldInput } from "../../tui/setting-values.js";
import { buildModelOptions, customModelChanges } from "../../tui/model-options.js";
import { SETTINGS_CATEGORIES, needsReindex } from "../../tui/settings-schema.js";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { getPath } from "../../core/config/validate.js";

const field = (key: string) => SETTINGS_CATEGORIES.flatMap((c) => c.fields).find((f) => f.key === key)!;

describe("typed values", () => {
  test("numbers: whole numbers where the setting counts things, scores within 0..1", () => {
    expect(parseFieldInput(field("retrieval.topK"), " 12 ")).toEqual({ ok: true, value: 12 });
    expect(parseFieldInput(field("retrieval.topK"), "2.5")).toEqual({ ok: false, error: "retrieval.topK needs a whole number, got 2.5" });
    expect(parseFieldInput(field("retrieval.minScore"), "0.35")).toEqual({ ok: true, value: 0.35 });
    expect(parseFieldInput(field("retrieval.minScore"), "3")).toEqual({ ok: false, error: "retrieval.minScore is a score between 0 and 1" });
    expect(parseFieldInput(field("autoIndex.debounceMs"), "-5")).toEqual({ ok: false, error: "autoIndex.debounceMs cannot be negative" });
  });

  test("key bindings follow the keymap's syntax", () => {
    expect(checkKeybinding("ctrl+return")).toBeNull();
    expect(checkKeybinding("ctrl+alt+return, f6")).toBeNull();
    expect(checkKeybinding("<leader>r")).toBeNull();
    expect(checkKeybinding("")).toMatch(/cannot be empty/);
    expect(checkKeybinding("ctrl+hyper+x")).toMatch(/unknown modifier "hyper"/);
    expect(checkKeybinding("ctrl+enterr")).toMatch(/unknown key "enterr"/);
    expect(checkKeybinding("f6,,f7")).toMatch(/empty alternative/);
    expect(parseFieldInput(field("keybindings.settings"), "Ctrl+Shift+R")).toEqual({ ok: true, value: "ctrl+shift+r" });
    expect(parseFieldInput(field("keybindings.settings"), "ctrl+shift+r , F6")).toEqual({ ok: true, value: "ctrl+shift+r,f6" });
  });

  test("every field shown in the dialog is a real config key", () => {
    for (const f of SETTINGS_CATEGORIES.flatMap((c) => c.fields)) expect(getPath(DEFAULT_CONFIG, f.key) !== undefined).toBe(true);
    expect(needsReindex("embedding.model")).toBe(true);
    expect(needsReindex("chunking.nodeTypes")).toBe(true);
    expect(needsReindex("retrieval.topK")).toBe(false);
  });
});

describe("model choices", () => {
  test("an Ollama provider maps to the ollama client at the server root", () => {
    const options = buildModelOptions(
      [{ id: "ollama", name: "Ollama (local)", options: { baseURL: "http://localhost:11434/v1" }, models: { "nomic-embed-text": { id: "nomic-embed-text", name: "nomic-embed-text" } } }],
      "embedding",
    );
    expect(options.map((o) => o.group)).toEqual(["Bundled", "Ollama (local)", "Other"]);
    expect(options[1].changes).toEqual({ "embedding.provider": "ollama", "embedding.model": "nomic-embed-text", "embedding.baseUrl": "http://localhost:11434" });
  });

  test("a model without a provider-level URL uses the model's API URL", () => {
    const options = buildModelOptions([{ id: "x", name: "X", models: { m: { id: "m", name: "M", api: { url: "https://x.example/v1", npm: "@ai-sdk/openai" } } } }], "description");
    expect(options[0].changes).toEqual({ "description.provider": "openai", "description.model": "m", "description.baseUrl": "https://x.example/v1" });
  });

  test("custom ids keep or set the provider", () => {
    expect(customModelChanges("embedding", "my-model")).toEqual({ "embedding.model": "my-model" });
    expect(customModelChanges("embedding", "local/Xenova/all-MiniLM-L6-v2")).toEqual({ "embedding.provider": "local", "embedding.model": "Xenova/all-MiniLM-L6-v2" });
    expect(customModelChanges("description", "local/x")).toMatch(/need a chat model/);
    expect(customModelChanges("embedding", "  ")).toMatch(/type a model id/);
  });
});
