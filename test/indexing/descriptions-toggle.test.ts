// Turning LLM descriptions off keeps the index: the chunks' descriptions stay right, new chunks
// just get none. Turning them on rebuilds (existing chunks have none) and says why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../../core/engine-types.js";
import type { FakeHttpServer } from "../fakes/http-fake.js";
import { startFakeOpenAI } from "../fakes/openai.js";
import { engineFor, makeWorkspace, removeWorkspace, writeFiles } from "./helpers.js";

let server: FakeHttpServer;
let root: string;
const engines: Engine[] = [];

const LOAN = `export function compoundInterest(principal: number, rate: number, years: number): number {
  // Interest on interest: the balance grows by the rate each year.
  let balance = principal;
  for (let year = 0; year < years; year++) {
    balance = balance * (1 + rate);
  }
  return balance - principal;
}
`;

function overrides(enabled: boolean): Record<string, unknown> {
  return {
    logging: { logFilePath: "" },
    autoIndex: { enabled: false },
    description: { enabled, provider: "openai", model: "gpt-fake", baseUrl: `${server.url}/v1`, apiKey: "sk-x" },
  };
}

async function pass(enabled: boolean) {
  while (engines.length) await engines.pop()!.close();
  const engine = await engineFor(root, overrides(enabled));
  engines.push(engine);
  return engine.index();
}

beforeAll(async () => {
  server = await startFakeOpenAI({
    chat: (req) => {
      const n = (req.messages.at(-1)!.text.match(/### Chunk \d+/g) ?? []).length;
      return JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), "Computes compound interest."])));
    },
  });
  root = makeWorkspace({ "src/loan.ts": LOAN }, "rag-desc-toggle-");
});
afterAll(async () => {
  while (engines.length) await engines.pop()!.close();
  await server.close();
  removeWorkspace(root);
});

describe("description.enabled", () => {
  it("off keeps the index and its descriptions; on again rebuilds with its own reason", async () => {
    expect((await pass(true)).filesIndexed).toBe(1);
    const off = await pass(false);
    expect(off.rebuildReason).toBeNull();
    expect(off.filesIndexed).toBe(0);
    const hits = await engines[0].search("compoundInterest", { mode: "keyword", topK: 1 });
    expect(hits[0].chunk.description).toBe("Computes compound interest.");

    writeFiles(root, { "src/fee.ts": LOAN.replaceAll("compoundInterest", "lateFee") });
    expect((await pass(false)).filesIndexed).toBe(1);
    const on = await pass(true);
    expect(on.rebuildReason).toBe("descriptions were turned on");
    expect(on.filesIndexed).toBe(2);
  }, 60_000);
});
