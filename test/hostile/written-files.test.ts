// Every file the product writes (log, memory diagnostics, quirk store, session logs) goes
// through the one redactor: a secret typed into a prompt never lands on disk.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openEngine } from "../../core/engine.js";
import { createFileLogger } from "../../core/logging/index.js";
import { SessionLog } from "../../core/telemetry/session-log.js";
import { MISSED_SECRETS } from "./fixture.js";

const KEY = "sk-proj-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2";
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), "rag-written-"));
  dirs.push(d);
  return d;
}

function allText(dir: string): string {
  let out = "";
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out += allText(p);
    else if (/\.(jsonl|json|log)$/.test(name)) out += readFileSync(p, "utf8");
  }
  return out;
}

describe("files the product writes", () => {
  it("memory diagnostics and the quirk store never keep a secret from a prompt", async () => {
    const root = temp();
    const engine = await openEngine({ root, overrides: { logging: { level: "error", logFilePath: "" }, memory: { autoInjectMinScore: 0 } } });
    try {
      const memory = await engine.memory!();
      await memory.add({ content: `the deploy script reads the token from DEPLOY_TOKEN=${KEY}`, tags: ["deploy"] });
      await memory.recall(`my key is ${KEY}, why does deploy fail`, 3, 0);
      await memory.autoInject("s1", `my key is ${KEY}, why does the deploy script fail`);
      const written = allText(engine.stateDir);
      expect(written).toContain(`"op":"recall"`);
      expect(written).not.toContain(KEY);
      expect(written).not.toContain("Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2");
    } finally {
      await engine.close();
    }
  });

  it("the log file redacts messages and data", () => {
    const root = temp();
    const logger = createFileLogger({ level: "debug", filePath: "rag.log", root });
    logger.error(`request failed for ${KEY}`, { url: "https://user:pa/ss@host.example/x", error: new Error(`bad key ${KEY}`) });
    for (const [text] of MISSED_SECRETS) logger.info("config line", { line: text });
    const log = readFileSync(join(root, "rag.log"), "utf8");
    expect(log).not.toContain(KEY);
    expect(log).not.toContain("pa/ss");
    for (const [, secret] of MISSED_SECRETS) expect(log).not.toContain(secret);
  });

  it("session logs redact even when built without a redactor", () => {
    const dir = temp();
    new SessionLog(dir).logRetrieval("ses_1", { source: "search_semantic", query: `my key is ${KEY}`, chunkCount: 0, contextTokens: 0, topScore: null, latencyMs: 1 });
    expect(allText(dir)).not.toContain(KEY);
  });
});
