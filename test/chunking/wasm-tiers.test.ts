// Which of V8's tiers each WebAssembly module may run at, in a process that chooses
// (core/wasm-tiers.ts, core/own-process.ts): grammars at the baseline tier only (optimising a
// grammar's huge lexer kept a process from exiting for seconds), the tree-sitter runtime at the
// baseline tier but in a big pass (wasm-tiers-big-pass.test.ts), the core's kernels at every
// tier; and one compile at a time across the process's threads, since the flag that picks the
// tier is the process's.
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { TOKEN_SUM_WASM } from "../../core/embedding/token-sum-wasm.js";
import { compiledWasm } from "../../core/wasm-module.js";
import { lockedTierChooser } from "../../core/own-process.js";
import { chunkPythonAndGo, recordTiers } from "./wasm-tiers-helpers.js";

describe("the tiers a module is compiled for", () => {
  it("asks the baseline tier alone for each grammar and, unless told otherwise, for the tree-sitter runtime; every tier for the kernels", async () => {
    const asked = recordTiers();
    await chunkPythonAndGo();
    expect(asked).toEqual(["baseline", "baseline", "baseline"]); // the runtime, then Python's and Go's grammars
    expect(compiledWasm(TOKEN_SUM_WASM)).toBeInstanceOf(WebAssembly.Module);
    expect(asked).toEqual(["baseline", "baseline", "baseline", "all"]);
  });
});

describe("the process's compile lock", () => {
  it("waits for another thread's compile, and sets --liftoff-only for a baseline compile alone", async () => {
    const lock = new Int32Array(new SharedArrayBuffer(4));
    const released = new Int32Array(new SharedArrayBuffer(8)); // [0]: the other thread holds it, [1]: it let go
    const flags: string[] = [];
    const choose = lockedTierChooser(lock, (flag) => flags.push(flag));
    const other = new Worker(
      `const { workerData: [lock, released] } = require("node:worker_threads");
       Atomics.store(lock, 0, 1);
       Atomics.store(released, 0, 1);
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150); // compiling for a while
       Atomics.store(released, 1, 1);
       Atomics.store(lock, 0, 0);
       Atomics.notify(lock, 0, 1);`,
      { eval: true, workerData: [lock, released] },
    );
    const exited = new Promise((resolve) => other.on("exit", resolve));
    while (Atomics.load(released, 0) === 0) await new Promise((r) => setTimeout(r, 5));
    // Runs only once the other thread let go of the lock.
    expect(choose("baseline", () => Atomics.load(released, 1))).toBe(1);
    expect(flags).toEqual(["--liftoff-only", "--no-liftoff-only"]);
    expect(Atomics.load(lock, 0)).toBe(0);
    await exited;

    expect(choose("all", () => "runtime")).toBe("runtime");
    expect(flags).toHaveLength(2); // every tier: the flag stays as it is
    // A compile that fails lets go of the lock and puts the flag back.
    expect(() => choose("baseline", () => { throw new Error("bad module"); })).toThrow("bad module");
    expect(flags.slice(2)).toEqual(["--liftoff-only", "--no-liftoff-only"]);
    expect(Atomics.load(lock, 0)).toBe(0);
  });

  it("takes over a lock whose holder ended in the middle of a compile", async () => {
    const lock = new Int32Array(new SharedArrayBuffer(4));
    const flags: string[] = [];
    // A worker stopped while it compiled runs no `finally`: the lock stays held.
    const gone = new Worker(`const { workerData: lock } = require("node:worker_threads"); Atomics.store(lock, 0, 1);`, { eval: true, workerData: lock });
    await new Promise((resolve) => gone.on("exit", resolve));
    expect(Atomics.load(lock, 0)).toBe(1);
    const choose = lockedTierChooser(lock, (flag) => flags.push(flag), 50);
    expect(choose("baseline", () => "grammar")).toBe("grammar");
    expect(flags).toEqual(["--liftoff-only", "--no-liftoff-only"]);
    expect(Atomics.load(lock, 0)).toBe(0); // free again for the threads still here
  });
});
