// Cold CLI query: what a script pays each time it shells out to `opencode-rag query` (a fresh
// `node dist/cli.js` process: module loading, opening the store, reading the keyword index,
// answering). The workspace is the corpus's three.js sources (~6.3k chunks), indexed up front (the
// CLI runs in it);
// keyword-only unless --embed (then the bundled model loads and embeds the query too). p50 of
// RUNS spawns, a different query each time; the floor is a bare `node` start in the same run,
// and `--help` shows what loading the CLI alone costs.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { p50 } from "../stats.mjs";

const RUNS = 11;
const QUERIES = ["render the shadow map", "parse a gltf file", "camera frustum culling", "dispose geometry buffers", "quaternion from euler angles"];

function timed(args, env, cwd) {
  const t = performance.now();
  execFileSync(process.execPath, args, { env, cwd, stdio: ["ignore", "ignore", "ignore"] });
  return performance.now() - t;
}

export default {
  name: "cli-query",
  async run({ lib, corpusRoot, log, embed }) {
    const repoRoot = new URL("../../..", import.meta.url).pathname;
    const cli = join(repoRoot, "dist", "cli.js");
    const root = mkdtempSync(join(tmpdir(), "rag-bench-cli-"));
    try {
      cpSync(join(corpusRoot, "three", "src"), join(root, "src"), { recursive: true });
      const config = { autoIndex: { enabled: false }, logging: { logFilePath: "" }, ...(embed ? {} : { embedding: { provider: "none" } }) };
      writeFileSync(join(root, "opencode-rag.json"), JSON.stringify(config));
      const engine = await lib.openEngine({ root });
      const summary = await engine.index();
      const chunks = (await engine.status({ countPending: false })).chunks;
      const socket = lib.querySocketPath(engine.stateDir);
      await engine.close();
      log(`  indexed ${summary.filesIndexed} files, ${chunks} chunks`);
      const env = { ...process.env, LANCEDB_LOG: "error" };
      const bare = [];
      const help = [];
      const query = [];
      for (let i = 0; i < RUNS; i++) {
        log(`  cold query ${i + 1}/${RUNS}`);
        bare.push(timed(["-e", ""], env, root));
        help.push(timed([cli, "--help"], env, root));
        query.push(timed([cli, "query", QUERIES[i % QUERIES.length], "--json", "-k", "5"], env, root));
      }
      // The same queries while `index --watch` runs in the workspace: its engine answers them.
      const watcher = spawn(process.execPath, [cli, "index", "--watch"], { cwd: root, env, stdio: "ignore" });
      const served = [];
      try {
        const deadline = Date.now() + 60_000;
        while (!existsSync(socket) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        if (!existsSync(socket)) throw new Error("index --watch did not open its query socket within 60 s");
        timed([cli, "query", "warm up", "--json"], env, root);
        for (let i = 0; i < RUNS; i++) served.push(timed([cli, "query", QUERIES[i % QUERIES.length], "--json", "-k", "5"], env, root));
      } finally {
        watcher.kill("SIGTERM");
        await new Promise((r) => watcher.once("exit", r));
      }
      return {
        info: { workspace: `three.js sources, ${chunks} chunks`, search: embed ? "hybrid (bundled model)" : "keyword-only (--embed for the model)", spawns: RUNS },
        rows: [
          { metric: "cold `opencode-rag --help`: ms p50", value: p50(help), floor: p50(bare), floorNote: "bare node start", target: "" },
          { metric: "cold `opencode-rag query --json`, no engine running: ms p50", value: p50(query), floor: p50(help), floorNote: "--help", target: "" },
          { metric: "cold `opencode-rag query --json`, `index --watch` running: ms p50", value: p50(served), floor: p50(help), floorNote: "--help", target: "<= 300 ms" },
        ],
      };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
