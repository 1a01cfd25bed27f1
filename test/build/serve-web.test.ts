// `opencode-rag serve-web`: the demo, grammars, model and wasm runtime from one local origin.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer } from "../../cli/commands/serve-web.js";

let server: Server;
let base: string;

beforeAll(async () => {
  server = await startWebServer(0);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("serve-web", () => {
  it("serves the demo page and every asset it loads", async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("demo.js");
    for (const [path, type] of [
      ["/opencode-rag-web.js", "text/javascript"],
      ["/grammars/tree-sitter-typescript.wasm", "application/wasm"],
      ["/models/opencode-rag-code-v2/config.json", "application/json"],
      ["/ort/ort-wasm-simd-threaded.asyncify.wasm", "application/wasm"],
    ]) {
      const r = await fetch(base + path, { method: "HEAD" });
      expect(r.status, path).toBe(200);
      expect(r.headers.get("content-type"), path).toContain(type);
    }
  });

  it("never serves files outside its folders", async () => {
    expect((await fetch(`${base}/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${base}/models/..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${base}/nope.js`)).status).toBe(404);
  });
});
