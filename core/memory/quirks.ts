// Quirk memory (F28): what the agent learns in one session, recalled in the next.
// The audit log is the source of truth; the search index (rows of kind "quirk" in the same
// vector store and keyword index as code) is derived from it and can always be rebuilt.
import { effectiveConfidence } from "./decay.js";
import { findDuplicate, lexicalSimilarity, tokenOverlap } from "./similarity.js";
import { redactionCount, stripSecrets } from "../redact.js";
import { checkTrust } from "./trust.js";

export const QUIRK_TYPES = ["gotcha", "preference", "decision", "environment-constraint"] as const;
export type QuirkType = (typeof QUIRK_TYPES)[number];

export interface Quirk {
  id: string;
  content: string;
  type: QuirkType;
  tags: string[];
  /** In (0,1]: how sure whoever stored it was. Decays from `confirmedAt` when decay is on. */
  confidence: number;
  createdAt: string;
  confirmedAt: string;
  source: "agent" | "user" | "capture";
}

export type QuirkEvent =
  | { op: "add"; at: string; quirk: Quirk }
  | { op: "confirm"; at: string; id: string }
  | { op: "forget"; at: string; id: string };

/** Append-only persistence of quirk events (Node: a JSONL file; tests: an array). */
export interface QuirkLog {
  readAll(): Promise<QuirkEvent[]>;
  append(event: QuirkEvent): Promise<void>;
  /** Changes whenever the log changes (another process may append): triggers a replay. */
  version(): Promise<string>;
}

/** The searchable copy of the quirks (kind "quirk" rows in the store and keyword index). */
export interface QuirkIndex {
  /** Makes exactly these quirks searchable (re-indexing any the store lost); returns how many were re-indexed. */
  sync(quirks: Quirk[]): Promise<number>;
  upsert(quirks: Quirk[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  /** Hybrid search over quirks only; scores in [0,1]. */
  search(query: string, topK: number): Promise<Array<{ id: string; score: number }>>;
}

export interface MemoryDiagnostic {
  at: string;
  op: "add" | "refuse" | "duplicate" | "recall" | "inject" | "inject-skip" | "capture" | "forget" | "rebuild" | "error";
  latencyMs: number;
  [key: string]: unknown;
}

export interface MemorySettings {
  enabled: boolean;
  minConfidence: number;
  recallMinScore: number;
  autoInject: boolean;
  autoInjectMinScore: number;
  autoInjectTopK: number;
  autoInjectMinTokenOverlap: number;
  latencyBudgetMs: number;
  injectTokenBudget: number;
  decay: { enabled: boolean; halfLifeDays: number };
  dedupThreshold?: number;
}

export interface AddQuirkInput {
  content: string;
  type?: string;
  tags?: string[];
  confidence?: number;
  source?: Quirk["source"];
}

export type AddQuirkResult =
  | { ok: true; quirk: Quirk; redacted: number }
  | { ok: false; reason: string; duplicateOf?: Quirk; similarity?: number };

export interface RecalledQuirk {
  quirk: Quirk;
  /** Retrieval score in [0,1]. */
  score: number;
  /** Confidence after decay. */
  confidence: number;
}

export interface QuirkMemoryOptions {
  log: QuirkLog;
  index: QuirkIndex;
  /** A getter, so a config reload takes effect without reopening memory. */
  settings: MemorySettings | (() => MemorySettings);
  /** Counts tokens of injected text (cl100k in hosts); defaults to a 4-chars-per-token estimate. */
  countTokens?: (text: string) => number;
  diagnostics?: (entry: MemoryDiagnostic) => void;
  now?: () => number;
  newId?: () => string;
}

const DEFAULT_DEDUP_THRESHOLD = 0.85;
export const MAX_QUIRK_CHARS = 600;

function randomId(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return "q_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class QuirkMemory {
  private quirks = new Map<string, Quirk>();
  private loaded: Promise<void> | null = null;
  private loadedVersion = "";
  /** Session id → quirk ids already injected there (each quirk at most once per session). */
  private injected = new Map<string, Set<string>>();
  private readonly countTokens: (text: string) => number;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly options: QuirkMemoryOptions) {
    this.countTokens = options.countTokens ?? ((t) => Math.ceil(t.length / 4));
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomId;
  }

  get settings(): MemorySettings {
    const s = this.options.settings;
    return typeof s === "function" ? s() : s;
  }

  /** Appends an outcome to the diagnostics log (never throws). */
  record(entry: Omit<MemoryDiagnostic, "at">): void {
    try {
      this.options.diagnostics?.({ at: new Date(this.now()).toISOString(), ...entry } as MemoryDiagnostic);
    } catch {
      // diagnostics must never break memory
    }
  }

  /**
   * Replays the audit log when it changed (here or in another process) or after `invalidate()`,
   * and re-syncs the index, so memory survives `index --force` and rolled-back passes.
   */
  async load(): Promise<void> {
    const version = await this.options.log.version();
    if (this.loaded && this.loadedVersion === version) return this.loaded;
    this.loadedVersion = version;
    this.loaded = (async () => {
      const started = this.now();
      this.quirks.clear();
      for (const e of await this.options.log.readAll()) this.apply(e);
      const reindexed = await this.options.index.sync([...this.quirks.values()]);
      if (reindexed > 0) this.record({ op: "rebuild", latencyMs: this.now() - started, reindexed });
    })();
    this.loaded.catch(() => (this.loaded = null));
    return this.loaded;
  }

  /** Forces a replay and index sync on the next operation (e.g. after an index pass). */
  invalidate(): void {
    this.loaded = null;
  }

  /** Appends an event of ours and applies it, without forcing a replay of the whole log. */
  private async appendOwn(e: QuirkEvent): Promise<void> {
    await this.options.log.append(e);
    this.apply(e);
    this.loadedVersion = await this.options.log.version();
  }

  private apply(e: QuirkEvent): void {
    if (e.op === "add") this.quirks.set(e.quirk.id, e.quirk);
    else if (e.op === "forget") this.quirks.delete(e.id);
    else if (e.op === "confirm") {
      const q = this.quirks.get(e.id);
      if (q) this.quirks.set(e.id, { ...q, confirmedAt: e.at });
    }
  }

  async list(): Promise<Quirk[]> {
    await this.load();
    return [...this.quirks.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  confidenceOf(q: Quirk): number {
    return effectiveConfidence(q.confidence, q.confirmedAt, this.now(), this.settings.decay);
  }

  /** Would this text duplicate an existing quirk? Returns the closest one above the threshold. */
  async findDuplicate(text: string): Promise<{ quirk: Quirk; similarity: number } | null> {
    await this.load();
    const clean = stripSecrets(text).text;
    const match = findDuplicate(clean, [...this.quirks.values()], (q) => q.content, this.settings.dedupThreshold ?? DEFAULT_DEDUP_THRESHOLD);
    return match ? { quirk: match.item, similarity: match.similarity } : null;
  }

  async add(input: AddQuirkInput): Promise<AddQuirkResult> {
    const started = this.now();
    await this.load();
    const raw = input.content.trim();
    if (!raw) return { ok: false, reason: "a quirk needs content: one or two sentences stating the fact" };
    const type = (input.type ?? "gotcha") as QuirkType;
    if (!QUIRK_TYPES.includes(type)) {
      return { ok: false, reason: `unknown quirk type "${input.type}": use one of ${QUIRK_TYPES.join(", ")}` };
    }
    const verdict = checkTrust(raw);
    if (!verdict.ok) {
      this.record({ op: "refuse", latencyMs: this.now() - started, rule: verdict.rule });
      return { ok: false, reason: verdict.reason };
    }
    const scan = stripSecrets(raw.length > MAX_QUIRK_CHARS ? raw.slice(0, MAX_QUIRK_CHARS) : raw);
    const tags = (input.tags ?? []).map((t) => stripSecrets(String(t)).text.trim().toLowerCase()).filter(Boolean).slice(0, 10);
    const dup = await this.findDuplicate(scan.text);
    if (dup) {
      // Seeing the same fact again is evidence it still holds: refresh it instead of storing twice.
      const at = new Date(this.now()).toISOString();
      await this.appendOwn({ op: "confirm", at, id: dup.quirk.id });
      this.record({ op: "duplicate", latencyMs: this.now() - started, id: dup.quirk.id, similarity: round(dup.similarity) });
      return { ok: false, reason: `already remembered as ${dup.quirk.id} (similarity ${round(dup.similarity)}); it was marked as confirmed`, duplicateOf: dup.quirk, similarity: dup.similarity };
    }
    const at = new Date(this.now()).toISOString();
    const confidence = clamp(input.confidence ?? 0.8, 0.05, 1);
    const quirk: Quirk = { id: this.newId(), content: scan.text, type, tags, confidence, createdAt: at, confirmedAt: at, source: input.source ?? "agent" };
    await this.appendOwn({ op: "add", at, quirk });
    await this.options.index.upsert([quirk]);
    this.record({ op: "add", latencyMs: this.now() - started, id: quirk.id, type, redacted: redactionCount(scan) });
    return { ok: true, quirk, redacted: redactionCount(scan) };
  }

  async forget(id: string): Promise<boolean> {
    await this.load();
    if (!this.quirks.has(id)) return false;
    const at = new Date(this.now()).toISOString();
    await this.appendOwn({ op: "forget", at, id });
    await this.options.index.remove([id]);
    this.record({ op: "forget", latencyMs: 0, id });
    return true;
  }

  async recall(query: string, topK = 5, minScore = this.settings.recallMinScore): Promise<RecalledQuirk[]> {
    const started = this.now();
    await this.load();
    // The query is the user's prompt: redacted before it reaches an embedder, which may be remote.
    const hits = await this.options.index.search(stripSecrets(query).text, Math.max(topK * 3, 10));
    const out: RecalledQuirk[] = [];
    for (const h of hits) {
      const quirk = this.quirks.get(h.id);
      if (!quirk) continue;
      // A quirk written to the log by hand, or before a rule existed, is checked again: memory
      // is recalled as trusted text, so it must pass today's rules.
      const verdict = checkTrust(quirk.content + " " + quirk.tags.join(" "));
      if (!verdict.ok) {
        this.record({ op: "refuse", latencyMs: 0, id: quirk.id, rule: verdict.rule, where: "recall" });
        continue;
      }
      const confidence = this.confidenceOf(quirk);
      if (confidence < this.settings.minConfidence || h.score < minScore) continue;
      out.push({ quirk, score: h.score, confidence });
    }
    // Confidence re-weights retrieval: a sure, fresh fact beats a doubtful near-match.
    out.sort((a, b) => b.score * (0.5 + 0.5 * b.confidence) - a.score * (0.5 + 0.5 * a.confidence));
    const result = out.slice(0, topK);
    this.record({ op: "recall", latencyMs: this.now() - started, query: preview(query), hits: result.length });
    return result;
  }

  /**
   * Relevant quirks for a user message, as a text block to append to that message — or null.
   * Bounded by the latency budget (memory is dropped, never awaited past it), once per quirk per
   * session, gated on words shared with the message itself, and cut to the token budget.
   */
  async autoInject(sessionId: string, userMessage: string, lastAssistant = ""): Promise<string | null> {
    const s = this.settings;
    if (!s.enabled || !s.autoInject || !userMessage.trim()) return null;
    const started = this.now();
    const query = [lastAssistant, userMessage].filter(Boolean).join("\n");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), s.latencyBudgetMs)));
    let recalled: RecalledQuirk[] | "timeout";
    try {
      recalled = await Promise.race([this.recall(query, s.autoInjectTopK * 3, s.autoInjectMinScore), timeout]);
    } catch (err) {
      this.record({ op: "error", latencyMs: this.now() - started, where: "autoInject", error: String((err as Error).message ?? err) });
      return null;
    } finally {
      clearTimeout(timer);
    }
    if (recalled === "timeout") {
      this.record({ op: "inject-skip", latencyMs: this.now() - started, reason: "latency budget exceeded", budgetMs: s.latencyBudgetMs });
      return null;
    }
    const seen = this.injected.get(sessionId) ?? new Set<string>();
    const chosen: RecalledQuirk[] = [];
    let tokens = 0;
    const header = "Remembered from earlier sessions (quirks):";
    for (const r of recalled) {
      if (chosen.length >= s.autoInjectTopK) break;
      if (seen.has(r.quirk.id)) continue;
      if (s.autoInjectMinTokenOverlap > 0 && tokenOverlap(userMessage, r.quirk.content + " " + r.quirk.tags.join(" ")) < s.autoInjectMinTokenOverlap) continue;
      const cost = this.countTokens(formatQuirkLine(r.quirk));
      if (tokens + cost + this.countTokens(header) > s.injectTokenBudget) continue;
      tokens += cost;
      chosen.push(r);
    }
    if (chosen.length === 0) {
      this.record({ op: "inject-skip", latencyMs: this.now() - started, reason: recalled.length ? "no candidate passed the gate" : "nothing recalled", candidates: recalled.length });
      return null;
    }
    for (const r of chosen) seen.add(r.quirk.id);
    this.injected.set(sessionId, seen);
    const block = [header, ...chosen.map((r) => formatQuirkLine(r.quirk))].join("\n");
    this.record({ op: "inject", latencyMs: this.now() - started, sessionId, ids: chosen.map((r) => r.quirk.id), tokens: this.countTokens(block) });
    return block;
  }

  /** Findings for `quirk lint`: low confidence, stale (decayed), near-duplicates. */
  async lint(): Promise<LintFinding[]> {
    await this.load();
    const list = await this.list();
    const findings: LintFinding[] = [];
    for (const q of list) {
      const eff = this.confidenceOf(q);
      if (q.confidence < this.settings.minConfidence) findings.push({ kind: "low-confidence", id: q.id, detail: `confidence ${round(q.confidence)} < memory.minConfidence ${this.settings.minConfidence}` });
      else if (eff < this.settings.minConfidence) findings.push({ kind: "stale", id: q.id, detail: `decayed to ${round(eff)} since ${q.confirmedAt.slice(0, 10)}; confirm it again or forget it` });
    }
    const threshold = this.settings.dedupThreshold ?? DEFAULT_DEDUP_THRESHOLD;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const sim = lexicalSimilarity(list[i].content, list[j].content);
        if (sim >= threshold) findings.push({ kind: "near-duplicate", id: list[j].id, detail: `similar to ${list[i].id} (${round(sim)})` });
      }
    }
    return findings;
  }
}

export interface LintFinding {
  kind: "low-confidence" | "stale" | "near-duplicate";
  id: string;
  detail: string;
}

export function formatQuirkLine(q: Quirk): string {
  const tags = q.tags.length ? ` [${q.tags.join(", ")}]` : "";
  return `- (${q.type}${tags}) ${q.content}`;
}

function clamp(v: number, lo: number, hi: number): number {
  return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : hi;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

function preview(s: string): string {
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
}
