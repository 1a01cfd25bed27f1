// The remote providers under Bun, where OpenCode runs the server plugin: Bun's fetch reports
// failures differently (no errno codes) and takes a proxy through its own option.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { closedPort } from "../fakes/http-fake.js";

const here = dirname(fileURLToPath(import.meta.url));
const bun = join(here, "..", "..", "node_modules", ".bin", "bun");

describe("remote providers under Bun", () => {
  // bun ships with the dev dependencies: in CI its absence is a failure, not a skip.
  it.skipIf(!existsSync(bun) && !process.env.CI)("reach, retry, time out, proxy and fail in one line as under Node", async () => {
    const port = await closedPort();
    const stdout = execFileSync(bun, [join(here, "remote-bun-script.ts"), String(port)], { encoding: "utf8", timeout: 60_000 });
    const out = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(out.down).toBe(`cannot reach Ollama at http://127.0.0.1:${port} (connection refused): start it with "ollama serve" or set embedding.baseUrl`);
    expect(out.dimension).toBe(64);
    expect(out.afterFaults).toEqual([64, 64]);
    expect(out.slow).toBe(`Ollama at ${out.serverUrl} did not answer within 100 ms: raise embedding.timeoutMs or check the server (gave up after 2 attempts)`);
    expect(out.proxied).toBe(64);
    expect(out.proxyTargets).toEqual([new URL(out.serverUrl).host]);
  });
});
