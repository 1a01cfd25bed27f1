// The browser build indexes a dropped folder by the same rules as the indexer: credential files
// are skipped with the reason "secret", and a key left in code is redacted before it is stored
// or shown. Run here under Node against the real grammar files served on 127.0.0.1.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSearch } from "../../core/web/index.js";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";

const KEY = "sk-proj-Qw8Er7Ty6Ui5Op4As3Df2Gh1";
let server: Server;
let grammarsUrl: string;

beforeAll(async () => {
  ensureBuilt();
  const dir = join(repoRoot, "dist", "grammars");
  server = createServer((req, res) => {
    try {
      res.end(readFileSync(join(dir, decodeURIComponent((req.url ?? "/").slice(1)).replace(/\.\./g, ""))));
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  grammarsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("the browser build's indexing", () => {
  it("skips credential files and redacts keys in code", async () => {
    const web = await WebSearch.create({ grammarsUrl });
    const { errors } = await web.addFiles([
      { path: ".env", text: `OPENAI_API_KEY=${KEY}\n` },
      { path: "deploy/id_rsa", text: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n" },
      { path: "src/client.ts", text: `export function makeClient() {\n  const apiKey = "${KEY}";\n  return { apiKey };\n}\n` },
    ]);
    expect(errors.map((e) => e.path).sort()).toEqual([".env", "deploy/id_rsa"]);
    expect(errors.every((e) => /secret/.test(e.error))).toBe(true);
    expect(web.fileCount).toBe(1);
    const hits = await web.search("makeClient apiKey");
    expect(hits[0]?.chunk.filePath).toBe("src/client.ts");
    expect(hits[0].chunk.content).toContain("makeClient");
    expect(hits.map((h) => h.chunk.content).join("\n")).not.toContain(KEY);
  });
});
