// Java, Go, Rust, C, C++, C#, Ruby, Kotlin, Swift: kinds, names, contexts and line ranges of
// the units a reader would look for, on the fixtures in test/fixtures/chunking.
import { describe, expect, it } from "vitest";
import { chunkFile } from "../../core/chunking/index.js";
import { chunkFixture, find, options, outline } from "./helpers.js";

const unmerged = { minChars: 0 };
const split = { minChars: 0, maxLines: 8 };

describe("Java", () => {
  it("keeps a small class whole and a top-level interface separate", async () => {
    const chunks = await chunkFixture("Account.java", unmerged);
    expect(outline(chunks)).toEqual(["preamble  1-5", "class Account 7-41", "interface Auditor 43-45"]);
    expect(chunks[1].content.startsWith("/** A bank account")).toBe(true);
  });

  it("splits a class into constructor, methods, nested enum and record", async () => {
    const chunks = await chunkFixture("Account.java", split);
    expect(find(chunks, "Account", "constructor").context).toBe("class Account > constructor Account(String id)");
    expect(find(chunks, "withdraw", "method")).toMatchObject({ startLine: 25, endLine: 32, context: "class Account > method withdraw(BigDecimal amount)" });
    expect(find(chunks, "Kind", "enum").context).toBe("class Account > enum Kind");
    expect(find(chunks, "Transaction", "record").startLine).toBe(40);
  });
});

describe("Go", () => {
  it("names structs, interfaces, functions and methods with their receiver", async () => {
    const chunks = await chunkFixture("server.go", unmerged);
    expect(find(chunks, "Store", "struct")).toMatchObject({ startLine: 9, endLine: 13 });
    expect(find(chunks, "Getter", "interface").startLine).toBe(21);
    expect(find(chunks, "NewStore", "function").context).toBe("function NewStore()");
    expect(find(chunks, "Store.Get", "method")).toMatchObject({ startLine: 32, endLine: 38, context: "method Store.Get(id string)" });
    expect(find(chunks, "Store.ServeHTTP", "method").context).toBe("method Store.ServeHTTP(w http.ResponseWriter, r *http.Request)");
  });
});

describe("Rust", () => {
  it("chunks structs with attributes, enums, traits, impls and modules", async () => {
    const chunks = await chunkFixture("shapes.rs", unmerged);
    const point = find(chunks, "Point", "struct");
    expect(point.startLine).toBe(4); // doc comment and #[derive] belong to the struct
    expect(find(chunks, "Area", "trait").startLine).toBe(16);
    expect(find(chunks, "Area for Shape", "impl")).toMatchObject({ startLine: 20, endLine: 27 });
    expect(find(chunks, "fmt::Display for Point", "impl").startLine).toBe(29);
    expect(find(chunks, "registry", "module")).toMatchObject({ startLine: 35, endLine: 49 });
  });

  it("splits a module and an impl into their functions", async () => {
    const chunks = await chunkFixture("shapes.rs", { minChars: 0, maxLines: 6 });
    expect(find(chunks, "area", "method").context).toBe("impl Area for Shape > method area(&self)");
    expect(find(chunks, "count_by_kind", "function").context).toBe("module registry > function count_by_kind(shapes: &[Shape])");
  });
});

describe("C and C++", () => {
  it("C: typedef structs by their name, enums, functions with signatures", async () => {
    const chunks = await chunkFixture("buffer.c", unmerged);
    expect(find(chunks, "Buffer", "struct")).toMatchObject({ startLine: 6, endLine: 10 });
    expect(find(chunks, "grow_result", "enum").startLine).toBe(12);
    expect(find(chunks, "buffer_append", "function").context).toBe("function buffer_append(Buffer *buf, const char *text, size_t n)");
    expect(chunks.every((c) => c.language === "c")).toBe(true);
  });

  it("C++: namespaces, template classes, constructors, out-of-class methods", async () => {
    const chunks = await chunkFixture("matrix.cpp", split);
    expect(find(chunks, "Matrix", "constructor").context).toBe(
      "namespace linalg > class Matrix > constructor Matrix(std::size_t rows, std::size_t cols)",
    );
    expect(find(chunks, "at", "method").context).toBe("namespace linalg > class Matrix > method at(std::size_t r, std::size_t c)");
    const multiply = find(chunks, "Matrix<T>::multiply", "method");
    expect(multiply.startLine).toBe(28); // the template<> line belongs to it
    expect(find(chunks, "Dims", "struct").context).toBe("namespace linalg > struct Dims");
    expect(find(chunks, "main", "function").context).toBe("function main()");
  });

  it("reads declarations through a library's own macros, and keeps the macros in the text", async () => {
    const cpp = await chunkFixture("ringlog.h", split);
    expect(cpp[0].language).toBe("cpp");
    expect(find(cpp, "overflow_error", "class").startLine).toBe(18);
    expect(find(cpp, "ring", "constructor").context).toBe("class ring > constructor ring()");
    expect(find(cpp, "size", "method").context).toBe("class ring > method size()");
    expect(cpp.some((c) => c.content.includes("RL_CONSTEXPR20 void push("))).toBe(true);
    const c = await chunkFixture("pool.c", unmerged);
    expect(find(c, "pool_init", "function")).toMatchObject({ startLine: 14, endLine: 20 });
    expect(find(c, "pool_take", "function").content.startsWith("POOL_ALWAYS_INLINE void *")).toBe(true);
  });

  it("keeps a doc comment with its declaration across the attribute macros between them", async () => {
    const cc = "// Formats a value the old way.\nFMT_DEPRECATED\nFMT_INLINE_VISIBILITY\nvoid format_old(int x) {\n  use(x);\n}\n\nint other(int y) {\n  return y;\n}\n";
    const chunks = await chunkFile("src/format.cc", cc, options({ minChars: 0, packChars: 0 }));
    expect(find(chunks, "format_old", "function")).toMatchObject({ startLine: 1, endLine: 6 });
    expect(chunks.some((c) => c.kind === "preamble")).toBe(false);
  });

  it("takes a function-like macro for a unit, named with its parameters; a constant stays in its neighbours' chunk", async () => {
    const header = [
      "/* A doubly linked list. */",
      "typedef struct list {",
      "    struct listNode *head;",
      "    unsigned long len;",
      "} list;",
      "",
      "#define LIST_MAX 64",
      "/* The list's first node. */",
      "#define listFirst(l) ((l)->head)",
      "#define listSwap(a, b) do { \\",
      "    list *t = (a); \\",
      "    (a) = (b); (b) = t; \\",
      "} while (0)",
    ].join("\n");
    const chunks = await chunkFile("src/adlist.h", header, options({ minChars: 0, packChars: 0 }));
    expect(chunks.every((c) => c.language === "c")).toBe(true);
    expect(find(chunks, "listFirst", "macro")).toMatchObject({ startLine: 8, endLine: 9, context: "macro listFirst(l)" });
    expect(find(chunks, "listSwap", "macro")).toMatchObject({ startLine: 10, endLine: 13 });
    expect(chunks.some((c) => c.kind === "macro" && c.symbol === "LIST_MAX")).toBe(false);
  });
});

describe(".h headers", () => {
  it("parses a C++ header as C++ and a C header as C", async () => {
    const cppHeader = "#pragma once\nnamespace geo {\nclass Point {\npublic:\n  double x() const { return x_; }\nprivate:\n  double x_;\n};\n}\n";
    const cpp = await chunkFile("include/point.h", cppHeader, options({ minChars: 0 }));
    expect(cpp[0].language).toBe("cpp");
    // A namespace holding one class is that class's frame: the chunk is named by the class.
    expect(cpp.find((c) => c.symbol === "Point")).toMatchObject({ kind: "class", context: "namespace geo > class Point" });
    const c = await chunkFile("include/buf.h", "typedef struct { int n; } Buf;\nint buf_len(const Buf *b);\n", options({ minChars: 0 }));
    expect(c[0]).toMatchObject({ language: "c", kind: "struct", symbol: "Buf" });
  });
});

describe("C#", () => {
  it("namespaces, interfaces, enums, records, structs, classes, properties and methods", async () => {
    const chunks = await chunkFixture("Inventory.cs", split);
    const ns = "namespace Shop.Inventory";
    expect(find(chunks, "IStockSource", "interface").context).toBe(`${ns} > interface IStockSource`);
    expect(find(chunks, "StockLevel", "enum").startLine).toBe(12);
    expect(find(chunks, "Product", "record").startLine).toBe(14);
    expect(find(chunks, "Range", "struct")).toMatchObject({ startLine: 16, endLine: 20 });
    expect(find(chunks, "Name", "property").context).toBe(`${ns} > class Warehouse > property Name`);
    expect(find(chunks, "Receive", "method")).toMatchObject({
      startLine: 30,
      endLine: 34,
      context: `${ns} > class Warehouse > method Receive(Product product, int quantity)`,
    });
  });

  it("a namespace is transparent: the types it declares are the chunks, however small the file", async () => {
    const block = [
      "using System;",
      "",
      "namespace Shop.Billing",
      "{",
      "    /// <summary>Totals an order.</summary>",
      "    public class InvoiceCalculator",
      "    {",
      "        public decimal Total(decimal[] lines) => lines.Sum();",
      "    }",
      "",
      "    public interface ITaxPolicy { decimal Rate(string region); }",
      "}",
      "",
    ].join("\n");
    const chunks = await chunkFile("src/Billing.cs", block, options());
    expect(outline(chunks)).toEqual(["class InvoiceCalculator 1-9", "interface ITaxPolicy 11-12"]);
    expect(chunks.map((c) => c.context)).toEqual(["namespace Shop.Billing > class InvoiceCalculator", "namespace Shop.Billing > interface ITaxPolicy"]);

    const fileScoped = "namespace Shop.Billing;\n\npublic record Invoice(string Id, decimal Total);\n\npublic enum Currency { Eur, Usd }\n";
    const scoped = await chunkFile("src/Invoice.cs", fileScoped, options({ minChars: 0 }));
    expect(outline(scoped)).toEqual(["preamble  1-1", "record Invoice 3-3", "enum Currency 5-5"]);
    expect(scoped[1].context).toBe("namespace Shop.Billing > record Invoice");

    const nested = await chunkFile("src/Nested.cs", "namespace A { namespace B {\n  class C { }\n} }\n", options({ minChars: 0 }));
    expect(nested.find((c) => c.symbol === "C")?.context).toBe("namespace A > namespace B > class C");
  });
});

describe("Ruby", () => {
  it("modules, classes, initialize as constructor, singleton methods", async () => {
    const chunks = await chunkFixture("library.rb", split);
    expect(find(chunks, "initialize", "constructor").context).toBe("module Library > class Book > constructor initialize(title, author)");
    expect(find(chunks, "borrow", "method")).toMatchObject({ startLine: 25, endLine: 29 });
    expect(find(chunks, "from_json", "method").context).toBe("module Library > class Member > method from_json(text)");
    expect(find(chunks, "report", "function").context).toBe("function report(members)");
  });
});

describe("Kotlin", () => {
  it("data classes, interfaces, enums, objects, properties and extension functions", async () => {
    const chunks = await chunkFixture("Repository.kt", split);
    expect(find(chunks, "Note", "class").startLine).toBe(6);
    expect(find(chunks, "NoteSource", "interface")).toMatchObject({ startLine: 8, endLine: 10 });
    expect(find(chunks, "SortOrder", "enum").startLine).toBe(12);
    expect(find(chunks, "Defaults", "object").startLine).toBe(14);
    expect(find(chunks, "notes", "property").context).toBe("class NoteRepository > property notes");
    expect(find(chunks, "sorted", "method").context).toBe("class NoteRepository > method sorted(order: SortOrder)");
    expect(find(chunks, "Note.preview", "function").context).toBe("function Note.preview(max: Int = 40)");
  });
});

describe("Swift", () => {
  it("protocols, enums, structs, classes, extensions and functions", async () => {
    const chunks = await chunkFixture("Timer.swift", split);
    expect(find(chunks, "Tickable", "protocol")).toMatchObject({ startLine: 3, endLine: 5 });
    expect(find(chunks, "TimerState", "enum").startLine).toBe(7);
    expect(find(chunks, "Lap", "struct").startLine).toBe(13);
    expect(find(chunks, "lap", "method")).toMatchObject({ startLine: 26, endLine: 31, context: "class Stopwatch > method lap(at date: Date)" });
    expect(find(chunks, "Stopwatch", "extension").startLine).toBe(38);
    expect(find(chunks, "format", "function").context).toBe("function format(_ interval: TimeInterval)");
  });
});
