// The dev corpora say truly whether the shipped model was trained on them: the replay's and the
// calibration's "clean" numbers (code the model never saw) rest on `inModelTraining`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const corpora = (JSON.parse(readFileSync(join(root, "test", "eval", "corpora.json"), "utf8")) as {
  corpora: Array<{ name: string; source: string; package: string; inModelTraining: boolean }>;
}).corpora;
// "- deb node-winston 3.8.2-1 — MIT": kind, package, version of every training package.
const trainedPackages = new Set(
  [...readFileSync(join(root, "models", "opencode-rag-code-v2", "PROVENANCE.md"), "utf8").matchAll(/^- \S+ (\S+) /gm)].map((m) => m[1]),
);

describe("dev corpora", () => {
  it("flag inModelTraining exactly where the shipped model's provenance lists the package, any version (an npm package also as Debian's node-*)", () => {
    expect(trainedPackages.size).toBeGreaterThan(1000);
    for (const c of corpora) {
      const packagings = c.source === "npm" ? [c.package, `node-${c.package}`] : [c.package];
      expect(c.inModelTraining, c.name).toBe(packagings.some((p) => trainedPackages.has(p)));
    }
  });
});
