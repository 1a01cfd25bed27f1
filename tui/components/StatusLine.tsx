/** @jsxImportSource @opentui/solid */
// One line of index status under the home screen's prompt, where the session sidebar is not
// shown yet: what is indexed, or the running pass's progress.
import type { Accessor } from "solid-js";
import { formatAge, type SidebarStatus } from "../index-status.js";
import { usePalette } from "./colors.js";

export interface StatusLineProps {
  status: Accessor<SidebarStatus | null>;
  now?: () => number;
}

export function statusLineText(s: SidebarStatus | null, now = Date.now()): string {
  if (!s) return "opencode-rag · reading status…";
  if (s.progress) {
    const { filesDone, filesTotal } = s.progress;
    if (filesTotal === 0) return "opencode-rag · indexing: scanning files…";
    const pct = filesTotal > 0 ? Math.round((100 * filesDone) / filesTotal) : 0;
    return `opencode-rag · indexing ${filesDone}/${filesTotal} files (${pct}%)`;
  }
  if (s.chunks === null) return `opencode-rag · ${s.note ?? "not indexed yet"}`;
  return `opencode-rag · ${s.chunks.toLocaleString("en-US")} chunks in ${(s.files ?? 0).toLocaleString("en-US")} files · indexed ${formatAge(s.lastIndexedAt, now)} · watcher ${s.watch.state}`;
}

export function StatusLine(props: StatusLineProps) {
  const c = usePalette();
  return (
    <text fg={props.status()?.progress ? c().warn : c().muted}>{statusLineText(props.status(), props.now ? props.now() : Date.now())}</text>
  );
}
