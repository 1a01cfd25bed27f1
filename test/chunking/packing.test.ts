// Packing: neighbouring declarations of one parent share a chunk up to `packChars`, and every
// one of them stays findable by name (its context lists them; ranking and the keyword index
// read the names back).
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { declaredNames } from "../../core/chunking/pack.js";
import { analyseQuery } from "../../core/retrieval/query-analysis.js";
import { exactSymbolMatch, focusOnMember, symbolTermCoverage } from "../../core/retrieval/features.js";
import { keywordDocOf } from "../../core/keyword/keyword-doc.js";
import type { ChunkRecord } from "../../core/types.js";
import { options } from "./helpers.js";

const small = (name: string) => `def ${name}(value):\n    """Return ${name} of the value."""\n    return value + 1\n`;
const big = (name: string) => `def ${name}(items):\n${Array.from({ length: 40 }, (_, i) => `    items.append("entry number ${i} for ${name}")`).join("\n")}\n    return items\n`;

const source = [
  "import os",
  "",
  small("parse_limit"),
  small("read_limit"),
  small("write_limit"),
  big("build_table"),
  "class Cache:",
  ...big("rebuild").split("\n").map((l) => (l ? `    ${l}` : l)),
  "    def get(self, key):",
  "        return self.items[key]",
  "",
  "    def put(self, key, value):",
  "        self.items[key] = value",
  "",
  small("after_class"),
].join("\n");

describe("packing neighbouring declarations", () => {
  it("puts small neighbours together and names each in the context", async () => {
    const chunks = await chunkFile("pkg/limits.py", source, options({ packChars: 1500 }));
    const first = chunks[0];
    expect(first.startLine).toBe(1);
    for (const name of ["parse_limit", "read_limit", "write_limit"]) expect(first.context).toContain(`function ${name}(value)`);
    expect(first.content).toContain("import os");
    // The big function does not fit beside them: a chunk of its own, named as before.
    const table = chunks.find((c) => c.symbol === "build_table")!;
    expect(table.context).toBe("function build_table(items)");
    expect(table.content.length).toBeGreaterThan(1500);
    // Only a pack is bounded by packChars; one declaration alone keeps the usual limits.
    for (const c of chunks) if (c.context.includes("; ")) expect(c.content.length).toBeLessThanOrEqual(1500);
  });

  it("never packs across a parent: a split class's methods pack with each other, not with the function after it", async () => {
    const chunks = await chunkFile("pkg/limits.py", source, options({ packChars: 800, maxChars: 1000 }));
    const methods = chunks.find((c) => c.context === "class Cache > method get(self, key); method put(self, key, value)");
    expect(methods, chunks.map((c) => c.context).join("\n")).toBeDefined();
    expect(methods!.content).not.toContain("after_class");
    const after = chunks.find((c) => c.context.includes("after_class"))!;
    expect(after.startLine).toBeGreaterThan(methods!.endLine);
  });

  it("names the namespace a C# file's packed types sit in once, and every type finds the pack", async () => {
    const type = (name: string) => [`    /// <summary>One ${name} of the shop.</summary>`, `    public class ${name}`, "    {", "        public int Total { get; set; }", "    }", ""];
    for (const [file, head] of [["Shop/Orders.cs", ["namespace Shop.Orders", "{"]], ["Shop/Scoped.cs", ["namespace Shop.Orders;", ""]]] as const) {
      const text = [...head, ...type("Cart"), ...type("Order"), head[1] === "{" ? "}" : ""].join("\n");
      const [chunk] = await chunkFile(file, text, options({ packChars: 1500 }));
      expect(chunk.context).toBe("namespace Shop.Orders > class Cart; class Order");
      const record: ChunkRecord = { ...chunk, id: "x", contentHash: "h", description: "" };
      expect(declaredNames(record)).toEqual({ names: ["Cart", "Order"], parent: "Shop.Orders" });
      expect(exactSymbolMatch(analyseQuery("Order"), record)).toBe(1);
    }
  });

  it("keeps every declaration its own chunk with packChars 0", async () => {
    const chunks = await chunkFile("pkg/limits.py", source, options({ packChars: 0 }));
    expect(chunks.map((c) => c.symbol)).toEqual(expect.arrayContaining(["parse_limit", "read_limit", "write_limit", "build_table", "Cache", "after_class"]));
  });

  it("finds a packed member by its name: symbol match, symbol words and the keyword document", async () => {
    const chunks = await chunkFile("pkg/limits.py", source, options({ packChars: 1500 }));
    const record: ChunkRecord = { ...chunks[0], id: "x", contentHash: "h", description: "" };
    expect(declaredNames(record).names).toEqual(expect.arrayContaining(["parse_limit", "read_limit", "write_limit"]));
    expect(exactSymbolMatch(analyseQuery("read_limit"), record)).toBe(1);
    expect(symbolTermCoverage(analyseQuery("write the limit"), record)).toBe(1);
    expect(keywordDocOf(record, "text").symbol.split(" ")).toEqual(expect.arrayContaining(["parse_limit", "read_limit", "write_limit"]));
  });
});

describe("a class whose head packs with its first methods", () => {
  // A TypeScript class too big for one chunk: its declaration and fields (the head) and its
  // short methods share packs, the head with the first of them.
  const fields = Array.from({ length: 12 }, (_, i) => `  readonly field${i}: string // what field ${i} holds`).join("\n");
  const methods = Array.from({ length: 30 }, (_, i) => `  applyStep${i}(input: number): number {\n    return input + ${i}\n  }`).join("\n\n");
  const classSource = `export class KeywordContext implements Context {\n${fields}\n\n${methods}\n}\n`;

  it("is named after the class, and its methods stay named in the context", async () => {
    const chunks = await chunkFile("src/context.ts", classSource, options({ packChars: 2500 }));
    const head = chunks.find((c) => c.startLine === 1)!;
    expect(head.context, chunks.map((c) => `${c.startLine} ${c.kind} ${c.symbol} | ${c.context}`).join("\n")).toContain("; ");
    expect(head).toMatchObject({ kind: "class", symbol: "KeywordContext" });
    const record: ChunkRecord = { ...head, id: "x", contentHash: "h", description: "" };
    expect(exactSymbolMatch(analyseQuery("KeywordContext"), record)).toBe(1);
    expect(exactSymbolMatch(analyseQuery("applyStep0"), record)).toBe(1);
    expect(keywordDocOf(record, "text").symbol.split(" ")).toEqual(expect.arrayContaining(["KeywordContext", "applyStep0"]));
  });
});

describe("packs after an edit", () => {
  it("an inserted function re-packs only its neighbourhood: most packs keep their text (and so their vector)", async () => {
    const many = Array.from({ length: 80 }, (_, i) => small(`step_${i}_of_the_pipeline`)).join("\n");
    const before = await chunkFile("pkg/steps.py", many, options({ packChars: 1500 }));
    const after = await chunkFile("pkg/steps.py", `${small("inserted_first")}\n${many}`, options({ packChars: 1500 }));
    const old = new Set(before.map((c) => c.content));
    const changed = after.filter((c) => !old.has(c.content));
    expect(before.length).toBeGreaterThanOrEqual(6);
    expect(changed.length).toBeLessThanOrEqual(3);
  });
});

describe("declared names from a context", () => {
  it("reads the name after the kind word, whatever follows it", () => {
    const names = (context: string, symbol = "") => declaredNames({ symbol, context });
    expect(names("class Cache > method get(self, key); method put(self, key, value)")).toEqual({ names: ["get", "put"], parent: "Cache" });
    expect(names("function withDisplay :: (Display -> X a) -> X a", "withDisplay").names).toEqual(["withDisplay"]);
    expect(names("function <+> :: a -> a -> a", "<+>").names).toEqual(["<+>"]);
    expect(names("class Box<T>").names).toEqual(["Box"]);
    expect(names("impl").names).toEqual([]);
  });

  it("an implementation block declares the type it adds to, not the trait it implements", async () => {
    const impl = (context: string, symbol = "") => declaredNames({ symbol, context, kind: "impl" });
    expect(impl("impl FromRequestParts<S> for ConnectInfo<T>", "FromRequestParts<S> for ConnectInfo<T>").names).toEqual(["ConnectInfo"]);
    expect(impl("impl Router<S>", "Router<S>").names).toEqual(["Router"]);
    expect(declaredNames({ symbol: "call", context: "impl Service<Request> for Router > function call(&mut self, req: Request)" }).parent).toBe("Router");
    // A Haskell instance head names a class and its types: no name of its own.
    expect(impl("impl Show (Tree a)", "Show (Tree a)").names).toEqual([]);
    // Through the real chunker: a symbol search for a trait is answered by its declaration, not by each impl.
    const source = [
      "pub trait FromRequest<S> {",
      "    fn from_request(req: Request, state: &S) -> Self;",
      "}",
      "",
      "pub struct Form<T>(pub T);",
      "",
      "impl<T, S> FromRequest<S> for Form<T> {",
      "    fn from_request(req: Request, state: &S) -> Self {",
      "        todo!()",
      "    }",
      "}",
      "",
    ].join("\n");
    const chunks = await chunkFile("src/form.rs", source, options({ packChars: 0 }));
    const records: ChunkRecord[] = chunks.map((c, i) => ({ ...c, id: `r${i}`, contentHash: `h${i}`, description: "" }));
    const q = analyseQuery("FromRequest");
    const matching = records.filter((r) => exactSymbolMatch(q, r) === 1).map((r) => r.kind);
    expect(matching).toEqual(["trait"]);
    const implRecord = records.find((r) => r.kind === "impl")!;
    expect(exactSymbolMatch(analyseQuery("Form"), implRecord)).toBe(1);
    expect(keywordDocOf(implRecord, "text").declares).toEqual(["Form"]);
    // Elixir's protocol implementations read the same way.
    const [inspect] = await chunkFile("lib/plug/conn.ex", "defimpl Inspect, for: Plug.Conn do\n  def inspect(conn, opts) do\n    conn\n  end\nend\n", options());
    expect([inspect.kind, inspect.symbol]).toEqual(["impl", "Inspect for Plug.Conn"]);
    const inspectRecord: ChunkRecord = { ...inspect, id: "ex", contentHash: "h", description: "" };
    expect(exactSymbolMatch(analyseQuery("Inspect"), inspectRecord)).toBe(0);
    expect(exactSymbolMatch(analyseQuery("Plug.Conn"), inspectRecord)).toBe(1);
  });

  it("a markup element declares its id, not its tag", async () => {
    const element = (symbol: string, context: string) => declaredNames({ symbol, context, kind: "element" });
    expect(element("form#login", "element form#login")).toEqual({ names: ["login"], parent: null });
    expect(element("g", "element svg > element g")).toEqual({ names: [], parent: null });
    expect(element("button", "element div#toolbar > element button")).toEqual({ names: [], parent: "toolbar" });
    // A tag is not the name a symbol query means: flask's `g`, a `Button` component.
    const svg = await chunkFile("docs/logo.svg", `<svg>\n<g>\n${'<path d="M0 0"/>\n'.repeat(3)}</g>\n</svg>\n`, options());
    const record: ChunkRecord = { ...svg[0], id: "svg", contentHash: "h", description: "" };
    expect(record.kind).toBe("element");
    expect(exactSymbolMatch(analyseQuery("svg"), record)).toBe(0);
    expect(keywordDocOf(record, "text").symbol).toBe("");
    const form = await chunkFile("templates/login.html", '<form id="login_form">\n<input name="user">\n</form>\n', options());
    expect(exactSymbolMatch(analyseQuery("login_form"), { ...form[0], id: "f", contentHash: "h", description: "" })).toBe(1);
  });
});

describe("a packed answer is named by the member asked for", () => {
  it("takes the member's kind and name when the query names it, and keeps the pack's lines", async () => {
    const chunks = await chunkFile("pkg/limits.py", source, options({ packChars: 1500 }));
    const record: ChunkRecord = { ...chunks[0], id: "x", contentHash: "h", description: "" };
    const focused = focusOnMember(analyseQuery("write_limit"), record);
    expect(focused).toMatchObject({ symbol: "write_limit", kind: "function", startLine: record.startLine, endLine: record.endLine });
    expect(focusOnMember(analyseQuery("something unrelated"), record)).toBe(record);
  });
});
