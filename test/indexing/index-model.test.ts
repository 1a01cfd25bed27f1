import { describe, expect, it } from "vitest";
import { recordedModelName, vectorsUnusableReason } from "../../core/indexing/index-model.js";
import type { EmbeddingProvider } from "../../core/types.js";

const model = (provider: string, id: string, fingerprint?: string): EmbeddingProvider => ({
  provider,
  model: id,
  fingerprint,
  dimension: async () => 4,
  embed: async (texts) => texts.map(() => new Float32Array(4)),
});

describe("the model behind an index's vectors", () => {
  it("is named with its weights' fingerprint when known", () => {
    expect(recordedModelName(model("local", "code-v2", "abc123"))).toBe("code-v2@abc123");
    expect(recordedModelName(model("ollama", "nomic-embed-text"))).toBe("nomic-embed-text");
  });

  it("answers only its own queries: not another model's, nor new weights under the same id", () => {
    const v2 = model("local", "code-v2", "abc123");
    expect(vectorsUnusableReason({ provider: "local", model: "code-v2@abc123" }, v2)).toBeNull();
    expect(vectorsUnusableReason({ provider: "local", model: "code-v2@0ld" }, v2)).toBe(
      "the index holds vectors of an earlier version of local/code-v2, not of local/code-v2, until the next index pass rebuilds it",
    );
    expect(vectorsUnusableReason({ provider: "ollama", model: "code-v2" }, v2)).toBe(
      "the index holds vectors of ollama/code-v2, not of local/code-v2, until the next index pass rebuilds it",
    );
    expect(vectorsUnusableReason({ provider: "none", model: "" }, v2)).toMatch(/^the index was built keyword-only/);
    // No index yet, or no model: nothing to compare.
    expect(vectorsUnusableReason(null, v2)).toBeNull();
    expect(vectorsUnusableReason({ provider: "local", model: "code-v2@abc123" }, null)).toBeNull();
  });
});
