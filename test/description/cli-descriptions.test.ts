// The CLI with a remote provider and descriptions, through the built dist/cli.js: `index`
// describes chunks and images over the fake OpenAI-compatible server, `query` shows the
// descriptions, and a provider that is down makes `index` fail with one line and exit 1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ensureBuilt, repoRoot } from "../indexing/dist-build.js";
import { closedPort, type FakeHttpServer } from "../fakes/http-fake.js";
import { startFakeOpenAI } from "../fakes/openai.js";

const run = promisify(execFile);
let server: FakeHttpServer;
let root: string;

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: join(root, ".xdg"), OPENAI_API_KEY: "" };
  try {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, "dist", "cli.js"), ...args], { cwd: root, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

function writeConfig(baseUrl: string): void {
  const config = {
    embedding: { provider: "openai", model: "text-embedding-3-small", baseUrl, apiKey: "sk-cli", maxRetries: 1, retryBaseMs: 5 },
    description: { enabled: true, provider: "openai", model: "gpt-fake", visionModel: "gpt-fake-vision" },
    autoIndex: { enabled: false },
  };
  writeFileSync(join(root, "opencode-rag.json"), JSON.stringify(config));
}

beforeAll(async () => {
  ensureBuilt();
  server = await startFakeOpenAI({
    apiKey: "sk-cli",
    chat: (req) => {
      const last = req.messages.at(-1)!;
      if (last.images.length > 0) return "Company logo: a lighthouse over waves.";
      const n = (last.text.match(/### Chunk \d+/g) ?? []).length;
      return JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), "Computes the compound interest of a loan."])));
    },
  });
  root = mkdtempSync(join(tmpdir(), "rag-cli-desc-"));
  mkdirSync(join(root, "src"));
  mkdirSync(join(root, "assets"));
  writeFileSync(
    join(root, "src", "loan.ts"),
    "export function compoundInterest(principal: number, rate: number, years: number): number {\n  return principal * Math.pow(1 + rate, years) - principal;\n}\n",
  );
  writeFileSync(join(root, "assets", "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 4, 2]));
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe("opencode-rag CLI with a remote provider and descriptions", () => {
  it("indexes, shows descriptions in query results and finds the image", async () => {
    writeConfig(`${server.url}/v1`);
    const index = await cli(["index"]);
    expect(index.code).toBe(0);

    const human = await cli(["query", "compound interest of a loan", "--top-k", "3"]);
    expect(human.stdout).toContain("src/loan.ts:1-3");
    expect(human.stdout).toContain("» Computes the compound interest of a loan.");

    const json = JSON.parse((await cli(["query", "lighthouse logo", "--json", "--top-k", "5"])).stdout);
    const logo = json.find((r: { filePath: string }) => r.filePath === "assets/logo.png");
    expect(logo).toMatchObject({ kind: "image", preview: "Company logo: a lighthouse over waves." });

    const status = await cli(["status"]);
    expect(status.stdout).toMatch(/provider\s+openai \(text-embedding-3-small\)/);
  });

  it("fails `index` with one line and exit code 1 when the provider is down", async () => {
    writeConfig(`http://127.0.0.1:${await closedPort()}/v1`);
    writeFileSync(join(root, "src", "extra.ts"), "export const extra = 1;\n");
    const index = await cli(["index"]);
    expect(index.code).toBe(1);
    const lines = index.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^opencode-rag: cannot reach the OpenAI-compatible API at http:\/\/127\.0\.0\.1:\d+\/v1 \(connection refused\): start the server or set embedding\.baseUrl/);
  });
});
