/** @jsxImportSource @opentui/solid */
// The settings dialog as a user drives it: keys in, rendered text and runtime-overrides.json out.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SettingsDialog } from "../../tui/components/SettingsDialog.js";
import { loadWorkspaceConfig } from "../../tui/workspace.js";
import type { ProviderLike } from "../../tui/model-options.js";
import { flat, render } from "./render.js";
import { BUNDLED_MODEL_ID } from "../../core/config/defaults.js";

const providers: ProviderLike[] = [
  {
    id: "zeta",
    name: "Zeta Cloud",
    options: { baseURL: "https://zeta.example/v1/" },
    models: { "z-embed": { id: "z-embed", name: "Zeta Embed" } },
  },
  {
    id: "acme",
    name: "Acme AI",
    options: { baseURL: "http://127.0.0.1:9999/v1" },
    models: {
      "acme-small": { id: "acme-small", name: "Acme Small" },
      "acme-big": { id: "acme-big", name: "Acme Big" },
    },
  },
];

let root: string;
let stateDir: string;
let closed: number;
let reindexed: number;
let saved: string[][];
let view: Awaited<ReturnType<typeof render>> | null;

const overridesPath = () => join(stateDir, "runtime-overrides.json");
const overrides = () => JSON.parse(readFileSync(overridesPath(), "utf8"));

async function open() {
  view = await render(
    () => (
      <SettingsDialog
        stateDir={stateDir}
        readConfig={() => loadWorkspaceConfig(root).config}
        providers={providers}
        onClose={() => closed++}
        onReindex={() => reindexed++}
        onSaved={(keys) => saved.push(keys)}
      />
    ),
    { width: 110, height: 32 },
  );
  return view;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "rag-tui-settings-"));
  stateDir = loadWorkspaceConfig(root).stateDir;
  closed = 0;
  reindexed = 0;
  saved = [];
  view = null;
});

afterEach(() => {
  view?.destroy();
  rmSync(root, { recursive: true, force: true });
});

describe("settings dialog", () => {
  test("lists every category and its settings with current values", async () => {
    const v = await open();
    for (const title of ["Retrieval", "Auto-Indexing", "Chunking", "Embedding", "LLM Descriptions", "Keybindings"]) {
      expect(v.frame()).toContain(title);
    }
    await v.press("enter");
    const f = v.frame();
    expect(f).toContain("opencode-rag settings › Retrieval");
    expect(f).toMatch(/Results per search \(topK\)\s+10/);
    expect(f).toMatch(/Hybrid search\s+on/);
  });

  test("changing topK saves it to runtime-overrides.json and shows the new value", async () => {
    const v = await open();
    await v.press("enter", "enter"); // Retrieval → topK editor
    expect(v.frame()).toContain("How many chunks a search returns.");
    await v.press("backspace", "backspace");
    await v.type("7");
    await v.press("enter");
    expect(v.frame()).toContain("Saved retrieval.topK = 7");
    expect(v.frame()).toMatch(/Results per search \(topK\)\s+7/);
    expect(overrides()).toEqual({ retrieval: { topK: 7 } });
    expect(saved).toEqual([["retrieval.topK"]]);
  });

  test("merges with overrides already in the file", async () => {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(overridesPath(), JSON.stringify({ retrieval: { minScore: 0.25 }, autoIndex: { debounceMs: 500 } }));
    const v = await open();
    await v.press("enter");
    expect(v.frame()).toMatch(/Minimum score\s+0\.25/);
    await v.press("down", "down", "down", "enter"); // toggle hybrid
    expect(v.frame()).toMatch(/Hybrid search\s+off/);
    expect(overrides()).toEqual({ retrieval: { minScore: 0.25, hybrid: false }, autoIndex: { debounceMs: 500 } });
  });

  test("refuses an invalid number with a message and writes nothing", async () => {
    const v = await open();
    await v.press("enter", "enter", "backspace", "backspace");
    await v.type("lots");
    await v.press("enter");
    expect(v.frame()).toContain('retrieval.topK needs a number, got "lots"');
    expect(existsSync(overridesPath())).toBe(false);
  });

  test("cycles an enum setting through the values the core allows", async () => {
    const v = await open();
    await v.press("down", "enter"); // Auto-Indexing
    await v.press("down", "down", "enter"); // backend
    expect(v.frame()).toMatch(/Watcher backend\s+git/);
    expect(overrides()).toEqual({ autoIndex: { backend: "git" } });
  });

  test("nodeTypes JSON editor validates, saves, and offers a re-index", async () => {
    const v = await open();
    await v.press("down", "down", "enter"); // Chunking
    await v.press("down", "down", "enter"); // nodeTypes editor, starts as {}
    await v.press("backspace", "backspace");
    await v.type('{"python": "match_statement"}');
    await v.press("enter");
    expect(v.frame()).toContain('nodeTypes["python"] must be an array of node type names');
    expect(existsSync(overridesPath())).toBe(false);
    for (let i = 0; i < 40; i++) await v.press("backspace");
    await v.type('{"python": ["match_statement"]}');
    await v.press("enter");
    expect(overrides()).toEqual({ chunking: { nodeTypes: { python: ["match_statement"] } } });
    expect(flat(v.frame())).toContain("chunking.nodeTypes changed: the index must be rebuilt.");
    expect(v.frame()).toContain("Press r to re-index now.");
    await v.type("r");
    expect(reindexed).toBe(1);
    expect(v.frame()).toContain("Re-index started");
  });

  test("turning descriptions on without a model says to pick one", async () => {
    const v = await open();
    await v.press("down", "down", "down", "down", "enter", "enter"); // LLM Descriptions → enabled
    expect(overrides()).toEqual({ description: { enabled: true } });
    const f = flat(v.frame());
    expect(f).toContain("description.enabled changed: the index must be rebuilt.");
    expect(f).toContain("Pick a description model below");
  });

  test("a setting that does not touch the index does not offer a re-index", async () => {
    const v = await open();
    await v.press("enter", "down", "down", "down", "enter"); // hybrid
    expect(v.frame()).not.toContain("re-index");
    await v.type("r");
    expect(reindexed).toBe(0);
  });

  test("keybindings are listed and editable, with key syntax checked", async () => {
    const v = await open();
    await v.press("up", "enter"); // Keybindings (last category)
    const f = v.frame();
    expect(f).toMatch(/Append related file list\s+ctrl\+return/);
    expect(f).toMatch(/Append related code chunks\s+ctrl\+alt\+return/);
    expect(f).toMatch(/Open these settings\s+ctrl\+shift\+r/);
    await v.press("down", "down", "enter");
    for (let i = 0; i < 15; i++) await v.press("backspace");
    await v.type("ctrl+hyper+r");
    await v.press("enter");
    expect(v.frame()).toContain('unknown modifier "hyper"');
    for (let i = 0; i < 15; i++) await v.press("backspace");
    await v.type("ctrl+alt+s");
    await v.press("enter");
    expect(v.frame()).toMatch(/Open these settings\s+ctrl\+alt\+s/);
    expect(overrides()).toEqual({ keybindings: { settings: "ctrl+alt+s" } });
    expect(saved).toEqual([["keybindings.settings"]]);
  });

  test("values set here are marked, and d resets them to the config file's value", async () => {
    writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ retrieval: { topK: 6 } }));
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(overridesPath(), JSON.stringify({ retrieval: { topK: 3 }, autoIndex: { enabled: false } }));
    const v = await open();
    await v.press("enter");
    expect(v.frame()).toMatch(/Results per search \(topK\)\s+3 •/);
    expect(v.frame()).toMatch(/Minimum score\s+0\s*\n/);
    await v.type("d");
    expect(v.frame()).toMatch(/Results per search \(topK\)\s+6\s*\n/);
    expect(flat(v.frame())).toContain("Reset retrieval.topK to the config file's value or the default");
    expect(overrides()).toEqual({ autoIndex: { enabled: false } });
    expect(saved).toEqual([["retrieval.topK"]]);
  });

  test("resetting a picked model drops provider, model and base URL together", async () => {
    const v = await open();
    await v.press("down", "down", "down", "enter", "enter");
    await v.type("zeta");
    await v.press("enter");
    expect(v.frame()).toMatch(/Model\s+z-embed •/);
    await v.type("d");
    expect(existsSync(overridesPath()) ? overrides() : {}).toEqual({});
    expect(v.frame()).toMatch(new RegExp(`Model\\s+${BUNDLED_MODEL_ID}\\s*\\n`));
    expect(flat(v.frame())).toContain("changed: the index must be rebuilt");
  });

  test("a broken overrides file is reported and left untouched", async () => {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(overridesPath(), "{ not json");
    const v = await open();
    await v.press("enter", "down", "down", "down", "enter");
    expect(v.frame()).toContain("invalid JSON");
    expect(readFileSync(overridesPath(), "utf8")).toBe("{ not json");
  });

  test("left goes back to the categories and escape closes", async () => {
    const v = await open();
    await v.press("enter", "left");
    expect(v.frame()).toContain("LLM Descriptions");
    await v.press("escape");
    await v.waitUntil(() => closed === 1);
    expect(closed).toBe(1);
  });
});

describe("model picker inside the settings", () => {
  test("lists the bundled model first, then providers and models sorted, then Custom…", async () => {
    const v = await open();
    await v.press("down", "down", "down", "enter", "enter"); // Embedding → Model
    const f = v.frame();
    const at = (s: string) => {
      const i = f.indexOf(s);
      expect(i).toBeGreaterThan(-1);
      return i;
    };
    expect(at("Bundled")).toBeGreaterThan(-1);
    expect(at(`${BUNDLED_MODEL_ID} (offline`)).toBeGreaterThan(at("Bundled"));
    expect(at("Acme AI")).toBeGreaterThan(at(`${BUNDLED_MODEL_ID} (offline`));
    expect(at("Acme Big")).toBeGreaterThan(at("Acme AI"));
    expect(at("Acme Small")).toBeGreaterThan(at("Acme Big"));
    expect(at("Zeta Cloud")).toBeGreaterThan(at("Acme Small"));
    expect(at("Custom…")).toBeGreaterThan(at("Zeta Embed"));
    // The current model is marked.
    expect(f).toContain(`${BUNDLED_MODEL_ID} (offline, ships with opencode-rag) ●`);
  });

  test("picking a provider's model sets provider, model and base URL, and says a re-index is needed", async () => {
    const v = await open();
    await v.press("down", "down", "down", "enter", "enter");
    await v.type("zeta");
    expect(v.frame()).toContain("filter: zeta");
    expect(v.frame()).not.toContain("Acme Big");
    await v.press("enter");
    expect(overrides()).toEqual({ embedding: { provider: "openai", model: "z-embed", baseUrl: "https://zeta.example/v1" } });
    expect(v.frame()).toMatch(/Model\s+z-embed/);
    expect(flat(v.frame())).toContain("embedding.provider, embedding.model changed: the index must be rebuilt");
  });

  test("Custom… takes a typed id with an optional provider prefix", async () => {
    const v = await open();
    await v.press("down", "down", "down", "enter", "enter");
    await v.press("up", "enter"); // Custom… is last; up wraps to it
    expect(v.frame()).toContain("Model id (prefix local/, ollama/ or openai/");
    await v.type("ollama/nomic-embed-text");
    await v.press("enter");
    expect(overrides()).toEqual({ embedding: { provider: "ollama", model: "nomic-embed-text" } });
  });

  test("the description model picker offers chat models, not the bundled embedding model", async () => {
    const v = await open();
    await v.press("down", "down", "down", "down", "enter"); // LLM Descriptions
    await v.press("down", "enter"); // Model
    expect(v.frame()).toContain("Description model");
    expect(v.frame()).not.toContain(`${BUNDLED_MODEL_ID} (offline`);
    await v.press("down", "enter"); // Acme Small (after Acme Big)
    expect(overrides()).toEqual({ description: { provider: "openai", model: "acme-small", baseUrl: "http://127.0.0.1:9999/v1" } });
  });
});
