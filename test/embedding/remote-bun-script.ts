// Run by remote-bun.test.ts under Bun (OpenCode's plugin runtime): drives the remote provider
// through Bun's own fetch against the fakes and prints what happened as one JSON line.
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { createOllamaProvider } from "../../core/embedding/ollama.js";
import { startFakeOllama } from "../fakes/ollama.js";
import { startFakeProxy } from "../fakes/proxy.js";

const cfg = (o: Partial<typeof DEFAULT_CONFIG.embedding>) => ({
  ...structuredClone(DEFAULT_CONFIG.embedding),
  provider: "ollama",
  model: "nomic-embed-text",
  retryBaseMs: 5,
  maxRetries: 1,
  ...o,
});
const out: Record<string, unknown> = {};
const server = await startFakeOllama();
const proxy = await startFakeProxy();
try {
  const port = Number(process.argv[2]);
  out.down = await createOllamaProvider(cfg({ baseUrl: `http://127.0.0.1:${port}` }))
    .dimension()
    .then(() => "reached", (e: Error) => e.message);
  const provider = createOllamaProvider(cfg({ baseUrl: server.url, maxRetries: 2 }));
  out.dimension = await provider.dimension();
  server.failNext({ drop: true }, { status: 429, headers: { "retry-after": "0" }, body: { error: "busy" } });
  out.afterFaults = (await provider.embed(["a b", "c d"], "document")).map((v) => v.length);
  server.failNext({ delayMs: 400 }, { delayMs: 400 });
  out.slow = await createOllamaProvider(cfg({ baseUrl: server.url, timeoutMs: 100 }))
    .embed(["x"], "query")
    .then(() => "answered", (e: Error) => e.message);
  out.proxied = await createOllamaProvider(cfg({ baseUrl: server.url, proxy: { url: proxy.url } })).dimension();
  out.proxyTargets = proxy.targets;
  out.serverUrl = server.url;
} finally {
  await server.close();
  await proxy.close();
}
console.log(JSON.stringify(out));
