// The training-data rules of models/: no held-out evaluation code base, permissive licences
// only, and train and dev code bases kept apart.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script of the model pipeline, no type declarations
import { isHeldOut, PERMISSIVE } from "../../models/scripts/policy.mjs";

const { sources } = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "models", "sources.json"), "utf8")) as {
  sources: Array<{ kind: string; name: string; version: string; license: string; role: string }>;
};

describe("model training data policy", () => {
  it("recognises held-out projects under any packaging", () => {
    for (const pkg of ["python3-flask", "golang-github-spf13-cobra-dev", "librust-serde-dev", "ruby-rack", "golang-github-go-chi-chi-dev", "golang-1.19-src", "python3-networkx", "zod", "@trpc/server"]) {
      expect(isHeldOut(pkg), pkg).toBe(true);
    }
    for (const pkg of ["python3-attr", "golang-golang-x-text-dev", "librust-regex-dev", "lodash", "python3-archive"]) {
      expect(isHeldOut(pkg), pkg).toBe(false);
    }
  });

  it("lists no held-out code base and only permissive licences, each pinned", () => {
    for (const s of sources) {
      expect(isHeldOut(s.name), s.name).toBe(false);
      for (const id of s.license.split(/\s+(?:AND|OR)\s+/)) expect(PERMISSIVE.has(id.replace(/[()]/g, "")), `${s.name}: ${id}`).toBe(true);
      expect(s.version).toMatch(/\d/);
    }
  });

  it("keeps dev code bases out of training", () => {
    const train = new Set(sources.filter((s) => s.role === "train").map((s) => s.name));
    const dev = sources.filter((s) => s.role === "dev");
    expect(dev.length).toBeGreaterThan(3);
    for (const d of dev) expect(train.has(d.name)).toBe(false);
  });
});
