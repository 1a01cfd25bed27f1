// Secret files are never indexed (reported as skipped with the reason "secret"), and secrets
// inside ordinary files are redacted before they are stored, embedded or described.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { openEngine } from "../../core/engine.js";
import type { Engine, IndexSummary } from "../../core/engine-types.js";
import { IgnoreRules, statPaths, walkWorkspace } from "../../core/files/index.js";
import { readManifest } from "../../core/indexing/manifest.js";
import { hostileWorkspace, SECRET_FILE_MARKERS, SECRET_FILES, SECRETS, type HostileWorkspace } from "./fixture.js";

let ws: HostileWorkspace;
let engine: Engine;
let summary: IndexSummary;

beforeAll(async () => {
  ws = hostileWorkspace();
  engine = await openEngine({ root: ws.root });
  summary = await engine.index();
}, 120_000);
afterAll(async () => {
  await engine?.close();
  ws?.cleanup();
});

async function everything(): Promise<string> {
  const queries = [...SECRET_FILE_MARKERS, ...SECRETS.map((s) => s.secret), "password", "private key", "connection settings", "service account", "token secret"];
  const out: string[] = [];
  for (const q of queries) {
    for (const mode of ["keyword", "hybrid"] as const) {
      for (const r of await engine.search(q, { topK: 50, mode })) out.push(`${r.chunk.filePath}\n${r.chunk.context}\n${r.chunk.content}`);
    }
  }
  return out.join("\n");
}

describe("secret files", () => {
  it("are listed as skipped with the reason secret, by name", async () => {
    const cfg = DEFAULT_CONFIG.indexing;
    const walked = await walkWorkspace(ws.root, { rules: new IgnoreRules(ws.root, cfg), maxFileSizeBytes: cfg.maxFileSizeBytes });
    const secret = walked.skipped.filter((s) => s.reason === "secret").map((s) => s.path);
    const byName = Object.keys(SECRET_FILES).filter((p) => !p.startsWith("deploy/"));
    expect(secret.sort()).toEqual(byName.sort());
    expect(walked.files.map((f) => f.path)).toContain(".env.example");
    const watched = statPaths(ws.root, [".env", "src/app.ts"], { rules: new IgnoreRules(ws.root, cfg), maxFileSizeBytes: cfg.maxFileSizeBytes });
    expect(watched.skipped).toEqual([{ path: ".env", reason: "secret" }]);
    expect(watched.files.map((f) => f.path)).toEqual(["src/app.ts"]);
  });

  it("are skipped by content when the name says nothing (a service-account JSON)", () => {
    const read = readManifest(engine.stateDir);
    if (read.status !== "ok") throw new Error(`manifest: ${read.status}`);
    const entry = read.manifest.files["deploy/my-project-3f2a1b.json"];
    expect({ skipped: entry.skipped, chunkIds: entry.chunkIds }).toEqual({ skipped: "secret", chunkIds: [] });
    expect(summary.filesSkipped).toBeGreaterThanOrEqual(Object.keys(SECRET_FILES).length);
  });

  it("never come back from a search, and inline secrets are redacted", async () => {
    const all = await everything();
    expect(all).toContain("src/config.ts");
    expect(all).toContain("[REDACTED");
    for (const marker of SECRET_FILE_MARKERS) expect(all, marker).not.toContain(marker);
    for (const s of SECRETS) expect(all, s.kind).not.toContain(s.secret);
  });

  it("can be extended and allowed back through config", async () => {
    const rules = new IgnoreRules(ws.root, { ...DEFAULT_CONFIG.indexing, extraSecretFiles: ["src/app.ts"], allowSecretFiles: [".npmrc"] });
    expect(rules.isSecretFile("src/app.ts")).toBe(true);
    expect(rules.isSecretFile(".npmrc")).toBe(false);
    expect(rules.isSecretFile(".env")).toBe(true);
    expect(new IgnoreRules(ws.root, { ...DEFAULT_CONFIG.indexing, secretFiles: [] }).isSecretFile(".env")).toBe(false);
  });

  it("name files, not the code in a folder of the same name", () => {
    const rules = new IgnoreRules(ws.root, DEFAULT_CONFIG.indexing);
    expect(rules.isSecretFile("src/credentials/store.ts")).toBe(false);
    expect(rules.isSecretFile("deploy/credentials")).toBe(true);
    expect(rules.isSecretFile("home/.docker/config.json")).toBe(true);
    expect(rules.isSecretFile("config/.env.local")).toBe(true);
    expect(rules.isSecretFile("config/.env.example")).toBe(false);
  });
});
