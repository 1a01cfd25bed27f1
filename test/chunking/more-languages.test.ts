// Languages beyond the required set (PHP, Scala, Elixir, Bash, Zig, Lua, Haskell, YAML, TOML,
// Dart, Objective-C, Solidity, OCaml, Emacs Lisp, ReScript, Terraform and HCL, PowerShell,
// Starlark, Make, R), and a guard that every language table compiles against its grammar.
import { describe, expect, it } from "vitest";
import { chunkFile, languageForPath } from "../../core/chunking/index.js";
import { AST_LANGUAGES } from "../../core/chunking/languages.js";
import { chunkFixture, find, options, outline } from "./helpers.js";

const unmerged = { minChars: 0 };

describe("every language table", () => {
  it("compiles its unit query against its grammar and chunks a line of text", async () => {
    for (const spec of AST_LANGUAGES) {
      const path = `probe/file${spec.extensions[0]}`;
      const chunks = await chunkFile(path, "x\n", options());
      expect(chunks, path).toHaveLength(1);
      expect(chunks[0].language, path).toBe(spec.language);
    }
  });
});

describe("PHP", () => {
  it("interfaces, traits, classes with constructors and methods, enums, functions", async () => {
    const chunks = await chunkFixture("User.php", { minChars: 0, maxLines: 5 });
    expect(find(chunks, "Greets", "trait")).toMatchObject({ startLine: 8, endLine: 10 });
    expect(find(chunks, "__construct", "constructor").context).toBe("class User > constructor __construct(string $first)");
    expect(find(chunks, "name", "method").context).toBe("class User > method name()");
    expect(find(chunks, "Role", "enum").startLine).toBe(25);
    expect(find(chunks, "helper", "function").context).toBe("function helper(int $x)");
  });
});

describe("Scala", () => {
  it("traits, case classes, objects and their defs", async () => {
    const chunks = await chunkFixture("Shapes.scala", { minChars: 0, maxLines: 2 });
    expect(find(chunks, "Shape", "trait").startLine).toBe(5);
    expect(find(chunks, "total", "method").context).toBe("object Geometry > method total(shapes: Seq[Shape])");
    expect(find(chunks, "area", "method").context).toBe("class Circle > method area");
  });

  it("keeps a trait's members in the trait after an anonymous instance with a body", async () => {
    const members = Array.from({ length: 40 }, (_, i) => [`  /** Step ${i} of the decoding. */`, `  final def step${i}(c: Cursor): Result[A] = decode(c.down(${i}))`, ""]).flat();
    const text = [
      "trait Decoder[A] extends Serializable { self =>",
      "  def apply(c: Cursor): Result[A]",
      "  final def map[B](f: A => B): Decoder[B] = new Decoder[B] {",
      "    final def apply(c: Cursor): Result[B] = self(c).map(f)",
      "  }",
      "  final def widen: Decoder[Any] = new Widened {",
      "    def apply(c: Cursor): Result[Any] = self(c)",
      "  }",
      ...members,
      "}",
      "",
    ].join("\n");
    const chunks = await chunkFile("core/Decoder.scala", text, options());
    const last = chunks.find((c) => c.content.includes("def step39"))!;
    expect(last.context).toMatch(/^trait Decoder > method step\d+\(c: Cursor\)/);
    expect(last.kind).toBe("method");
    // The chunks hold the file's own text: only the parse saw `()` in place of `[B]`.
    expect(chunks.some((c) => c.content.includes("new Decoder[B] {"))).toBe(true);
  });
});

describe("Elixir", () => {
  it("modules and def/defp/defmacro with their @doc, named by the macro call", async () => {
    const chunks = await chunkFixture("../symbols/src/elixir/cart.ex", { minChars: 0, maxLines: 4 });
    expect(find(chunks, "add", "function")).toMatchObject({ startLine: 8, endLine: 11, context: "module Shop.Cart > function add(cart, %Item{} = item)" });
    expect(find(chunks, "sum", "function").context).toBe("module Shop.Cart > function sum(items)");
    expect(find(chunks, "debug", "function").startLine).toBe(23);
    expect(chunks[0]).toMatchObject({ kind: "module", symbol: "Shop.Cart", startLine: 1 });
  });
});

describe("Bash", () => {
  it("functions in both syntaxes, top-level commands in between", async () => {
    const chunks = await chunkFixture("build.sh", unmerged);
    expect(outline(chunks)).toEqual(["preamble  1-2", "function log 4-6", "function build 8-11", "block  13-13"]);
  });
});

describe("Zig", () => {
  it("functions, containers assigned to a const, and tests, named by their declarations", async () => {
    const chunks = await chunkFixture("geometry.zig", unmerged);
    expect(outline(chunks)).toEqual([
      "preamble  1-1",
      "struct Point 3-11",
      "enum Color 13-13",
      "struct Value 15-15",
      "function main 17-20",
      "function helper 22-24",
      "test adds points 26-28",
      "struct Handle 30-30",
      "enum ParseError 32-32",
      "test helper 34-36",
    ]);
    expect(find(chunks, "helper", "function").context).toBe("function helper(a: i32)");
  });

  it("a struct too big for one chunk becomes its methods, the struct in their context", async () => {
    const chunks = await chunkFixture("geometry.zig", { minChars: 0, maxLines: 4 });
    expect(find(chunks, "add", "method")).toMatchObject({ startLine: 8, endLine: 10, context: "struct Point > method add(self: Point, other: Point)" });
  });
});

const GREETER_OUTLINE = [
  "preamble  1-1",
  "function greet 3-6",
  "method rename 8-11",
  "function shout 13-15",
  "function loud_greet 17-19",
  "function farewell 21-23",
  "function on_event 25-27",
  "block  29-35",
];

describe("Lua", () => {
  it("function statements, local functions and functions assigned to names", async () => {
    const chunks = await chunkFixture("greeter.lua", unmerged);
    expect(outline(chunks)).toEqual(GREETER_OUTLINE);
    expect(chunks.map((c) => c.context).filter(Boolean)).toEqual([
      "function M.greet(name)",
      "method M:rename(name)",
      "function shout(text)",
      "function loud_greet(name)",
      "function M.farewell(name, when)",
      "function on_event(evt)",
    ]);
  });

  it("parses the same way every time: the grammar's scanner state is cleared between parses", async () => {
    for (const text of ['x = "a"\n', "y = 1\n-- note\n", "local s = [[\nlong\n"]) {
      await chunkFile("b.lua", text, options());
      expect(outline(await chunkFixture("greeter.lua", unmerged))).toEqual(GREETER_OUTLINE);
    }
  });
});

describe("Haskell", () => {
  it("a signature and the equations below it are one function; data, newtype, type, class and instance", async () => {
    const chunks = await chunkFixture("Layout.hs", unmerged);
    expect(outline(chunks)).toEqual([
      "preamble  1-11",
      "type Rect 13-19",
      "type Tall 21-21",
      "type Windows 23-23",
      "class Layout 25-30",
      "impl Layout Tall 32-34",
      "function splitVertically 36-42",
      "function tile 44-48",
      "function ||| 50-51",
      "block  53-53",
      "function main 55-56",
    ]);
    expect(chunks.map((c) => c.language)).toEqual(chunks.map(() => "haskell"));
    // The signature shows in the context the way a parameter list does elsewhere.
    expect(find(chunks, "tile", "function").context).toBe("function tile :: Int -> Rect -> Int -> [Rect]");
    expect(find(chunks, "tile", "function").content).toMatch(/^-- \| The master window[\s\S]*tile nmaster r n = /);
  });

  it("a class or function too big for one chunk: methods with their signatures, equations cut at clause boundaries", async () => {
    const chunks = await chunkFixture("Layout.hs", { minChars: 0, maxLines: 4 });
    expect(find(chunks, "doLayout", "method")).toMatchObject({
      startLine: 27,
      endLine: 29,
      context: "class Layout > method doLayout :: l -> Rect -> Windows -> [(Int, Rect)]",
    });
    expect(find(chunks, "description", "method").context).toBe("class Layout > method description :: l -> String");
    expect(outline(chunks.filter((c) => c.symbol === "splitVertically" || c.symbol === "tile"))).toEqual([
      "function splitVertically 36-38",
      "function splitVertically 39-42",
      "function tile 44-47",
      "function tile 48-48",
    ]);
  });

  it("only equations of the same name join; operators and infix definitions are named by their operator", async () => {
    const source = [
      "module M where",
      "orphan :: Int",
      "other :: Int",
      "other = 1",
      "",
      "x `plus` y = x + y",
      "plus' :: Int",
      "plus' = 2",
      "",
      "instance Show T where",
      "  show A = \"a\"",
      "  show B = \"b\"",
      "",
      "foreign import ccall \"sin\" c_sin :: Double -> Double",
    ].join("\n");
    const chunks = await chunkFile("src/M.hs", source, options({ minChars: 0, maxLines: 2 }));
    expect(outline(chunks)).toEqual([
      "preamble  1-1",
      "function orphan 2-2",
      "function other 3-4",
      "function plus 6-6",
      "function plus' 7-8",
      "impl Show T 10-10",
      "method show 11-12",
      "function c_sin 14-14",
    ]);
    expect(find(chunks, "c_sin").context).toBe("function c_sin :: Double -> Double");
  });
});

describe("Dart", () => {
  it("classes, mixins, extensions, enums and functions; a body takes its signature, annotations and doc comment", async () => {
    const chunks = await chunkFixture("repository.dart", { minChars: 0, maxLines: 8 });
    // The grammar keeps a signature and its body as two siblings: one unit here.
    expect(find(chunks, "fetchAll", "method")).toMatchObject({ startLine: 16, endLine: 21, context: "class Repository > method fetchAll({int limit = 10})" });
    expect(find(chunks, "Repository", "constructor")).toMatchObject({ startLine: 5, endLine: 7 });
    expect(find(chunks, "Repository.inMemory", "constructor").context).toBe("class Repository > constructor Repository.inMemory()");
    expect(find(chunks, "cached", "method").startLine).toBe(25);
    expect(find(chunks, "capacity", "method").startLine).toBe(27);
    expect(find(chunks, "operator ==", "method").context).toBe("class Repository > method operator ==(Object other)");
    expect(find(chunks, "Logging", "trait").startLine).toBe(34);
    expect(find(chunks, "Titles", "extension").startLine).toBe(38);
    expect(find(chunks, "Status", "enum").startLine).toBe(42);
    expect(find(chunks, "Loader", "type").startLine).toBe(44);
    expect(find(chunks, "ticks", "function")).toMatchObject({ startLine: 46, endLine: 52, context: "function ticks(Duration every)" });
  });
});

describe("Objective-C", () => {
  it("classes by @interface and @implementation, methods named by their selector, protocols and C declarations", async () => {
    const chunks = await chunkFixture("ImageCache.m", { minChars: 0, maxLines: 7 });
    expect(find(chunks, "sharedCache", "method")).toMatchObject({ startLine: 11, endLine: 16, context: "class ImageCache > method sharedCache" });
    // The comment above a method belongs to it.
    expect(find(chunks, "imageForKey:", "method")).toMatchObject({ startLine: 18, endLine: 21 });
    expect(find(chunks, "setImage:forKey:", "method").context).toBe("class ImageCache > method setImage:forKey:");
    expect(find(chunks, "ImageLoader", "protocol").startLine).toBe(33);
    expect(find(chunks, "ImageSize", "struct").startLine).toBe(37);
    expect(find(chunks, "aspectRatio", "function").context).toBe("function aspectRatio(ImageSize size)");
    expect(chunks[0]).toMatchObject({ language: "objc", kind: "preamble" });
  });

  it("reads a header inside Apple's audit macros: each declared method and property, with its doc comment", async () => {
    const header = [
      "#import <Foundation/Foundation.h>",
      "",
      "NS_ASSUME_NONNULL_BEGIN",
      "",
      "@interface SessionManager : NSObject",
      "",
      "/** The URL requests are relative to. */",
      "@property (readonly, nonatomic, strong, nullable) NSURL *baseURL;",
      "",
      "/**",
      " Creates a manager for `url`.",
      " */",
      "- (instancetype)initWithBaseURL:(nullable NSURL *)url configuration:(nullable id)configuration NS_DESIGNATED_INITIALIZER;",
      "",
      "/** Sends a GET request. */",
      "- (void)GET:(NSString *)path parameters:(nullable id)parameters;",
      "",
      "@end",
      "",
      "NS_ASSUME_NONNULL_END",
      "",
    ].join("\n");
    const chunks = await chunkFile("Sources/SessionManager.h", header, options({ minChars: 0, maxLines: 4 }));
    expect(find(chunks, "baseURL", "property")).toMatchObject({ startLine: 7, endLine: 8, context: "class SessionManager > property baseURL" });
    // The macro after the last parameter is not part of the selector.
    expect(find(chunks, "initWithBaseURL:configuration:", "method")).toMatchObject({ startLine: 10, endLine: 13 });
    expect(find(chunks, "GET:parameters:", "method").startLine).toBe(15);
    // The file's text is what the chunks hold, the macros included.
    expect(chunks.map((c) => c.content).join("\n")).toContain("NS_ASSUME_NONNULL_BEGIN");
  });

  it("names an enum declared with Foundation's NS_ENUM and NS_OPTIONS by the type it declares", async () => {
    const header = [
      "typedef NS_ENUM(NSInteger, CachePolicy) {",
      "    CachePolicyMemory,",
      "    CachePolicyDisk,",
      "} NS_SWIFT_NAME(ImageCache.Policy);",
      "",
      "typedef NS_OPTIONS(NSUInteger, CacheOptions) {",
      "    CacheOptionsRefresh = 1 << 0,",
      "};",
      "",
      "@interface ImageCache : NSObject",
      "@end",
    ].join("\n");
    const chunks = await chunkFile("Sources/ImageCache.h", header, options({ minChars: 0 }));
    expect(find(chunks, "CachePolicy", "enum")).toMatchObject({ startLine: 1, endLine: 4 });
    expect(find(chunks, "CacheOptions", "enum")).toMatchObject({ startLine: 6, endLine: 8 });
    expect(find(chunks, "CachePolicy", "enum").content.startsWith("typedef NS_ENUM(NSInteger, CachePolicy) {")).toBe(true);
  });

  it("takes a .m file for Objective-C only when it reads so, and a header declaring classes", async () => {
    const matlab = "function y = square(x)\n% SQUARE returns x squared.\n  y = x .^ 2;\nend\n";
    expect((await chunkFile("stats/square.m", matlab, options())).map((c) => c.language)).toEqual(["text"]);
    const header = "#import <Foundation/Foundation.h>\n\n@interface ImageCache : NSObject\n- (UIImage *)imageForKey:(NSString *)key;\n@end\n";
    expect(find(await chunkFile("Sources/ImageCache.h", header, options({ minChars: 0 })), "ImageCache", "class").language).toBe("objc");
    const cHeader = "#include <stddef.h>\n\nsize_t buffer_len(const char *buffer);\n";
    expect((await chunkFile("src/buffer.h", cHeader, options())).map((c) => c.language)).toEqual(["c"]);
  });
});

describe("Solidity", () => {
  it("contracts, interfaces and libraries, and the functions, modifiers, events and types they declare", async () => {
    const chunks = await chunkFixture("Vault.sol", { minChars: 0, maxLines: 8 });
    expect(find(chunks, "Vault", "class").startLine).toBe(4);
    // The NatSpec comment above a function belongs to it.
    expect(find(chunks, "deposit", "method")).toMatchObject({ startLine: 20, endLine: 24, context: "class Vault > method deposit" });
    expect(find(chunks, "onlyOpen", "method").startLine).toBe(13);
    expect(chunks.find((c) => c.kind === "constructor")?.context).toBe("class Vault > constructor(address owner)");
    expect(find(chunks, "Deposited", "type").context).toBe("class Vault > type Deposited");
    expect(find(chunks, "Lock", "struct").startLine).toBe(10);
    expect(find(chunks, "IVault", "interface").startLine).toBe(27);
    expect(find(chunks, "Math", "class").startLine).toBe(31);
  });
});

describe("OCaml", () => {
  it("modules, module types, classes and methods, types and exceptions, let definitions named one level down", async () => {
    const chunks = await chunkFixture("stack.ml", { minChars: 0, maxLines: 4 });
    // A doc comment directly above belongs to what it describes.
    expect(find(chunks, "Stack", "module").startLine).toBe(1);
    expect(find(chunks, "push", "function")).toMatchObject({ startLine: 5, endLine: 6, context: "module Stack > function push" });
    expect(find(chunks, "pop", "function").endLine).toBe(10);
    // A let that takes nothing and binds no function is a variable.
    expect(find(chunks, "empty", "variable").startLine).toBe(12);
    expect(find(chunks, "SHOW", "module").startLine).toBe(15);
    expect(find(chunks, "color", "type").startLine).toBe(19);
    expect(find(chunks, "Empty", "type").startLine).toBe(21);
    expect(find(chunks, "fact", "function").startLine).toBe(23);
    expect(find(chunks, "incr", "method").context).toBe("class counter > method incr");
  });
});

describe("YAML and TOML", () => {
  it("YAML: one chunk per top-level key of each document", async () => {
    const chunks = await chunkFixture("workflow.yaml", unmerged);
    expect(chunks.filter((c) => c.kind === "key").map((c) => `${c.symbol} ${c.startLine}-${c.endLine}`)).toEqual([
      "name 2-2",
      "on 3-5",
      "jobs 6-11",
      "second 13-13",
    ]);
  });

  it("TOML: top-level keys, tables and arrays of tables", async () => {
    const chunks = await chunkFixture("Cargo.toml", unmerged);
    expect(outline(chunks)).toEqual(["key title 1-1", "table package 3-5", "table dependencies 7-8", "table bin 10-11"]);
  });
});

describe("Emacs Lisp", () => {
  it("defuns and macros, and the list forms that define: cl-defun, cl-defmethod, defcustom, cl-defstruct, modes", async () => {
    const chunks = await chunkFixture("cart.el", { minChars: 0, maxLines: 4 });
    expect(find(chunks, "cart-tax-rate", "variable").startLine).toBe(5);
    expect(find(chunks, "cart--items", "variable").startLine).toBe(9);
    // A struct with options is named by its list's head.
    expect(find(chunks, "cart-item", "struct").startLine).toBe(11);
    // The autoload cookie above a defun belongs to it.
    expect(find(chunks, "cart-add", "function")).toMatchObject({ startLine: 14, endLine: 17, context: "function cart-add(item)" });
    expect(find(chunks, "cart-total", "function").context).toBe("function cart-total(&key (tax cart-tax-rate))");
    expect(find(chunks, "cart-describe", "method").startLine).toBe(23);
    expect(find(chunks, "cart-with-items", "macro").startLine).toBe(26);
    expect(find(chunks, "cart-mode", "function").startLine).toBe(30);
  });
});

describe("ReScript", () => {
  it("types, exceptions, externals, modules and their bindings, and top-level lets: a function when bound to one", async () => {
    const chunks = await chunkFixture("Cart.res", { minChars: 0, maxLines: 5 });
    expect(find(chunks, "item", "type")).toMatchObject({ startLine: 1, endLine: 2 });
    expect(find(chunks, "EmptyCart", "type").startLine).toBe(4);
    expect(find(chunks, "formatPrice", "function").startLine).toBe(6);
    expect(find(chunks, "Tax", "module").startLine).toBe(8);
    // A doc comment and a decorator directly above belong to the binding.
    expect(find(chunks, "total", "function")).toMatchObject({ startLine: 13, endLine: 17, context: "function total(items: array<item>)" });
    expect(find(chunks, "make", "function").startLine).toBe(19);
    expect(find(chunks, "empty", "variable").startLine).toBe(24);
    // A function body's own lets stay inside it.
    expect(chunks.some((c) => c.symbol === "sum")).toBe(false);
  });
});

// Terraform, PowerShell, Starlark, Make and R read the files the symbol goldens read
// (test/fixtures/symbols/src/): one fixture per language for both.
describe("Terraform and HCL", () => {
  it("blocks by their type, named as Terraform addresses them, with the comments above; nested blocks inside", async () => {
    const chunks = await chunkFixture("../symbols/src/terraform/main.tf", { minChars: 0, maxLines: 6 });
    // The comment above the file's first block belongs to it (the grammar keeps it outside the body).
    expect(find(chunks, "cidr", "variable")).toMatchObject({ startLine: 1, endLine: 5, language: "terraform" });
    expect(chunks.find((c) => c.kind === "locals")).toMatchObject({ startLine: 7, endLine: 9, context: "locals" });
    expect(find(chunks, "aws_vpc.this", "resource").startLine).toBe(11);
    expect(find(chunks, "lifecycle", "block").context).toBe("resource aws_vpc.this > block lifecycle");
    expect(find(chunks, "aws_availability_zones.available", "data").startLine).toBe(20);
    expect(find(chunks, "subnets", "module").startLine).toBe(24);
    expect(find(chunks, "vpc_id", "output").startLine).toBe(30);
  });

  it("a variables file's settings are keys; an .hcl file's blocks are named by type and labels", async () => {
    const tfvars = await chunkFile("env/prod.tfvars", 'region = "eu-west-1"\nazs    = ["a", "b"]\n', options({ minChars: 0 }));
    expect(tfvars.map((c) => `${c.kind}:${c.symbol}`)).toEqual(["key:region", "key:azs"]);
    const job = await chunkFile("jobs/api.hcl", 'job "api" {\n  group "web" {\n    count = 2\n  }\n}\n', options({ minChars: 0 }));
    expect(find(job, "job api", "block").language).toBe("hcl");
  });
});

describe("PowerShell", () => {
  it("functions with their parameters, classes with properties, constructors and methods, enums", async () => {
    const chunks = await chunkFixture("../symbols/src/powershell/build.ps1", { minChars: 0, maxLines: 5 });
    // The comment above the script's first statement belongs to it (the grammar keeps it outside the statements).
    expect(find(chunks, "Restore-Packages", "function")).toMatchObject({ startLine: 9, endLine: 13, context: "function Restore-Packages([string]$Path)" });
    expect(find(chunks, "Invoke-Build", "function").context).toBe("function Invoke-Build([string]$Config)");
    expect(find(chunks, "Stage", "enum").startLine).toBe(20);
    expect(find(chunks, "Name", "property").context).toBe("class Builder > property Name");
    expect(chunks.find((c) => c.kind === "constructor")?.startLine).toBe(25);
    expect(find(chunks, "Run", "method")).toMatchObject({ startLine: 27, endLine: 30 });
  });
});

describe("Starlark", () => {
  it("a build file's targets by their name and rule, with the comments above; load() and package() are not targets", async () => {
    const chunks = await chunkFixture("../symbols/src/starlark/BUILD", { minChars: 0, maxLines: 6 });
    expect(chunks.every((c) => c.language === "starlark")).toBe(true);
    expect(find(chunks, "api", "target")).toMatchObject({ startLine: 3, endLine: 7, context: "target service api" });
    expect(find(chunks, "api_test", "target").context).toBe("target go_test api_test");
    expect(chunks.filter((c) => c.kind === "target")).toHaveLength(2);
  });

  it("a .bzl file's defs are functions; Bazel's and Buck's build files are known by their names in these letters only", async () => {
    const defs = await chunkFile("tools/defs.bzl", 'def service(name, srcs):\n    native.go_library(name = name)\n', options({ minChars: 0 }));
    expect(find(defs, "service", "function").context).toBe("function service(name, srcs)");
    expect(languageForPath("svc/BUILD.bazel")).toBe("starlark");
    expect(languageForPath("svc/BUCK")).toBe("starlark");
    expect(languageForPath("WORKSPACE")).toBe("starlark");
    // A lower-case `build` is as often a shell script.
    expect(languageForPath("scripts/build")).toBeNull();
  });
});

describe("Make", () => {
  it("rules are targets named by what they build, with the comment above; define blocks; .PHONY is not a target", async () => {
    const chunks = await chunkFixture("../symbols/src/make/Makefile", { minChars: 0, maxLines: 4 });
    expect(chunks.every((c) => c.language === "make")).toBe(true);
    expect(find(chunks, "build", "target")).toMatchObject({ startLine: 7, endLine: 8 });
    expect(find(chunks, "$(BIN)", "target").startLine).toBe(10);
    expect(find(chunks, "test", "target")).toMatchObject({ startLine: 13, endLine: 15 });
    expect(find(chunks, "lint", "target").startLine).toBe(17);
    expect(find(chunks, "HELP", "variable").startLine).toBe(20);
    expect(chunks.some((c) => c.symbol === ".PHONY")).toBe(false);
  });
});

describe("R", () => {
  it("functions assigned to a name, S4 classes, generics and methods, an R6 class and its methods, with roxygen above", async () => {
    const chunks = await chunkFixture("../symbols/src/r/scale.R", { minChars: 0, maxLines: 7 });
    expect(find(chunks, "scale_to", "function")).toMatchObject({ startLine: 1, endLine: 7, context: "function scale_to(x, to = 1)" });
    expect(find(chunks, "summarise_scaled", "function").startLine).toBe(9);
    expect(find(chunks, "Reading", "class").startLine).toBe(13);
    expect(find(chunks, "rescale", "function").startLine).toBe(15);
    expect(find(chunks, "rescale", "method")).toMatchObject({ startLine: 17, endLine: 20 });
    expect(find(chunks, "Meter", "class").startLine).toBe(22);
    expect(find(chunks, "normalise", "method").context).toBe("class Meter > method normalise()");
  });
});
