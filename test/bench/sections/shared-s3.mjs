// A team-shared index on S3-compatible storage (docs/shared-index.md) against s3rver on
// 127.0.0.1 (test/fakes/s3-server.mjs), beside the same steps on a local folder: a full pass
// into the bucket, searches from a second clone that never indexed, that clone's first pass
// (every file has another mtime there: read and hashed, nothing embedded) and a one-file edit
// from it (the bucket's lock, pull, pass, push). The workspace is the corpus's three.js
// sources; keyword-only unless --embed. The loopback server has no network latency: against a
// real bucket every request adds a round trip.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startS3Server } from "../../fakes/s3-server.mjs";
import { p50 } from "../stats.mjs";

const QUERIES = ["render the shadow map", "parse a gltf file", "camera frustum culling", "dispose geometry buffers", "quaternion from euler angles"];
const SEARCHES = 40;

async function timed(fn) {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

function workspace(corpusRoot) {
  const root = mkdtempSync(join(tmpdir(), "rag-bench-s3-"));
  cpSync(join(corpusRoot, "three", "src"), join(root, "src"), { recursive: true });
  return root;
}

/** Full pass, searches, a one-file edit: the same steps on any store. */
async function steps(lib, root, overrides, clone) {
  const writer = await lib.openEngine({ root, overrides });
  const full = await timed(() => writer.index());
  const chunks = (await writer.status({ countPending: false })).chunks;
  await writer.close();
  const readerRoot = clone ? clone() : root;
  const reader = await lib.openEngine({ root: readerRoot, overrides });
  await reader.search(QUERIES[0]); // opens the store and loads the keyword index
  const searches = [];
  for (let i = 0; i < SEARCHES; i++) searches.push((await timed(() => reader.search(QUERIES[i % QUERIES.length], { topK: 10 }))).ms);
  const firstPass = clone ? await timed(() => reader.index()) : null;
  writeFileSync(join(readerRoot, "src", "BenchEdit.js"), "export function benchEditedFunction(value) {\n  return value * 2;\n}\n");
  const edit = await timed(() => reader.index());
  await reader.close();
  return { full, chunks, searchP50: p50(searches), firstPass, edit, readerRoot };
}

export default {
  name: "shared-s3",
  async run({ lib, corpusRoot, log, embed }) {
    const s3 = await startS3Server("bench-team");
    const roots = [];
    try {
      const base = { autoIndex: { enabled: false }, logging: { level: "error", logFilePath: "" }, ...(embed ? {} : { embedding: { provider: "none" } }) };
      // A first round on a local folder, discarded: grammar loading and JIT warm-up would
      // otherwise land on whichever store goes first.
      const warmRoot = workspace(corpusRoot);
      roots.push(warmRoot);
      log("  warm-up…");
      await steps(lib, warmRoot, base, null);
      const localRoot = workspace(corpusRoot);
      roots.push(localRoot);
      log("  local folder…");
      const local = await steps(lib, localRoot, base, null);
      const sharedRoot = workspace(corpusRoot);
      roots.push(sharedRoot);
      log("  s3://bench-team/three…");
      const shared = await steps(lib, sharedRoot, { ...base, vectorStore: { path: "s3://bench-team/three", storageOptions: s3.storageOptions } }, () => {
        const r = workspace(corpusRoot);
        roots.push(r);
        return r;
      });
      const fp = shared.firstPass;
      log(`  ${shared.chunks} chunks; clone's first pass: ${fp.value.filesUnchanged} files unchanged, ${fp.value.chunksEmbedded} chunks embedded`);
      return {
        info: { chunks: shared.chunks, searches: SEARCHES, server: "s3rver on 127.0.0.1 (no network latency)", mode: embed ? "bundled model" : "keyword-only" },
        rows: [
          { metric: "full pass into the bucket (s)", value: shared.full.ms / 1000, floor: local.full.ms / 1000, floorNote: "same pass into a local folder" },
          { metric: "search p50 from a clone that never indexed (ms)", value: shared.searchP50, floor: local.searchP50, floorNote: "local folder" },
          { metric: "clone's first pass: read and hash every file, embed nothing (s)", value: fp.ms / 1000, floor: null },
          { metric: "one-file edit from the clone: lock, pull, pass, push (s)", value: shared.edit.ms / 1000, floor: local.edit.ms / 1000, floorNote: "local folder" },
        ],
      };
    } finally {
      await s3.close();
      for (const r of roots) rmSync(r, { recursive: true, force: true });
    }
  },
};
