import { describe, expect, it } from "vitest";
import { chunkFixture, find, outline } from "./helpers.js";

// minChars 0 switches merging off, so each unit is visible on its own.
const unmerged = { minChars: 0 };

describe("TypeScript", () => {
  it("chunks declarations with their doc comments, export keyword and signatures", async () => {
    const chunks = await chunkFixture("sample.ts", unmerged);
    expect(outline(chunks)).toEqual([
      "preamble  1-4",
      "interface CacheEntry 6-11",
      "type Loader 13-13",
      "enum Mode 15-18",
      "namespace Internal 20-24",
      "class LruCache 26-51",
      "function parseLimit 53-56",
      "function loadConfig 58-61",
      "block  63-63",
    ]);
    const load = find(chunks, "loadConfig");
    expect(load.context).toBe("function loadConfig(path: string, options: Options)");
    expect(load.content.startsWith("export async function loadConfig(")).toBe(true);
    expect(find(chunks, "parseLimit").context).toBe("function parseLimit(raw: string, fallback = DEFAULT_LIMIT)");
    expect(find(chunks, "CacheEntry").content.split("\n")[0]).toBe("/** Shape of a cached entry. */");
    expect(chunks.every((c) => c.language === "typescript" && c.filePath === "src/sample.ts")).toBe(true);
  });

  it("splits an oversized class into its members, keeping the class as context", async () => {
    const chunks = await chunkFixture("sample.ts", { ...unmerged, maxLines: 15 });
    const header = chunks.find((c) => c.kind === "class" && c.symbol === "LruCache" && c.startLine === 26);
    expect(header?.content).toContain("export class LruCache<T> {");
    const get = find(chunks, "get", "method");
    expect([get.startLine, get.endLine]).toEqual([32, 42]);
    expect(get.context).toBe("class LruCache > method get(key: string, now: number)");
    const ctor = find(chunks, "constructor", "constructor");
    expect(ctor.context.startsWith("class LruCache > constructor constructor(")).toBe(true);
    expect(find(chunks, "set", "method").context).toBe("class LruCache > method set(key: string, value: T, expiresAt: number)");
    for (const c of chunks) expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(15);
  });

  it("parses TSX components", async () => {
    const chunks = await chunkFixture("component.tsx", unmerged);
    expect(find(chunks, "CounterProps", "interface").startLine).toBe(3);
    expect(find(chunks, "Counter", "function").context).toBe("function Counter({ label, start = 0 }: CounterProps)");
    expect(find(chunks, "Badge", "function").context).toBe("function Badge({ text }: { text: string })");
    const panel = find(chunks, "Panel", "class");
    expect([panel.startLine, panel.endLine]).toEqual([20, 24]);
    expect(chunks.every((c) => c.language === "typescript")).toBe(true);
  });
});

describe("React components wrapped in calls", () => {
  it("treats memo(...) and forwardRef(...) bindings as functions with the inner signature", async () => {
    const chunks = await chunkFixture("wrapped.tsx", unmerged);
    expect(outline(chunks)).toEqual(["preamble  1-1", "function Row 3-3", "function Input 5-7", "block  9-9"]);
    expect(find(chunks, "Row").context).toBe("function Row({ label }: { label: string })");
    expect(find(chunks, "Input").context).toBe("function Input(props: { value: string }, ref)");
  });
});

describe("JavaScript", () => {
  it("finds functions, arrow functions bound to names, classes and methods", async () => {
    const chunks = await chunkFixture("app.js", unmerged);
    expect(find(chunks, "formatUser", "function").context).toBe("function formatUser(user)");
    expect(find(chunks, "handler", "function").context).toBe("function handler(req, res)");
    const store = find(chunks, "UserStore", "class");
    expect([store.startLine, store.endLine]).toEqual([12, 29]);
    // `const app = express()` is a value, not a function: it stays in the code around it.
    expect(chunks.some((c) => c.symbol === "app")).toBe(false);
    expect(chunks[0]).toMatchObject({ kind: "preamble", startLine: 1, endLine: 5 });
    expect(chunks.at(-1)).toMatchObject({ kind: "block", endLine: 43 });
  });

  it("splits a class into methods with the class as context", async () => {
    const chunks = await chunkFixture("app.js", { ...unmerged, maxLines: 8 });
    const find1 = find(chunks, "findById", "method");
    expect(find1.context).toBe("class UserStore > method findById(id)");
    expect([find1.startLine, find1.endLine]).toEqual([18, 24]);
    expect(find(chunks, "create", "method").context).toBe("class UserStore > method create(db)");
  });

  it("names functions assigned to properties: prototype methods and exports", async () => {
    const chunks = await chunkFixture("legacy.js", unmerged);
    expect(outline(chunks)).toEqual(["function Store 1-3", "method get 5-7", "function create 9-9", "function helper 11-13"]);
    expect(find(chunks, "get").context).toBe("method Store.prototype.get(id)");
    expect(find(chunks, "create").context).toBe("function exports.create(db)");
  });

  it("handles JSX", async () => {
    const chunks = await chunkFixture("view.jsx", unmerged);
    expect(outline(chunks)).toEqual(["preamble  1-1", "function TodoList 3-13", "function App 15-21"]);
    expect(chunks[1].language).toBe("javascript");
  });
});

describe("Python", () => {
  it("chunks classes, decorated classes and functions", async () => {
    const chunks = await chunkFixture("service.py", unmerged);
    const item = find(chunks, "LineItem", "class");
    expect(item.startLine).toBe(12); // the @dataclass line belongs to the class
    expect(find(chunks, "OrderService", "class")).toMatchObject({ startLine: 22, endLine: 47 });
    expect(find(chunks, "fetch_prices", "function").context).toBe("function fetch_prices(client, skus)");
    expect(chunks.at(-1)).toMatchObject({ kind: "block", startLine: 54, endLine: 56 });
  });

  it("splits a class into methods; __init__ is the constructor, decorators stay with methods", async () => {
    const chunks = await chunkFixture("service.py", { ...unmerged, maxLines: 12 });
    expect(find(chunks, "__init__", "constructor").context).toBe(
      "class OrderService > constructor __init__(self, repository, tax_rate: float = TAX_RATE)",
    );
    expect(find(chunks, "place_order", "method")).toMatchObject({ startLine: 32, endLine: 41 });
    const validate = find(chunks, "validate", "method");
    expect(validate.startLine).toBe(43);
    expect(validate.content.split("\n")[0].trim()).toBe("@staticmethod");
  });
});
