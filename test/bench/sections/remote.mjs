// Remote embedding throughput through the real client (batching, concurrency limit, JSON
// decoding, normalisation) against a local stand-in server that answers /api/embed after a
// fixed delay, like a network round trip. Shows what `embedding.concurrency` buys; the "floor"
// column holds the latency-only ceiling (batches x delay / concurrency, zero CPU cost), which
// the client and the stand-in server share two cores to approach. Nothing leaves the machine.
import { createServer } from "node:http";

const TEXTS = 4096;
const DIM = 384;
const LATENCY_MS = 25;
const BATCH = 64;

function startServer() {
  const vector = Array.from({ length: DIM }, (_, i) => ((i * 7919) % 97) / 97 - 0.5);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ model: body.model, embeddings: body.input.map(() => vector) }));
      }, LATENCY_MS);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

export default {
  name: "remote",
  async run({ lib }) {
    const server = await startServer();
    const baseUrl = `http://127.0.0.1:${server.address().port}`;
    const texts = Array.from({ length: TEXTS }, (_, i) => `export function handler${i}(request) { return validate(request.headers.token${i}); }`);
    const rows = [];
    try {
      for (const concurrency of [1, 2, 4]) {
        const config = structuredClone(lib.DEFAULT_CONFIG);
        Object.assign(config.embedding, { provider: "ollama", model: "bench-embed", baseUrl, batchSize: BATCH, concurrency });
        const { provider } = await lib.createEmbeddingProvider(config, { root: process.cwd() });
        await provider.dimension();
        const t = performance.now();
        await provider.embed(texts, "document");
        const seconds = (performance.now() - t) / 1000;
        await provider.close?.();
        const ideal = (Math.ceil(TEXTS / BATCH) * LATENCY_MS) / 1000 / concurrency;
        rows.push({ metric: `texts/s, concurrency ${concurrency}`, value: TEXTS / seconds, floor: TEXTS / ideal, floorNote: "latency-only ceiling" });
      }
    } finally {
      server.close();
    }
    return { info: { texts: TEXTS, dimension: DIM, batchSize: BATCH, serverLatencyMs: LATENCY_MS }, rows };
  },
};
