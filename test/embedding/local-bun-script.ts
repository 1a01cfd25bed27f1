// Run by local-bun.test.ts under Bun: the bundled model through the local provider, as the
// OpenCode server plugin would load it. Prints one JSON line.
import { DEFAULT_CONFIG } from "../../core/config/defaults.js";
import { createEmbeddingProvider } from "../../core/embedding/index.js";

const { provider, reason } = await createEmbeddingProvider(DEFAULT_CONFIG, { root: process.argv[2] ?? "." });
if (!provider) {
  console.log(JSON.stringify({ reason }));
} else {
  const [ident, prose, other] = await provider.embed(["getUserById", "get user by id", "matrix determinant"], "query");
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
  console.log(JSON.stringify({ reason, dimension: await provider.dimension(), norm: dot(ident, ident), close: dot(ident, prose), far: dot(ident, other) }));
}
