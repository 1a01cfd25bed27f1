// MCP cold start: how long a client waits after spawning `opencode-rag mcp` (dist/cli.js) on an
// indexed workspace — until the handshake answers, until the first search_semantic answer
// (engine opened cold), and a second, warm search. Medians of a few spawns; the floor is a bare
// `node` start in the same run. Keyword-only unless --embed (then the bundled model loads too).
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function once(cli, root) {
  const started = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--root", root], env: { ...process.env, LANCEDB_LOG: "error" }, stderr: "ignore" });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  const ready = performance.now() - started;
  const first = await client.callTool({ name: "search_semantic", arguments: { query: "parse the configuration file", topK: 5 } });
  const firstAnswer = performance.now() - started;
  const t = performance.now();
  await client.callTool({ name: "search_semantic", arguments: { query: "where are sessions expired", topK: 5 } });
  const warm = performance.now() - t;
  await client.close();
  const text = first.content?.[0]?.text ?? "";
  if (!text.startsWith("## search_semantic")) throw new Error(`unexpected first answer: ${text.slice(0, 200)}`);
  return { ready, firstAnswer, warm };
}

export default {
  name: "mcp",
  needsCorpus: false,
  async run({ lib, log, embed }) {
    const repoRoot = new URL("../../..", import.meta.url).pathname;
    const cli = join(repoRoot, "dist", "cli.js");
    const root = mkdtempSync(join(tmpdir(), "rag-bench-mcp-"));
    try {
      cpSync(join(repoRoot, "test", "fixtures", "repo"), root, { recursive: true });
      // The background indexer would race the measured searches; the index is built up front.
      const config = { autoIndex: { enabled: false }, logging: { logFilePath: "" }, ...(embed ? {} : { embedding: { provider: "none" } }) };
      writeFileSync(join(root, "opencode-rag.json"), JSON.stringify(config));
      const engine = await lib.openEngine({ root });
      await engine.index();
      await engine.close();

      const bare = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        execFileSync(process.execPath, ["-e", ""]);
        bare.push(performance.now() - t);
      }
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        log(`  mcp spawn ${i + 1}/${RUNS}`);
        runs.push(await once(cli, root));
      }
      const ready = median(runs.map((r) => r.ready));
      const first = median(runs.map((r) => r.firstAnswer));
      const warm = median(runs.map((r) => r.warm));
      return {
        info: { workspace: "test/fixtures/repo (indexed before)", search: embed ? "hybrid (bundled model)" : "keyword-only (--embed for the model)", spawns: RUNS },
        rows: [
          { metric: "spawn to handshake (initialize answered): ms", value: ready, floor: median(bare), floorNote: "bare node start", target: "" },
          { metric: "spawn to first search_semantic answer: ms", value: first, floor: ready, floorNote: "handshake", target: embed ? "<= 3000 ms" : "<= 1500 ms" },
          { metric: "warm search_semantic: ms", value: warm, floor: null, target: "<= 200 ms" },
        ],
      };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
