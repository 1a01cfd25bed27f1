/** @jsxImportSource @opentui/solid */
// The settings dialog (F30): categories → fields → an editor per field kind. Every change is
// parsed, validated by the core's validator and saved to runtime-overrides.json at once; a change
// to a key in REINDEX_KEYS says so and offers a re-index (key r).
import { createMemo, createSignal, For, Match, Show, Switch } from "solid-js";
import { useKeyboard } from "@opentui/solid";
import type { KeyEvent } from "@opentui/core";
import type { RagConfig } from "../../core/config/defaults.js";
import { getPath } from "../../core/config/validate.js";
import { enumValues, formatValue, needsReindex, SETTINGS_CATEGORIES, type SettingCategory, type SettingField } from "../settings-schema.js";
import { editorText, parseFieldInput } from "../setting-values.js";
import { readOverrides, removeOverrides, saveOverrides, type Overrides } from "../overrides.js";
import { buildModelOptions, customModelChanges, CUSTOM_MODEL_TITLE, type ModelOption, type ProviderLike } from "../model-options.js";
import { ModelPicker } from "./ModelPicker.js";
import { usePalette } from "./colors.js";

export interface SettingsDialogProps {
  stateDir: string;
  /** Reads the effective config (config file + overrides), called again after each save. */
  readConfig: () => RagConfig;
  providers: readonly ProviderLike[];
  onClose: () => void;
  /** Starts a re-index; offered after a change that invalidates the index. */
  onReindex?: () => void;
  /** Told which keys were saved (e.g. to re-register keybindings). */
  onSaved?: (keys: string[]) => void;
  /** A problem loading the config, shown on top until fixed. */
  problem?: string | null;
}

/** The overrides file as it is now; {} when missing or unreadable (saving reports the latter). */
function readOverridesQuietly(stateDir: string): Overrides {
  try {
    return readOverrides(stateDir);
  } catch {
    return {};
  }
}

type Screen =
  | { kind: "categories" }
  | { kind: "fields"; category: SettingCategory }
  | { kind: "edit"; category: SettingCategory; field: SettingField }
  | { kind: "models"; category: SettingCategory; field: SettingField }
  | { kind: "custom"; category: SettingCategory; field: SettingField };

type Message = { tone: "ok" | "error" | "warn"; text: string } | null;

export function SettingsDialog(props: SettingsDialogProps) {
  const c = usePalette();
  const [config, setConfig] = createSignal<RagConfig>(props.readConfig());
  const [screen, setScreen] = createSignal<Screen>({ kind: "categories" });
  const [cursor, setCursor] = createSignal(0);
  const [categoryCursor, setCategoryCursor] = createSignal(0);
  const [message, setMessage] = createSignal<Message>(props.problem ? { tone: "error", text: props.problem } : null);
  const [reindexKeys, setReindexKeys] = createSignal<string[]>([]);
  const [draft, setDraft] = createSignal("");
  const [overrides, setOverrides] = createSignal(readOverridesQuietly(props.stateDir));

  const describe = (v: unknown) => JSON.stringify(v);

  /** Saves dotted-key changes; returns false (and shows why) when refused. */
  function apply(changes: Record<string, unknown>): boolean {
    const keys = Object.keys(changes);
    const summary = keys.map((k) => `${k} = ${describe(changes[k])}`).join(", ");
    return commit(keys, () => saveOverrides(props.stateDir, changes), `Saved ${summary}`, changes["description.enabled"] === true);
  }

  /** Drops the overrides of these keys: the config file or the default applies again. */
  function reset(keys: string[]): void {
    const set = keys.filter((k) => getPath(overrides(), k) !== undefined);
    if (set.length === 0) {
      setMessage({ tone: "ok", text: `${keys.join(", ")}: not set here; nothing to reset` });
      return;
    }
    commit(set, () => removeOverrides(props.stateDir, set), `Reset ${set.join(", ")} to the config file's value or the default`, false);
  }

  /**
   * Writes the overrides file, re-reads the effective config, and says what changed: a key of
   * REINDEX_KEYS whose effective value moved offers a re-index.
   */
  function commit(keys: string[], write: () => ReturnType<typeof saveOverrides>, done: string, enablingDescriptions: boolean): boolean {
    const before = config();
    const outcome = write();
    if (!outcome.ok) {
      setMessage({ tone: "error", text: outcome.problems[0] ?? "invalid value" });
      return false;
    }
    setOverrides(readOverridesQuietly(props.stateDir));
    let after: RagConfig;
    try {
      after = props.readConfig();
    } catch (err) {
      setMessage({ tone: "error", text: (err as Error).message });
      return false;
    }
    setConfig(after);
    const rebuild = keys.filter((k) => needsReindex(k) && describe(getPath(before, k)) !== describe(getPath(after, k)));
    const notes: string[] = [];
    if (rebuild.length > 0) {
      setReindexKeys((old) => [...new Set([...old, ...rebuild])]);
      notes.push(`${rebuild.join(", ")} changed: the index must be rebuilt.`);
    }
    if (enablingDescriptions && !after.description.model) {
      notes.push("Pick a description model below: without one no descriptions are made.");
    }
    setMessage(notes.length > 0 ? { tone: "warn", text: `${done}. ${notes.join(" ")}` } : { tone: "ok", text: done });
    props.onSaved?.(keys);
    return true;
  }

  /** Config keys a field writes: a model field writes provider, model and base URL together. */
  const fieldKeys = (field: SettingField) =>
    field.kind === "model" ? ["provider", "model", "baseUrl"].map((k) => `${field.modelTarget ?? "embedding"}.${k}`) : [field.key];
  const isOverridden = (field: SettingField) => fieldKeys(field).some((k) => getPath(overrides(), k) !== undefined);

  function activate(category: SettingCategory, field: SettingField) {
    const value = getPath(config(), field.key);
    switch (field.kind) {
      case "boolean":
        apply({ [field.key]: !value });
        return;
      case "enum": {
        const values = enumValues(field.key);
        const next = values[(values.indexOf(String(value)) + 1) % values.length];
        apply({ [field.key]: next });
        return;
      }
      case "model":
        setMessage(null);
        setScreen({ kind: "models", category, field });
        return;
      default:
        setDraft(editorText(field, value));
        setMessage(null);
        setScreen({ kind: "edit", category, field });
    }
  }

  function submitEdit(field: SettingField, category: SettingCategory, text: string) {
    const parsed = parseFieldInput(field, text);
    if (!parsed.ok) {
      setMessage({ tone: "error", text: parsed.error });
      return;
    }
    if (apply({ [field.key]: parsed.value })) setScreen({ kind: "fields", category });
  }

  function submitCustom(field: SettingField, category: SettingCategory, text: string) {
    const changes = customModelChanges(field.modelTarget ?? "embedding", text);
    if (typeof changes === "string") {
      setMessage({ tone: "error", text: changes });
      return;
    }
    if (apply(changes)) setScreen({ kind: "fields", category });
  }

  function pickModel(field: SettingField, category: SettingCategory, option: ModelOption) {
    if (option.changes === null) {
      setDraft("");
      setMessage(null);
      setScreen({ kind: "custom", category, field });
      return;
    }
    if (apply(option.changes)) setScreen({ kind: "fields", category });
  }

  const modelOptions = (field: SettingField) => buildModelOptions(props.providers, field.modelTarget ?? "embedding");
  const currentModelTitle = (field: SettingField, options: ModelOption[]) => {
    const target = field.modelTarget ?? "embedding";
    if (!getPath(config(), `${target}.model`)) return undefined; // nothing chosen yet
    const hit = options.find(
      (o) => o.changes && o.changes[`${target}.model`] === getPath(config(), `${target}.model`) && o.changes[`${target}.provider`] === getPath(config(), `${target}.provider`),
    );
    return hit?.title ?? CUSTOM_MODEL_TITLE;
  };

  useKeyboard((key: KeyEvent) => {
    const s = screen();
    if (s.kind === "models") return; // the picker has its own keys
    if (s.kind === "edit" || s.kind === "custom") {
      // Esc closes the whole dialog, as OpenCode's own dialogs do (its dialog stack handles Esc first).
      if (key.name === "escape") {
        key.preventDefault();
        props.onClose();
      }
      return; // the input owns every other key
    }
    // List screens own the keyboard: the key must not also reach an input that this very key
    // brings into focus (Enter would open the editor and submit it at once) or the prompt behind.
    key.preventDefault();
    if (key.name === "r" && !key.ctrl && !key.meta && reindexKeys().length > 0 && props.onReindex) {
      props.onReindex();
      setReindexKeys([]);
      setMessage({ tone: "ok", text: "Re-index started; the sidebar shows its progress." });
      return;
    }
    if (s.kind === "categories") {
      const n = SETTINGS_CATEGORIES.length;
      if (key.name === "escape") return props.onClose();
      if (key.name === "up") return setCategoryCursor((c) => (c - 1 + n) % n);
      if (key.name === "down") return setCategoryCursor((c) => (c + 1) % n);
      if (key.name === "return" || key.name === "enter" || key.name === "right") {
        setCursor(0);
        setScreen({ kind: "fields", category: SETTINGS_CATEGORIES[categoryCursor()] });
      }
      return;
    }
    const n = s.category.fields.length;
    if (key.name === "escape") return props.onClose();
    if (key.name === "left" || key.name === "backspace") {
      setMessage(null);
      return setScreen({ kind: "categories" });
    }
    if (key.name === "up") return setCursor((c) => (c - 1 + n) % n);
    if (key.name === "down") return setCursor((c) => (c + 1) % n);
    if (key.name === "d" && !key.ctrl && !key.meta) return reset(fieldKeys(s.category.fields[cursor()]));
    if (key.name === "return" || key.name === "enter" || key.name === "space") activate(s.category, s.category.fields[cursor()]);
  });

  const breadcrumb = createMemo(() => {
    const s = screen();
    if (s.kind === "categories") return "opencode-rag settings";
    if (s.kind === "fields") return `opencode-rag settings › ${s.category.title}`;
    return `opencode-rag settings › ${s.category.title} › ${s.field.label}`;
  });
  const pad = (text: string, width: number) => (text.length >= width ? text.slice(0, width) : text + " ".repeat(width - text.length));

  return (
    <box flexDirection="column" paddingLeft={1} paddingRight={1}>
      <text fg={c().title}>{breadcrumb()}</text>
      <text> </text>
      <Switch>
        <Match when={screen().kind === "categories"}>
          <For each={SETTINGS_CATEGORIES}>
            {(cat, i) => (
              <text fg={i() === categoryCursor() ? c().selected : c().text}>
                {`${i() === categoryCursor() ? "›" : " "} ${pad(cat.title, 18)} ${cat.fields.map((f) => f.key.split(".").pop()).join(", ")}`}
              </text>
            )}
          </For>
        </Match>
        <Match when={screen().kind === "fields"}>
          <For each={(screen() as { category: SettingCategory }).category.fields}>
            {(field, i) => (
              <text fg={i() === cursor() ? c().selected : c().text}>
                {`${i() === cursor() ? "›" : " "} ${pad(field.label, 30)} ${formatValue(field, config())}${isOverridden(field) ? " •" : ""}`}
              </text>
            )}
          </For>
          <text> </text>
          <text fg={c().muted}>{(screen() as { category: SettingCategory }).category.fields[cursor()]?.help ?? ""}</text>
        </Match>
        <Match when={screen().kind === "edit" || screen().kind === "custom"}>
          <text fg={c().muted}>
            {screen().kind === "custom"
              ? "Model id (prefix local/, ollama/ or openai/ to choose the provider):"
              : (screen() as { field: SettingField }).field.help}
          </text>
          <box border height={3}>
            <input
              focused
              value={draft()}
              onInput={setDraft}
              onSubmit={() => {
                const s = screen() as { kind: string; field: SettingField; category: SettingCategory };
                if (s.kind === "custom") submitCustom(s.field, s.category, draft());
                else submitEdit(s.field, s.category, draft());
              }}
            />
          </box>
        </Match>
        <Match when={screen().kind === "models"}>
          {(() => {
            const s = screen() as { field: SettingField; category: SettingCategory };
            const options = modelOptions(s.field);
            return (
              <ModelPicker
                title={s.field.modelTarget === "description" ? "Description model" : "Embedding model"}
                options={options}
                currentTitle={currentModelTitle(s.field, options)}
                onPick={(o) => pickModel(s.field, s.category, o)}
                onCancel={() => setScreen({ kind: "fields", category: s.category })}
                onClose={props.onClose}
              />
            );
          })()}
        </Match>
      </Switch>
      <Show when={message()}>
        <text fg={message()!.tone === "error" ? c().error : message()!.tone === "warn" ? c().warn : c().ok}>{message()!.text}</text>
      </Show>
      <Show when={reindexKeys().length > 0 && props.onReindex && screen().kind !== "edit"}>
        <text fg={c().warn}>Press r to re-index now.</text>
      </Show>
      <text fg={c().muted}>
        {screen().kind === "categories"
          ? "↑↓ move · enter open · esc close"
          : screen().kind === "fields"
            ? "↑↓ move · enter change · d reset • · ← back · esc close"
            : screen().kind === "models"
              ? ""
              : "enter save · esc close"}
      </text>
    </box>
  );
}
