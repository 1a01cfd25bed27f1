/** @jsxImportSource @opentui/solid */
// A filterable list of models grouped by provider (F32). Typing narrows the list, ↑↓ move,
// Enter picks, Esc goes back. The list itself comes from model-options.ts.
import { createMemo, createSignal, For, Show } from "solid-js";
import { useKeyboard } from "@opentui/solid";
import type { KeyEvent } from "@opentui/core";
import type { ModelOption } from "../model-options.js";
import { usePalette } from "./colors.js";

export interface ModelPickerProps {
  title: string;
  options: ModelOption[];
  /** Title of the entry matching the current config, marked with "●". */
  currentTitle?: string;
  onPick: (option: ModelOption) => void;
  /** ← : back to where the picker was opened from. */
  onCancel: () => void;
  /** Esc: close everything (default: same as onCancel). */
  onClose?: () => void;
  /** Rows of the list shown at once. */
  rows?: number;
}

type Row = { kind: "group"; label: string } | { kind: "option"; option: ModelOption; index: number };

export function ModelPicker(props: ModelPickerProps) {
  const c = usePalette();
  const [filter, setFilter] = createSignal("");
  const [cursor, setCursor] = createSignal(0);
  const visible = createMemo(() => {
    const f = filter().toLowerCase();
    return props.options.filter((o) => !f || `${o.group} ${o.title}`.toLowerCase().includes(f) || o.changes === null);
  });
  const rows = createMemo<Row[]>(() => {
    const out: Row[] = [];
    let group = "";
    visible().forEach((option, index) => {
      if (option.group !== group) out.push({ kind: "group", label: (group = option.group) });
      out.push({ kind: "option", option, index });
    });
    return out;
  });
  // Scroll so the cursor's row stays in view.
  const windowed = createMemo(() => {
    const max = props.rows ?? 14;
    const all = rows();
    const at = all.findIndex((r) => r.kind === "option" && r.index === cursor());
    const start = Math.max(0, Math.min(at - Math.floor(max / 2), all.length - max));
    return all.slice(start, start + max);
  });

  useKeyboard((key: KeyEvent) => {
    const n = visible().length;
    key.preventDefault();
    if (key.name === "escape") return (props.onClose ?? props.onCancel)();
    if (key.name === "left") return props.onCancel();
    if (key.name === "up") return setCursor((c) => (c - 1 + n) % n);
    if (key.name === "down") return setCursor((c) => (c + 1) % n);
    if (key.name === "return" || key.name === "enter") {
      const o = visible()[cursor()];
      if (o) props.onPick(o);
      return;
    }
    if (key.name === "backspace") {
      setFilter((f) => f.slice(0, -1));
      setCursor(0);
      return;
    }
    if (!key.ctrl && !key.meta && key.sequence && key.sequence.length === 1 && key.sequence >= " ") {
      setFilter((f) => f + key.sequence);
      setCursor(0);
    }
  });

  return (
    <box flexDirection="column">
      <text fg={c().title}>{props.title}</text>
      <text fg={c().muted}>{filter() ? `filter: ${filter()}` : "type to filter"}</text>
      <For each={windowed()}>
        {(row) =>
          row.kind === "group" ? (
            <text fg={c().group}>{row.label}</text>
          ) : (
            <text fg={row.index === cursor() ? c().selected : c().text}>
              {`${row.index === cursor() ? "›" : " "} ${row.option.title}${row.option.title === props.currentTitle ? " ●" : ""}`}
            </text>
          )
        }
      </For>
      <Show when={visible().length === 1 && filter()}>
        <text fg={c().muted}>no model matches; pick Custom… to type an id</text>
      </Show>
      <text fg={c().muted}>↑↓ move · enter pick · ← back</text>
    </box>
  );
}
