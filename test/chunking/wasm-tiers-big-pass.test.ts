// A big pass's threads are told, before their first parse, to compile the tree-sitter runtime
// for every tier (core/indexing/pass-prepare.ts); its grammars stay at the baseline tier.
import { expect, it } from "vitest";
import { setParserRuntimeTiers } from "../../core/chunking/index.js";
import { chunkPythonAndGo, recordTiers } from "./wasm-tiers-helpers.js";

it("asks every tier for the runtime of a thread told so before its first parse", async () => {
  const asked = recordTiers();
  setParserRuntimeTiers("all");
  await chunkPythonAndGo();
  expect(asked).toEqual(["all", "baseline", "baseline"]);
});
