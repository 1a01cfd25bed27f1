/** @jsxImportSource @opentui/solid */
// The sidebar section (F33): what the index holds and what the indexer is doing right now.
import { Show } from "solid-js";
import type { Accessor } from "solid-js";
import { formatAge, type SidebarStatus } from "../index-status.js";
import { usePalette } from "./colors.js";

export interface StatusSidebarProps {
  status: Accessor<SidebarStatus | null>;
  /** Re-evaluated every render so "5 min ago" moves; injectable for tests. */
  now?: () => number;
}

const count = (n: number | null) => (n === null ? "–" : n.toLocaleString("en-US"));

function bar(done: number, total: number, width = 12): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(ratio * width);
  return `${"█".repeat(filled)}${"░".repeat(width - filled)} ${Math.round(ratio * 100)}%`;
}

export function StatusSidebar(props: StatusSidebarProps) {
  const c = usePalette();
  const s = () => props.status();
  const now = () => (props.now ? props.now() : Date.now());
  return (
    <box flexDirection="column">
      <text fg={c().title}>
        <b>RAG index</b>
      </text>
      <Show when={s()} fallback={<text fg={c().muted}>reading status…</text>}>
        <text fg={c().text}>{`Chunks  ${count(s()!.chunks)}`}</text>
        <text fg={c().text}>{`Files   ${count(s()!.files)}`}</text>
        <text fg={c().text}>{`Model   ${s()!.provider}/${s()!.model}`}</text>
        <text fg={c().text}>{`Indexed ${formatAge(s()!.lastIndexedAt, now())}`}</text>
        <text fg={s()!.watch.state === "error" ? c().error : c().text}>
          {`Watcher ${s()!.watch.state}${s()!.watch.backend ? ` (${s()!.watch.backend})` : ""}`}
        </text>
        <Show when={s()!.watch.message}>
          <text fg={c().muted}>{s()!.watch.message}</text>
        </Show>
        <Show when={s()!.progress}>
          <text fg={c().warn}>
            {s()!.progress!.filesTotal === 0 ? "Indexing: scanning files…" : `Indexing ${s()!.progress!.filesDone}/${s()!.progress!.filesTotal} files`}
          </text>
          <text fg={c().warn}>{bar(s()!.progress!.filesDone, s()!.progress!.filesTotal)}</text>
        </Show>
        <Show when={s()!.note}>
          <text fg={c().muted}>{s()!.note}</text>
        </Show>
      </Show>
    </box>
  );
}
