// `"embedding": {"provider": "none"}`: the switch a user sets for keyword-only search. Nothing
// is embedded, no model is loaded, search still answers, and status says why there are no vectors.
import { describe, expect, it } from "vitest";
import { engineFor, hitPaths, makeWorkspace, trackWorkspaces, tsFunction } from "./helpers.js";
import { ConfigError } from "../../core/config/validate.js";
import { openEngine } from "../../core/engine.js";

const { roots, engines } = trackWorkspaces();

describe('embedding.provider "none"', () => {
  it("indexes and searches keyword-only without embedding anything", async () => {
    const root = makeWorkspace({
      "src/retry.ts": tsFunction("computeBackoff", "return base * 2 ** attempt; // exponential backoff between retries"),
      "src/pool.ts": tsFunction("acquireConnection", "return this.idle.pop() ?? this.open(); // connection pool"),
    });
    roots.push(root);
    const engine = await engineFor(root, { embedding: { provider: "none" } });
    engines.push(engine);
    const summary = await engine.index();
    expect(summary.filesIndexed).toBe(2);
    expect(summary.chunksEmbedded).toBe(0);
    expect((await hitPaths(engine, "exponential backoff retries"))[0]).toBe("src/retry.ts");
    const status = await engine.status();
    expect(status.keywordOnlyReason).toMatch(/provider is "none"/);
  });

  it("is a valid value while a misspelt one is named", async () => {
    const root = makeWorkspace({ "a.ts": tsFunction("a", "return 1;") });
    roots.push(root);
    await expect(openEngine({ root, overrides: { embedding: { provider: "nothing" } } })).rejects.toThrow(ConfigError);
    await expect(openEngine({ root, overrides: { embedding: { provider: "nothing" } } })).rejects.toThrow(/none/);
  });
});
