// Plain-text tables for one configuration or two side by side. Portable (no terminal codes).
import type { EvalSummary, ScoreSummary } from "./types.js";

function fmt(x: number): string {
  return x.toFixed(3);
}

function signed(x: number): string {
  const s = x.toFixed(3);
  return x > 0 ? `+${s}` : x === 0 ? ` ${s}` : s;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** Groups in display order: overall, then each category, language and repo. */
function groups(s: EvalSummary): Array<[string, ScoreSummary]> {
  const sets = Object.keys(s.bySet);
  return [
    ["overall", s.overall],
    ...(sets.length > 1 ? Object.entries(s.bySet).map(([k, v]) => [`set:${k}`, v] as [string, ScoreSummary]) : []),
    ...Object.entries(s.byCategory).map(([k, v]) => [`category:${k}`, v] as [string, ScoreSummary]),
    ...Object.entries(s.bySymbolNamed ?? {}).map(([k, v]) => [`symbol-${k}`, v] as [string, ScoreSummary]),
    ...Object.entries(s.byLanguage).map(([k, v]) => [`language:${k}`, v] as [string, ScoreSummary]),
    ...Object.entries(s.byRepo).map(([k, v]) => [`repo:${k}`, v] as [string, ScoreSummary]),
  ];
}

export function formatSummary(s: EvalSummary): string {
  const ks = Object.keys(s.overall.recall).map(Number).sort((a, b) => a - b);
  const header = ["group", "n", ...ks.map((k) => `R@${k}`), "MRR@10", "strict MRR@10", "NDCG@10"];
  const rows = groups(s).map(([name, g]) => [name, String(g.count), ...ks.map((k) => fmt(g.recall[k] ?? 0)), fmt(g.mrr10), fmt(g.strictMrr10), fmt(g.ndcg10)]);
  const latency = `latency ms: p50 ${s.latency.p50.toFixed(1)}  p95 ${s.latency.p95.toFixed(1)}  mean ${s.latency.mean.toFixed(1)}`;
  return `${table(header, rows)}\n${latency}`;
}

export interface ComparisonRow {
  group: string;
  count: number;
  a: { recall10: number; mrr10: number; strictMrr10: number; ndcg10: number };
  b: { recall10: number; mrr10: number; strictMrr10: number; ndcg10: number };
}

export function compareSummaries(a: EvalSummary, b: EvalSummary): ComparisonRow[] {
  const bGroups = new Map(groups(b));
  const pick = (g: ScoreSummary) => ({ recall10: g.recall[10] ?? 0, mrr10: g.mrr10, strictMrr10: g.strictMrr10, ndcg10: g.ndcg10 });
  return groups(a)
    .filter(([name]) => bGroups.has(name))
    .map(([name, g]) => ({ group: name, count: g.count, a: pick(g), b: pick(bGroups.get(name)!) }));
}

export function formatComparison(nameA: string, a: EvalSummary, nameB: string, b: EvalSummary): string {
  const rows = compareSummaries(a, b).map((r) => [
    r.group,
    String(r.count),
    fmt(r.a.ndcg10),
    fmt(r.b.ndcg10),
    signed(r.b.ndcg10 - r.a.ndcg10),
    fmt(r.a.mrr10),
    fmt(r.b.mrr10),
    signed(r.b.mrr10 - r.a.mrr10),
    fmt(r.a.strictMrr10),
    fmt(r.b.strictMrr10),
    signed(r.b.strictMrr10 - r.a.strictMrr10),
    fmt(r.a.recall10),
    fmt(r.b.recall10),
    signed(r.b.recall10 - r.a.recall10),
  ]);
  const header = ["group", "n", "NDCG@10 A", "B", "Δ", "MRR@10 A", "B", "Δ", "strict MRR A", "B", "Δ", "R@10 A", "B", "Δ"];
  const lat = (s: EvalSummary) => `p50 ${s.latency.p50.toFixed(1)} / p95 ${s.latency.p95.toFixed(1)} ms`;
  return [`A = ${nameA}   B = ${nameB}`, table(header, rows), `latency A: ${lat(a)}   B: ${lat(b)}`].join("\n");
}
