// The code-aware ranking stage on small synthetic candidate lists: each feature moves the
// candidate it should, and switching the feature off removes the effect.
import { describe, expect, it } from "vitest";
import { analyseQuery, searchText } from "../../core/retrieval/query-analysis.js";
import { definesIdentifier, exactSymbolMatch, fileNameCoverage, pathTermCoverage, reExportsIdentifier, symbolTermCoverage, unitNames } from "../../core/retrieval/features.js";
import { classifyPath, foreignOrigin } from "../../core/path-class.js";
import { NAMED_CANDIDATES, RANK_WEIGHTS, rankCandidates, startRanking, vectorShareFor, type RankCandidate, type RankFeatureFlags, type RankWeights } from "../../core/retrieval/rank.js";
import type { ChunkRecord } from "../../core/types.js";

let nextId = 0;
function chunk(p: Partial<ChunkRecord> & { filePath: string }): ChunkRecord {
  nextId++;
  return {
    id: `c${nextId}`,
    contentHash: `h${nextId}`,
    description: "",
    startLine: 1,
    endLine: 20,
    language: "typescript",
    kind: "function",
    symbol: "",
    context: "",
    content: "",
    ...p,
  };
}

function cand(record: ChunkRecord, score: number): RankCandidate {
  return { record, score, keywordScore: score, vectorScore: null, keywordRank: null, vectorRank: null };
}

const order = (rs: RankCandidate[]) => rs.map((r) => r.record.id);
const only = (on: keyof RankFeatureFlags): Partial<RankFeatureFlags> => ({
  fusion: false,
  symbolMatch: false,
  symbolTerms: false,
  termCoverage: false,
  pathMatch: false,
  definitions: false,
  chunkKind: false,
  fileAggregation: false,
  nameSimilarity: false,
  diversity: false,
  demoteNonSource: false,
  [on]: true,
});
const none = { ...only("symbolMatch"), symbolMatch: false };

describe("query analysis", () => {
  const names = (q: string) => analyseQuery(q).identifiers;
  /** Each query's identifiers, as the table gives them. */
  const expectNames = (table: Array<[string, string[]]>) => {
    for (const [q, want] of table) expect(names(q), q).toEqual(want);
  };

  it("reads identifiers as symbol queries", () => {
    for (const q of ["HTTPHeaderDict", "parse_url", "Thor::Group", "Retry.get_backoff_time", "getUser()", "Timeout"]) {
      expect(analyseQuery(q).kind, q).toBe("symbol");
    }
    expect([...analyseQuery("Retry.get_backoff_time").identifierKeys]).toEqual(["retrygetbackofftime", "getbackofftime"]);
  });

  it("reads a PHP name qualified by backslashes as one name, but not a path written with them", () => {
    for (const q of ["Illuminate\\Support\\Collection", "\\App\\Models\\User"]) expect(analyseQuery(q).kind, q).toBe("symbol");
    expect([...analyseQuery("\\App\\Models\\User").writtenNames]).toEqual(["App.Models.User", "User"]);
    const record = chunk({ filePath: "src/Collection.php", endLine: 3, kind: "class", symbol: "Collection", context: "class Collection", content: "class Collection implements ArrayAccess\n{\n}", language: "php" });
    expect(exactSymbolMatch(analyseQuery("Illuminate\\Support\\Collection"), record)).toBe(1);
    expect(analyseQuery("where does Illuminate\\Support\\Collection::map run its callback").identifiers).toEqual(["Illuminate\\Support\\Collection::map"]);
    expect(analyseQuery("src\\app\\main.ts").identifiers).toEqual([]);
  });

  it("reads a type written with its arguments, a pointer or a reference as the type's name", () => {
    expectNames([
      ["Router<S>", ["Router"]],
      ["Result<T, E>", ["Result"]],
      ["Arc<Mutex<State>>", ["Arc"]],
      ["std::vector<int>", ["std::vector"]],
      ["*http.Request", ["http.Request"]],
      // With type arguments a word is code: `Json<T>` names the type, `Json` alone may be a topic.
      ["how is Json<T> turned into a response", ["Json"]],
      ["how is json turned into a response", []],
    ]);
    for (const q of ["Router<S>", "Map<String, Object>", "*http.Request"]) expect(analyseQuery(q).kind, q).toBe("symbol");
    // A comparison in prose is no type: nothing is named, nothing is dropped from the terms.
    const prose = analyseQuery("why is x<10 and y>5 slower");
    expect(prose.identifiers).toEqual([]);
    expect(prose.terms).toEqual(expect.arrayContaining(["slower"]));
    const record = chunk({ filePath: "src/routing/mod.rs", endLine: 3, kind: "struct", symbol: "Router", context: "struct Router", content: "pub struct Router<S = ()> {\n    inner: Arc<RouterInner<S>>,\n}", language: "rust" });
    expect(exactSymbolMatch(analyseQuery("Router<S>"), record)).toBe(1);
    expect(definesIdentifier(analyseQuery("Router<S>"), record)).toBe(1);
  });

  it("reads a call with its arguments and a line that declares a name as the names they are", () => {
    expectNames([
      ["getUserById(id)", ["getUserById()"]],
      ["useEffect(() => {})", ["useEffect()"]],
      ["fn into_response(self)", ["into_response()"]],
      ["struct Config", ["Config"]],
      ["interface Props", ["Props"]],
      ["def parse_url(", ["parse_url"]],
      ["func (c *Command) Execute", ["Execute"]],
      // Prose that opens with such a word, and a plural written `key(s)`, name nothing.
      ["type inference", []],
      ["module loading order", []],
      ["object pooling", []],
      ["Find the handler for the key(s) given", []],
    ]);
    for (const q of ["getUserById(id)", "struct Config", "interface Props"]) expect(analyseQuery(q).kind, q).toBe("symbol");
  });

  it("reads names that only their marks tell from words: macros, sigils, dunders, arities", () => {
    expect(names("table!")).toEqual(["table"]);
    expect(names("table! macro expansion into table and column structs")).toEqual(["table"]);
    expect(names("$http")).toEqual(["$http"]);
    expect(names("@app.route")).toEqual(["@app.route"]);
    expect(names("__init__")).toEqual(["__init__"]);
    expect(names("handle_call/3")).toEqual(["handle_call"]);
    expect(names("how does Ecto.Changeset.cast/4 filter params")).toEqual(["Ecto.Changeset.cast"]);
    expect(analyseQuery("table!").kind).toBe("symbol");
    // A sentence's last word, an exclamation, names nothing.
    expect(names("why does the build fail!")).toEqual([]);
    expect(names("the cache is stale!")).toEqual([]);
  });

  it("reads questions as natural language and keeps the identifiers they name", () => {
    const q = analyseQuery("how does PoolManager choose which pool serves a URL?");
    expect(q.kind).toBe("natural");
    expect(q.identifiers).toEqual(["PoolManager"]);
    expect(q.terms).toEqual(expect.arrayContaining(["pool", "manager", "poolmanager", "choose", "serve", "url"]));
    expect(q.terms).not.toContain("how");
    expect(q.terms).not.toContain("does");
  });

  it("reads a lone lower-case word as a topic, not a name", () => {
    expect(analyseQuery("retries").kind).toBe("natural");
    expect(analyseQuery("retries").identifiers).toEqual([]);
  });

  it("reads a lone letter as a name: no topic is one letter long", () => {
    const q = analyseQuery("g");
    expect(q.kind).toBe("symbol");
    expect([...q.identifierKeys]).toEqual(["g"]);
    // A letter inside a longer name is no key of its own.
    expect([...analyseQuery("x.Foo").identifierKeys]).toEqual(["xfoo", "foo"]);
  });

  it("notices when documentation is asked for", () => {
    expect(analyseQuery("where is the plugin API documented").wantsDocs).toBe(true);
    expect(analyseQuery("readme install steps").wantsDocs).toBe(true);
    expect(analyseQuery("how are plugins loaded").wantsDocs).toBe(false);
  });

  it("reads documentation that code makes or parses as a question about that code", () => {
    for (const q of ["documentation generation for man pages and markdown", "how zls gets doc comments for a token", "where are doc-strings extracted", "generate the docs site"]) {
      expect(analyseQuery(q).wantsDocs, q).toBe(false);
    }
    // Still a wish for prose when the documentation itself is the subject.
    for (const q of ["docs for comment syntax", "documentation of the generator options"]) expect(analyseQuery(q).wantsDocs, q).toBe(true);
  });

  it("tells a question from a statement", () => {
    expect(analyseQuery("how are routes registered").asksQuestion).toBe(true);
    expect(analyseQuery("Does the pool retry on timeouts").asksQuestion).toBe(true);
    expect(analyseQuery("routes registered with the router?").asksQuestion).toBe(true);
    expect(analyseQuery("\"how are routes registered\"").asksQuestion).toBe(true);
    expect(analyseQuery("\"routes registered with the router?\"").asksQuestion).toBe(true);
    expect(analyseQuery("(routes registered with the router?)").asksQuestion).toBe(true);
    const statement = analyseQuery("Return the number of dimensions of this coordinate sequence.");
    expect(statement.asksQuestion).toBe(false);
    expect(statement.wordCount).toBe(9);
  });

  it("notices a name in subject position, the statement's first word", () => {
    expect(analyseQuery("ExecuteC executes the command and returns it").opensWithName).toBe(true);
    expect(analyseQuery("`ZodError` structure and issue formatting").opensWithName).toBe(true);
    expect(analyseQuery("Extend django.test.LiveServerTestCase to overlay the assets").opensWithName).toBe(false);
    expect(analyseQuery("Parse parses a duration string").opensWithName).toBe(false);
  });

  it("reads a request by what it asks for, not by its wording", () => {
    const asked: Array<[string, string]> = [
      ["Explain how sessions expire", "how sessions expire"],
      ["please explain the plugin loader", "the plugin loader"],
      ["show me where routes are registered", "where routes are registered"],
      ["find where retries are computed", "where retries are computed"],
      ["Walk me through the index pass", "the index pass"],
      ["tell me about the cache", "the cache"],
      ["Summarise the config loading", "the config loading"],
      ["where are retries computed in this repo", "where are retries computed"],
      ["how are plugins loaded in the codebase?", "how are plugins loaded?"],
      ["explain the build within our code base.", "the build."],
      ["session expiry in this project", "session expiry"],
    ];
    for (const [request, words] of asked) expect(searchText(request), request).toBe(words);
    expect(analyseQuery(searchText("explain how sessions expire")).asksQuestion).toBe(true);
    // A verb opening a description of one unit is part of it, as in doc comments.
    for (const unit of ["show a diff between the existing file and the new content", "Find duplicates in a sorted array", "describe the syntax node at the cursor", "explain", "create a new project", "in this repo", "the repo of this project is read", "how references are found across the project", "the structure of the project"]) {
      expect(searchText(unit), unit).toBe(unit);
    }
  });

  it("notices when tests are asked for", () => {
    expect(analyseQuery("where are the retry tests").wantsTests).toBe(true);
    expect(analyseQuery("where are retries with backoff done").wantsTests).toBe(false);
    expect(analyseQuery("SessionTests").wantsTests).toBe(true);
    expect(analyseQuery("RouterSpec.setUp").wantsTests).toBe(true);
    expect(analyseQuery("latest contest results").wantsTests).toBe(false);
  });

  it("reads a toolchain's test command as the command, not as asking for tests", () => {
    for (const q of ["parse go test -coverprofile output into per-file blocks", "what does npm test run", "cargo test output format", "zig build test steps"]) {
      expect(analyseQuery(q).wantsTests, q).toBe(false);
    }
    expect(analyseQuery("go test fixtures for the parser").wantsTests).toBe(true);
    expect(analyseQuery("test the go parser").wantsTests).toBe(true);
  });

  it("reads a testing tool the project ships as that tool's code, not as asking for tests", () => {
    for (const q of ["test runner for CLI commands in isolation", "testing client", "test helpers for fake servers", "where is the test-harness set up"]) {
      expect(analyseQuery(q).wantsTests, q).toBe(false);
    }
    expect(analyseQuery("tests of the test runner").wantsTests).toBe(true);
    expect(analyseQuery("testing the client").wantsTests).toBe(true);
  });
});

describe("features", () => {
  const pathCovers = (query: string, filePath: string) => pathTermCoverage(analyseQuery(query), chunk({ filePath }));

  it("symbol-term coverage: the query's words make up the symbol", () => {
    const q = analyseQuery("parse a log level from a string");
    expect(symbolTermCoverage(q, chunk({ filePath: "a.go", symbol: "ParseLevel" }))).toBe(1);
    expect(symbolTermCoverage(q, chunk({ filePath: "a.go", symbol: "WriteLevel" }))).toBe(0.5);
  });

  it("symbol-term coverage counts the forms of a name's words the query says", () => {
    const covers = (query: string, symbol: string) => symbolTermCoverage(analyseQuery(query), chunk({ filePath: "a.py", symbol }));
    expect(covers("the parser of dates", "parse_date")).toBe(1); // by prefix, five letters on
    expect(covers("decoding the body", "BodyDecoder")).toBe(1); // one root, both with an ending
    expect(covers("expiration of keys", "expireKeys")).toBe(1);
    // Four-letter prefixes and doubled agent nouns join too many everyday words in names.
    expect(covers("read the format", "ReadyForm")).toBe(0);
    expect(covers("map the rows", "SqlMapper")).toBe(0);
  });

  it("path coverage counts the file name and its own folder fully, folders above a quarter", () => {
    const q = analyseQuery("retry policy");
    expect(pathTermCoverage(q, chunk({ filePath: "util/retry.py" }))).toBe(0.5);
    expect(pathTermCoverage(q, chunk({ filePath: "retry/policy.py" }))).toBe(1);
    expect(pathTermCoverage(q, chunk({ filePath: "retry/src/policy.py" }))).toBe(0.625);
    expect(pathTermCoverage(q, chunk({ filePath: "src/other.py" }))).toBe(0);
    // The weight is the ranking's to choose; a folder never counts below the others.
    expect(pathTermCoverage(q, chunk({ filePath: "retry/policy.py" }), 0.5)).toBe(0.75);
    expect(pathTermCoverage(q, chunk({ filePath: "retry/policy.py" }), 0)).toBe(0.625);
  });

  it("path coverage for a query of names counts a name the path says whole, not one of its words", () => {
    expect(pathCovers("IntoResponse", "axum-core/src/response/into_response.rs")).toBe(1);
    expect(pathCovers("ErrorKind", "src/error/kind.rs")).toBe(1);
    expect(pathCovers("Sinatra::Helpers", "lib/sinatra/helpers.rb")).toBe(1);
    expect(pathCovers("Retry.get_backoff_time", "src/urllib3/util/retry.py")).toBe(0.5);
    // One shared word is another name: `map_request` is not `FromRequest`, `keyword.ts` not `KeywordCxt`.
    expect(pathCovers("FromRequest", "axum/src/middleware/map_request.rs")).toBe(0);
    expect(pathCovers("KeywordCxt", "lib/compile/validate/keyword.ts")).toBe(0);
    // With other words the query is read word by word, as any question.
    expect(pathCovers("PowerShell completion generation", "powershell_completions.go")).toBeGreaterThan(0);
  });

  it("path coverage matches word variants by prefix, not compounds", () => {
    expect(pathCovers("routing", "src/router.py")).toBe(1);
    expect(pathCovers("dependencies", "src/dependency.py")).toBe(1);
    expect(pathCovers("configuration loading", "src/config.py")).toBe(0.5);
    expect(pathCovers("handlers", "src/handler.rb")).toBe(1);
    // `loadconfig`, the joined identifier, is no variant of `load`.
    expect(pathCovers("load_config", "src/load.ts")).toBeLessThan(0.5);
    // A three-letter word reaches only its doubled agent noun: `logging` folds to `log`, whose logger is `logger.rb`.
    expect(pathCovers("logging", "lib/middleware/logger.rb")).toBe(1);
    expect(pathCovers("logger", "src/log.go")).toBe(1);
    expect(pathCovers("mapping", "src/mappers.ts")).toBe(1);
    expect(pathCovers("log", "src/login.ts")).toBe(0);
    expect(pathCovers("log", "src/logout.ts")).toBe(0);
    expect(pathCovers("set", "src/setup.ts")).toBe(0);
  });

  it("path coverage matches words of one root, both with an ending", () => {
    expect(pathCovers("decoding", "httpx/_decoders.py")).toBe(1);
    expect(pathCovers("settling", "lib/core/settle.js")).toBe(1);
    expect(pathCovers("reflection", "bind/ReflectiveTypeAdapterFactory.java")).toBeGreaterThan(0);
    expect(pathCovers("expiration", "src/expire.c")).toBe(1);
    expect(pathCovers("cancellation", "cancel/CancelToken.js")).toBe(1);
    // Four-letter roots join other things: `state` and `station`.
    expect(pathCovers("station", "src/state.py")).toBe(0);
    expect(pathCovers("parsing", "src/JsonReader.java")).toBe(0);
  });

  it("path coverage names index-like files by their folder", () => {
    const q = analyseQuery("extractors");
    expect(pathTermCoverage(q, chunk({ filePath: "src/extract/mod.rs" }))).toBe(1);
    expect(pathTermCoverage(q, chunk({ filePath: "pkg/extractor/__init__.py" }))).toBe(1);
    // A sibling in the folder counts the folder's word as its own folder's...
    expect(pathTermCoverage(q, chunk({ filePath: "src/extract/query.rs" }))).toBe(1);
    // ...which, weighed less, leaves the index-like file named by it ahead.
    expect(pathTermCoverage(q, chunk({ filePath: "src/extract/query.rs" }), 0.25)).toBe(0.25);
    expect(pathTermCoverage(q, chunk({ filePath: "src/extract/mod.rs" }), 0.25)).toBe(1);
  });

  it("file-name coverage: the share of the file name's words the question says", () => {
    const q = analyseQuery("how is the configuration loaded and validated");
    expect(fileNameCoverage(q, chunk({ filePath: "src/configuration.zig" }))).toBe(1);
    expect(fileNameCoverage(q, chunk({ filePath: "src/config_loader.zig" }))).toBe(1);
    expect(fileNameCoverage(q, chunk({ filePath: "src/Server.zig" }))).toBe(0);
    expect(fileNameCoverage(analyseQuery("HTTP status validation"), chunk({ filePath: "lib/helpers/HttpStatusCode.js" }))).toBeCloseTo(2 / 3, 10);
    expect(fileNameCoverage(analyseQuery("how zls provides workspace symbol search"), chunk({ filePath: "src/features/workspace_symbols.zig" }))).toBe(1);
    // An index-like file goes by its folder; other folders count for nothing here.
    expect(fileNameCoverage(analyseQuery("middleware layers"), chunk({ filePath: "src/middleware/mod.rs" }))).toBe(1);
    expect(fileNameCoverage(analyseQuery("middleware layers"), chunk({ filePath: "src/middleware/map_request.rs" }))).toBe(0);
  });

  it("recognises declarations in text even when the chunk has no symbol", () => {
    const q = analyseQuery("parse_url");
    expect(definesIdentifier(q, chunk({ filePath: "u.py", kind: "lines", content: "x = 1\ndef parse_url(url):\n    pass" }))).toBe(1);
    expect(definesIdentifier(q, chunk({ filePath: "u.py", kind: "lines", content: "return parse_url(u)" }))).toBe(0);
    // Annotated declarations: a Python module global or class field, a TypeScript class field.
    const annotated = analyseQuery("DEFAULT_TIMEOUT");
    expect(definesIdentifier(annotated, chunk({ filePath: "c.py", kind: "lines", content: "DEFAULT_TIMEOUT: Final[float] = 5.0" }))).toBe(1);
    expect(definesIdentifier(annotated, chunk({ filePath: "c.ts", kind: "lines", content: "  DEFAULT_TIMEOUT: number | undefined = 5;" }))).toBe(1);
    expect(definesIdentifier(annotated, chunk({ filePath: "c.py", kind: "lines", content: "if DEFAULT_TIMEOUT == 5:\n    pass" }))).toBe(0);
    // A one-letter name asked for alone is looked for too: flask's `g`.
    const globals = chunk({ filePath: "src/flask/globals.py", kind: "class", content: "class _AppCtxGlobalsProxy:\n    pass\n\ng: _AppCtxGlobalsProxy = LocalProxy(_cv_app)" });
    expect(definesIdentifier(analyseQuery("g"), globals)).toBe(1);
    expect(definesIdentifier(analyseQuery("g"), chunk({ filePath: "a.py", kind: "lines", content: "if g is None:\n    pass" }))).toBe(0);
    const go = analyseQuery("WithField");
    expect(definesIdentifier(go, chunk({ filePath: "e.go", kind: "lines", content: "func (entry *Entry) WithField(key string) *Entry {" }))).toBe(1);
    // A submodule's declaration does not declare its parent's name.
    expect(definesIdentifier(analyseQuery("Plug.Conn"), chunk({ filePath: "lib/plug/conn/utils.ex", kind: "lines", content: "defmodule Plug.Conn.Utils do" }))).toBe(0);
    expect(definesIdentifier(analyseQuery("Plug.Conn"), chunk({ filePath: "lib/plug/conn.ex", kind: "lines", content: "defmodule Plug.Conn do" }))).toBe(1);
    expect(definesIdentifier(analyseQuery("launchWhenReady"), chunk({ filePath: "B.kt", kind: "lines", content: "public fun CoroutineScope.launchWhenReady(" }))).toBe(1);
    // C's macros: `#define` declares, in glibc's `# define` style too; a use does not.
    const header = chunk({ filePath: "src/adlist.h", language: "c", kind: "struct", content: "typedef struct list {\n    listNode *head;\n} list;\n\n#define listFirst(l) ((l)->head)\n# define LIST_HEAD 0" });
    expect(definesIdentifier(analyseQuery("listFirst"), header)).toBe(1);
    expect(definesIdentifier(analyseQuery("LIST_HEAD"), header)).toBe(1);
    expect(definesIdentifier(analyseQuery("listFirst"), chunk({ filePath: "src/t_list.c", language: "c", kind: "function", content: "listNode *ln = listFirst(list);" }))).toBe(0);
  });

  it("counts a module re-exporting a name as declaring it when no candidate declares the name", () => {
    const reexport = chunk({ filePath: "axum/src/extract/mod.rs", language: "rust", kind: "lines", content: "mod raw_form;\n\npub use axum_core::extract::{\n    FromRef, FromRequest, Request,\n};" });
    const user = chunk({ filePath: "axum/src/form.rs", language: "rust", kind: "lines", content: "impl<T, S> FromRequest<S> for Form<T> {" });
    const q = analyseQuery("FromRequest");
    expect(reExportsIdentifier(q, reexport)).toBe(true);
    expect(reExportsIdentifier(q, user)).toBe(false);
    expect(definesIdentifier(q, reexport)).toBe(0);
    // The declaration lies outside the index (axum-core): the re-export is where the name enters.
    expect(order(rankCandidates("FromRequest", [cand(user, 0.6), cand(reexport, 0.5)], { features: only("definitions") }))).toEqual([reexport.id, user.id]);
    expect(order(rankCandidates("how do extractors implement FromRequest", [cand(user, 0.6), cand(reexport, 0.5)], { features: only("definitions") }))).toEqual([reexport.id, user.id]);
    // With the declaration among the candidates, a re-export is one more reference to it.
    const trait = chunk({ filePath: "axum-core/src/extract/mod.rs", language: "rust", kind: "trait", symbol: "FromRequest", content: "pub trait FromRequest<S>: Sized {" });
    const ranked = rankCandidates("FromRequest", [cand(user, 0.6), cand(reexport, 0.55), cand(trait, 0.5)], { features: only("definitions") });
    expect(order(ranked)).toEqual([trait.id, user.id, reexport.id]);
  });

  it("classifies test, generated, vendored and example paths", () => {
    expect(classifyPath("src/foo.test.ts")).toBe("test");
    expect(classifyPath("tests/test_pool.py")).toBe("test");
    expect(classifyPath("logger_test.go")).toBe("test");
    for (const p of ["src/components/__snapshots__/Button.test.tsx.snap", "src/__fixtures__/user.json", "src/parser/snapshots/parse_expr.snap", "src/lexer.snap.new"]) {
      expect(classifyPath(p), p).toBe("test");
    }
    for (const p of ["src/snapshot.ts", "src/snapshots/store.rs", "lib/snap.rb"]) expect(classifyPath(p), p).toBe("source");
    expect(classifyPath("api/v1/service.pb.go")).toBe("generated");
    for (const p of ["index.d.ts", "index.d.cts", "types/index.d.mts"]) expect(classifyPath(p), p).toBe("generated");
    // Django's numbered migrations (makemigrations writes them) and Kubernetes' deep-copy code;
    // the migrations framework's own modules are source.
    for (const p of ["shop/migrations/0001_initial.py", "django/contrib/auth/migrations/0012_alter_user_first_name_max_length.py", "pkg/apis/v1/zz_generated.deepcopy.go"]) {
      expect(classifyPath(p), p).toBe("generated");
    }
    for (const p of ["django/db/migrations/autodetector.py", "migrations/env.py", "db/migrate.rb"]) expect(classifyPath(p), p).toBe("source");
    expect(classifyPath("vendor/github.com/x/y.go")).toBe("vendored");
    // Other projects' trees by the names C, C++, Node, Mix and iOS projects keep them under.
    for (const p of ["deps/jemalloc/src/arena.c", "deps/v8/src/api/api.cc", "3rdparty/libpng/png.c", "externals/zlib/inflate.c", "Pods/Alamofire/Source/Session.swift", "Carthage/Checkouts/Nimble/Sources/Nimble/DSL.swift"]) {
      expect(classifyPath(p), p).toBe("vendored");
    }
    // Code about pods and dependencies is the project's own.
    for (const p of ["pkg/kubelet/pods/pod_manager.go", "app/api/deps.py", "src/dependencies/graph.ts"]) expect(classifyPath(p), p).toBe("source");
    expect(classifyPath("examples/basic.rs")).toBe("example");
    expect(classifyPath("absl/hash/hash_benchmark.cc")).toBe("example");
    expect(classifyPath("bench/parse.js")).toBe("example");
    expect(classifyPath("man/xmonad.hs")).toBe("example"); // a manual's sample configuration
    for (const p of ["src/human/name.ts", "manual/guide.ts", "src/manager/pool.go"]) expect(classifyPath(p), p).toBe("source");
    expect(classifyPath("src/workbench.ts")).toBe("source");
    expect(classifyPath("src/contest.ts")).toBe("source");
  });

  it("knows the test and example conventions of class-per-file languages and their projects", () => {
    for (const p of [
      "Tests/AlamofireTests/SessionTests.swift",
      "tests/Dapper.Tests/ProcedureTests.cs",
      "src/Dapper.Tests.Performance/Benchmarks.cs",
      "Foo.UnitTests/Parser.cs",
      "src/main/java/com/acme/ParserTest.java",
      "core/src/ParserSpec.scala",
      "modules/core/src/CodecSuite.scala",
      "src/Monolog/Test/TestCase.php",
      "lib/thing_spec.rb",
    ])
      expect(classifyPath(p), p).toBe("test");
    for (const p of ["Sources/Alamofire/Session.swift", "src/Latest/Manifest.cs", "src/Contest.java", "src/TestKit.kt", "attest/a.ts"]) expect(classifyPath(p), p).toBe("source");
    expect(classifyPath("Examples/Shared/Client.swift")).toBe("example");
    expect(classifyPath("ThirdParty/json/json.hpp")).toBe("vendored");
    expect(classifyPath("Generated/Messages.cs")).toBe("generated");
  });

  it("counts an example folder the project publishes as source", () => {
    const hints = { isPublishedExample: (p: string) => p.startsWith("examples/jsm/") };
    expect(classifyPath("examples/jsm/postprocessing/EffectComposer.js", hints)).toBe("source");
    expect(classifyPath("examples/webgl_animation.js", hints)).toBe("example");
    // Published or not, tests stay tests.
    expect(classifyPath("examples/jsm/tests/composer.test.js", hints)).toBe("test");
  });

  it("calls a file generated or vendored to an agent only when it is not the project's to edit", () => {
    expect(foreignOrigin("api/v1/types.pb.go")).toBe("generated");
    expect(foreignOrigin("deps/lua/lapi.c")).toBe("vendored");
    expect(foreignOrigin("client/typed/pods.go", { isMarkedGenerated: () => true })).toBe("generated");
    // Ranked as generated, but often kept by hand.
    for (const p of ["types/index.d.ts", "shop/migrations/0002_add_price.py"]) {
      expect(classifyPath(p), p).toBe("generated");
      expect(foreignOrigin(p), p).toBeNull();
    }
    for (const p of ["src/app.ts", "tests/test_app.py", "examples/basic.rs"]) expect(foreignOrigin(p), p).toBeNull();
  });

  it("counts a source file its generator marked as generated; the path's classes come first", () => {
    const asked: string[] = [];
    const hints = { isMarkedGenerated: (p: string) => (asked.push(p), true) };
    expect(classifyPath("pkg/client/typed/pod.go", hints)).toBe("generated");
    expect(classifyPath("pkg/client/pod_test.go", hints)).toBe("test");
    expect(classifyPath("vendor/k8s.io/api/types.go", hints)).toBe("vendored");
    expect(classifyPath("examples/main.go", hints)).toBe("example");
    // Only a file the path calls source is looked at.
    expect(asked).toEqual(["pkg/client/typed/pod.go"]);
    expect(classifyPath("pkg/client/typed/pod.go", { isMarkedGenerated: () => false })).toBe("source");
  });
});

describe("unit names", () => {
  it("names a chunk by its context, else its symbol, else its file", () => {
    expect(unitNames(chunk({ filePath: "src/retry.py", symbol: "sleep", context: "class Retry > method sleep(self)" }))).toBe("class Retry > method sleep(self)");
    expect(unitNames(chunk({ filePath: "src/retry.py", symbol: "sleep" }))).toBe("sleep");
    expect(unitNames(chunk({ filePath: "src/util/retry_after.py" }))).toBe("retry_after");
  });
});

describe("rankCandidates", () => {
  it("puts the definition a symbol query names above higher-scored references", () => {
    const ref = chunk({ filePath: "src/client.ts", kind: "method", symbol: "send", content: "const d = new HeaderDict(h)" });
    const def = chunk({ filePath: "src/headers.ts", kind: "class", symbol: "HeaderDict", content: "export class HeaderDict {}" });
    const input = [cand(ref, 0.9), cand(def, 0.6)];
    expect(order(rankCandidates("HeaderDict", input, { features: none }))).toEqual([ref.id, def.id]);
    expect(order(rankCandidates("HeaderDict", input, { features: only("symbolMatch"), weights: { symbolMatch: 0.5 } }))).toEqual([def.id, ref.id]);
    expect(order(rankCandidates("HeaderDict", input, { features: only("definitions") }))).toEqual([def.id, ref.id]);
  });

  it("lifts a named declaration less for a statement, which often names what its unit extends or returns", () => {
    const base = chunk({ filePath: "django/test/testcases.py", kind: "class", symbol: "LiveServerTestCase", content: "class LiveServerTestCase(TransactionTestCase):" });
    const sub = chunk({ filePath: "django/contrib/staticfiles/testing.py", kind: "class", symbol: "StaticLiveServerTestCase", content: "class StaticLiveServerTestCase(LiveServerTestCase):\n    static_handler = StaticFilesHandler" });
    const input = () => [cand(base, 0.5), cand(sub, 0.85)];
    const features = only("definitions");
    const description = "Extend django.test.LiveServerTestCase to overlay the assets provided by the staticfiles finders";
    // The description of the subclass names the class it extends: the subclass's own match decides.
    expect(order(rankCandidates(description, input(), { features }))).toEqual([sub.id, base.id]);
    // A question about the named class is about its declaration.
    expect(order(rankCandidates("how does LiveServerTestCase start its server thread", input(), { features }))).toEqual([base.id, sub.id]);
    // A statement whose subject is the name is about its declaration, as Go's doc comments are.
    expect(order(rankCandidates("LiveServerTestCase runs a live server in a thread for each test", input(), { features }))).toEqual([base.id, sub.id]);
    // The statement's lift is a weight of its own.
    expect(order(rankCandidates(description, input(), { features, weights: { statementDefinition: 0.5 } }))).toEqual([base.id, sub.id]);
  });

  it("prefers the symbol spelled as written over one differing in case or separators", () => {
    const decorator = chunk({ filePath: "src/click/decorators.py", kind: "function", symbol: "command", content: "def command(name=None):" });
    const klass = chunk({ filePath: "src/click/core.py", kind: "class", symbol: "Command", content: "class Command:" });
    const q = analyseQuery("Command");
    expect(exactSymbolMatch(q, klass)).toBe(1);
    expect(exactSymbolMatch(q, decorator)).toBe(0.5);
    expect(definesIdentifier(q, decorator)).toBe(0);
    const input = [cand(decorator, 0.6), cand(klass, 0.55)];
    expect(order(rankCandidates("Command", input, { features: only("symbolMatch"), weights: { symbolMatch: 0.5 } }))).toEqual([klass.id, decorator.id]);
    const hash = chunk({ filePath: "absl/hash/hash.h", kind: "struct", symbol: "Hash", context: "namespace absl > struct Hash" });
    expect(exactSymbolMatch(analyseQuery("absl::Hash"), hash)).toBe(1);
    expect(exactSymbolMatch(analyseQuery("AbslHash"), hash)).toBe(0.5);
    // Leading sigils are decoration, not spelling.
    expect(exactSymbolMatch(analyseQuery("ZodType"), chunk({ filePath: "core/schemas.ts", kind: "interface", symbol: "$ZodType" }))).toBe(1);
  });

  it("lifts chunks whose symbol spells out the question", () => {
    const other = chunk({ filePath: "b.go", symbol: "Format", content: "level string" });
    const target = chunk({ filePath: "a.go", symbol: "ParseLevel" });
    const input = [cand(other, 0.5), cand(target, 0.45)];
    expect(order(rankCandidates("parse a log level from a string", input, { features: only("symbolTerms") }))).toEqual([target.id, other.id]);
  });

  it("lifts chunks that contain every part of the question", () => {
    const oneWord = chunk({ filePath: "a.js", content: "const zlib = require('zlib'); zlib.inflate(x)" });
    const all = chunk({ filePath: "b.js", content: "class Limiter { /* run at most concurrency jobs */ add(job) {} } // zlib operations" });
    const input = [cand(oneWord, 0.5), cand(all, 0.45)];
    const q = "limit concurrent zlib operations";
    expect(order(rankCandidates(q, input, { features: none }))).toEqual([oneWord.id, all.id]);
    expect(order(rankCandidates(q, input, { features: only("termCoverage"), weights: { termCoverage: 0.5 } }))).toEqual([all.id, oneWord.id]);
  });

  it("lifts files whose name matches the question", () => {
    const other = chunk({ filePath: "src/pool.py" });
    const target = chunk({ filePath: "src/util/retry.py" });
    const input = [cand(other, 0.5), cand(target, 0.47)];
    expect(order(rankCandidates("retry backoff", input, { features: none }))).toEqual([other.id, target.id]);
    expect(order(rankCandidates("retry backoff", input, { features: only("pathMatch") }))).toEqual([target.id, other.id]);
  });

  it("lifts the file named after the question's concept, less the bigger it is against the index's mean file", () => {
    const central = chunk({ filePath: "src/Server.zig" });
    const named = chunk({ filePath: "src/configuration.zig" });
    const input = [cand(central, 0.6), cand(named, 0.5)];
    const q = "how is the configuration loaded and validated";
    const weights = { pathMatch: 0, fileName: 0.3 };
    expect(order(rankCandidates(q, input, { features: none }))).toEqual([central.id, named.id]);
    expect(order(rankCandidates(q, input, { features: only("pathMatch"), weights }))).toEqual([named.id, central.id]);
    // The same name on a file eight times the mean lifts a quarter as much: not enough here.
    const big = new Map([[named.filePath, 8]]);
    expect(order(rankCandidates(q, input, { features: only("pathMatch"), weights, fileSizes: big }))).toEqual([central.id, named.id]);
    // A symbol query has lifts of its own for names.
    expect(order(rankCandidates("Configuration", input, { features: only("pathMatch"), weights }))).toEqual([central.id, named.id]);
  });

  it("prefers declarations over prose at equal scores", () => {
    const prose = chunk({ filePath: "README.md", kind: "section" });
    const code = chunk({ filePath: "src/a.ts", kind: "function" });
    expect(order(rankCandidates("connect to the server", [cand(prose, 0.5), cand(code, 0.49)], { features: only("chunkKind") }))).toEqual([code.id, prose.id]);
  });

  it("demotes prose unless documentation is asked for", () => {
    const prose = chunk({ filePath: "docs/plugins.md", kind: "section" });
    const code = chunk({ filePath: "src/plugins.ts", kind: "lines" });
    const input = [cand(prose, 0.6), cand(code, 0.5)];
    expect(order(rankCandidates("how are plugins loaded", input, { features: only("chunkKind"), weights: { chunkKind: 0 } }))).toEqual([code.id, prose.id]);
    expect(order(rankCandidates("plugin loading docs", input, { features: only("chunkKind"), weights: { chunkKind: 0 } }))).toEqual([prose.id, code.id]);
  });

  it("ranks code over data that restates its names (a command's JSON descriptor, a cop's YAML entry)", () => {
    const descriptor = chunk({ filePath: "src/commands/setrange.json", language: "json", kind: "key", symbol: "SETRANGE", content: '"SETRANGE": { "summary": "Overwrites a part of a string value" }' });
    const code = chunk({ filePath: "src/t_string.c", language: "c", kind: "function", symbol: "setrangeCommand" });
    const input = [cand(descriptor, 0.6), cand(code, 0.55)];
    const kindOnly = { features: only("chunkKind"), weights: { chunkKind: 0 } };
    expect(order(rankCandidates("how SETRANGE overwrites part of a string", input, kindOnly))).toEqual([code.id, descriptor.id]);
    expect(order(rankCandidates("how SETRANGE overwrites part of a string", input, { ...kindOnly, weights: { chunkKind: 0, data: 1 } }))).toEqual([descriptor.id, code.id]);
  });

  it("demotes chunks of a few lines below the unit they belong to", () => {
    const brace = chunk({ filePath: "a.rb", kind: "class", symbol: "Application", startLine: 90, endLine: 91 });
    const body = chunk({ filePath: "b.rb", kind: "class", symbol: "Application", startLine: 1, endLine: 60 });
    const input = [cand(brace, 0.6), cand(body, 0.55)];
    expect(order(rankCandidates("Application", input, { features: none }))).toEqual([brace.id, body.id]);
    expect(order(rankCandidates("Application", input, { features: only("chunkKind"), weights: { chunkKind: 0 } }))).toEqual([body.id, brace.id]);
    // A short function is a whole unit, not a leftover.
    const getter = chunk({ filePath: "c.rb", kind: "method", symbol: "name", startLine: 5, endLine: 7 });
    const ranked = rankCandidates("name", [cand(getter, 0.6), cand(body, 0.55)], { features: only("chunkKind"), weights: { chunkKind: 0 } });
    expect(order(ranked)).toEqual([getter.id, body.id]);
  });

  it("aggregates evidence per file", () => {
    const a1 = chunk({ filePath: "a.ts", startLine: 1, endLine: 10 });
    const a2 = chunk({ filePath: "a.ts", startLine: 20, endLine: 30 });
    const b = chunk({ filePath: "b.ts" });
    const input = [cand(b, 0.5), cand(a1, 0.48), cand(a2, 0.45)];
    expect(order(rankCandidates("anything here", input, { features: only("fileAggregation"), weights: { fileAggregation: 0.2 } }))[0]).toBe(a1.id);
    expect(order(rankCandidates("anything here", input, { features: none }))[0]).toBe(b.id);
  });

  it("does not lift a unit's description by its file's summed evidence", () => {
    // A big file touching the description's words in many chunks, and the small function that does it.
    const big = [0.48, 0.47, 0.46, 0.45].map((s, i) => cand(chunk({ filePath: "geometry.py", startLine: i * 40 + 1, endLine: i * 40 + 30 }), s));
    const target = cand(chunk({ filePath: "coordseq.py" }), 0.49);
    const features = { ...only("fileAggregation"), termCoverage: true };
    const weights: Partial<RankWeights> = { fileAggregation: 0.2, termCoverage: 0, descriptionTermCoverage: 0 };
    const topFile = (q: string, w = weights) => rankCandidates(q, [...big, target], { features, weights: w })[0].record.filePath;
    const description = "Return the number of dimensions of this coordinate sequence: two or three";
    expect(topFile(description)).toBe("coordseq.py");
    // A question about the topic, or a short phrase, keeps the file's evidence.
    expect(topFile("how are the dimensions of coordinate sequences counted here")).toBe("geometry.py");
    expect(topFile("coordinate sequence dimensions")).toBe("geometry.py");
    // The length from which a statement describes one unit is a weight.
    expect(topFile(description, { ...weights, descriptionWords: 20 })).toBe("geometry.py");
  });

  it("weighs a description's words found in the chunk by their own weight", () => {
    const oneWord = chunk({ filePath: "a.py", content: "def size(self): return len(self._items)" });
    const all = chunk({ filePath: "b.py", content: "def hasz(self): # number of dimensions of the coordinate sequence\n    return self._dims == 3" });
    const input = [cand(oneWord, 0.5), cand(all, 0.45)];
    const description = "Return the number of dimensions of this coordinate sequence: two or three";
    const features = only("termCoverage");
    expect(order(rankCandidates(description, input, { features, weights: { termCoverage: 0.5, descriptionTermCoverage: 0 } }))).toEqual([oneWord.id, all.id]);
    expect(order(rankCandidates(description, input, { features, weights: { termCoverage: 0, descriptionTermCoverage: 0.5 } }))).toEqual([all.id, oneWord.id]);
  });

  it("compares a statement with its best candidates' names, by the cosines the caller hands back", () => {
    const sibling = chunk({ filePath: "retry.py", kind: "method", symbol: "sleep", context: "class Retry > method sleep(self, response=None)" });
    const target = chunk({ filePath: "retry.py", kind: "method", symbol: "parse_retry_after", context: "class Retry > method parse_retry_after(self, retry_after)" });
    const input = [cand(sibling, 0.5), cand(target, 0.45)];
    const statement = "turn the server's wait header into a number of seconds";
    const features = only("nameSimilarity");
    const ranking = startRanking(statement, input, { features });
    expect(ranking.toName.map((r) => r.id)).toEqual([sibling.id, target.id]);
    const cosines = new Map([[sibling.id, 0.3], [target.id, 0.6]]);
    expect(order(ranking.finish(cosines))).toEqual([target.id, sibling.id]);
    // Without the cosines (no model that is cheap to run), or with the feature off, no lift.
    expect(order(startRanking(statement, input, { features }).finish())).toEqual([sibling.id, target.id]);
    expect(order(rankCandidates(statement, input, { features }))).toEqual([sibling.id, target.id]);
    const off = startRanking(statement, input, { features: none });
    expect(off.toName).toEqual([]);
    expect(order(off.finish(cosines))).toEqual([sibling.id, target.id]);
    expect(startRanking(statement, input, { features, weights: { nameSimilarity: 0 } }).toName).toEqual([]);
    // A question asks about a topic, a symbol query has name lifts of its own: no names compared.
    expect(startRanking("how is the server's wait header turned into seconds?", input, { features }).toName).toEqual([]);
    expect(startRanking("parse_retry_after", input, { features }).toName).toEqual([]);
  });

  it("compares only the names of the candidates that can still reach the top", () => {
    const input = Array.from({ length: NAMED_CANDIDATES + 10 }, (_, i) => cand(chunk({ filePath: `f${i}.py`, symbol: `unit${i}` }), 0.9 - i * 0.01));
    const toName = startRanking("read the settings file into a dictionary", input, { features: only("nameSimilarity") }).toName;
    expect(toName).toHaveLength(NAMED_CANDIDATES);
    expect(toName.map((r) => r.id)).toEqual(input.slice(0, NAMED_CANDIDATES).map((c) => c.record.id));
  });

  it("keeps one file from filling the top of the list", () => {
    const a = [0.9, 0.85, 0.8, 0.78].map((s, i) => cand(chunk({ filePath: "big.ts", startLine: i * 50 + 1, endLine: i * 50 + 40 }), s));
    const b = cand(chunk({ filePath: "small.ts" }), 0.76);
    const ranked = rankCandidates("anything", [...a, b], { features: only("diversity") });
    expect(ranked.findIndex((r) => r.record.filePath === "small.ts")).toBeLessThan(4);
    expect(rankCandidates("anything", [...a, b], { features: none }).at(-1)!.record.filePath).toBe("small.ts");
  });

  it("demotes tests unless the query asks for them", () => {
    const test = chunk({ filePath: "src/pool.test.ts" });
    const src = chunk({ filePath: "src/pool.ts" });
    const input = [cand(test, 0.6), cand(src, 0.5)];
    expect(order(rankCandidates("connection pool", input, { features: only("demoteNonSource") }))).toEqual([src.id, test.id]);
    expect(order(rankCandidates("connection pool tests", input, { features: only("demoteNonSource") }))).toEqual([test.id, src.id]);
  });

  it("demotes examples, but not an example folder the project publishes", () => {
    const addOn = chunk({ filePath: "examples/jsm/postprocessing/EffectComposer.js", kind: "class", symbol: "EffectComposer" });
    const src = chunk({ filePath: "src/renderers/WebGLRenderer.js", kind: "class", symbol: "WebGLRenderer" });
    const input = [cand(addOn, 0.6), cand(src, 0.5)];
    const features = only("demoteNonSource");
    expect(order(rankCandidates("post-processing passes", input, { features }))).toEqual([src.id, addOn.id]);
    const isPublishedExample = (p: string) => p.startsWith("examples/jsm/");
    expect(order(rankCandidates("post-processing passes", input, { features, isPublishedExample }))).toEqual([addOn.id, src.id]);
  });

  it("demotes a Swift package's tests, unless the query names a test class", () => {
    const test = chunk({ filePath: "Tests/AppTests/SessionTests.swift", kind: "class", symbol: "SessionTests" });
    const src = chunk({ filePath: "Sources/App/Session.swift", kind: "class", symbol: "Session" });
    const input = [cand(test, 0.6), cand(src, 0.5)];
    expect(order(rankCandidates("session retries", input, { features: only("demoteNonSource") }))).toEqual([src.id, test.id]);
    expect(order(rankCandidates("SessionTests", input, { features: only("demoteNonSource") }))).toEqual([test.id, src.id]);
  });

  it("re-fuses keyword and vector scores normalised per query", () => {
    const keywordOnly = chunk({ filePath: "a.ts" });
    const both = chunk({ filePath: "b.ts" });
    const weak = chunk({ filePath: "c.ts" });
    const input: RankCandidate[] = [
      { record: keywordOnly, score: 0.5, keywordScore: 0.3, vectorScore: null, keywordRank: 0, vectorRank: null },
      { record: both, score: 0.45, keywordScore: 0.2, vectorScore: 0.55, keywordRank: 1, vectorRank: 0 },
      { record: weak, score: 0.3, keywordScore: null, vectorScore: 0.5, keywordRank: null, vectorRank: 1 },
    ];
    expect(order(rankCandidates("anything", input, { features: none }))).toEqual([keywordOnly.id, both.id, weak.id]);
    expect(order(rankCandidates("anything", input, { features: only("fusion") }))[0]).toBe(both.id);
  });

  it("in a large index, leans on the keywords: the vectors' share falls with each doubling past 2,000 chunks", () => {
    expect(vectorShareFor(RANK_WEIGHTS, undefined)).toBe(RANK_WEIGHTS.vectorShare);
    expect(vectorShareFor(RANK_WEIGHTS, 300)).toBe(0.5);
    expect(vectorShareFor(RANK_WEIGHTS, 2000)).toBe(0.5);
    expect(vectorShareFor(RANK_WEIGHTS, 2800)).toBeCloseTo(0.5 - 0.3 * Math.log2(1.4), 10);
    expect(vectorShareFor(RANK_WEIGHTS, 4000)).toBe(0.2);
    expect(vectorShareFor(RANK_WEIGHTS, 150_000)).toBe(0.2);
    // A share set below the floor stays where it was set.
    expect(vectorShareFor({ ...RANK_WEIGHTS, vectorShare: 0.1 }, 150_000)).toBe(0.1);

    // The keywords' first hit against the vectors' first hit, each second in the other list.
    const byKeywords = chunk({ filePath: "a.ts" });
    const byVectors = chunk({ filePath: "b.ts" });
    const other = chunk({ filePath: "c.ts" });
    const input: RankCandidate[] = [
      { record: byKeywords, score: 0.5, keywordScore: 0.9, vectorScore: 0.52, keywordRank: 0, vectorRank: 1 },
      { record: byVectors, score: 0.5, keywordScore: 0.6, vectorScore: 0.6, keywordRank: 1, vectorRank: 0 },
      { record: other, score: 0.3, keywordScore: 0.1, vectorScore: 0.4, keywordRank: 2, vectorRank: 2 },
    ];
    const first = (indexChunks: number) => order(rankCandidates("anything", input, { features: only("fusion"), indexChunks }))[0];
    expect(first(500)).toBe(byVectors.id);
    expect(first(20_000)).toBe(byKeywords.id);
  });

  it("keeps scores in [0,1], the best at the best fused score, sorted best first", () => {
    const input = [0.3, 0.2, 0.7, 0.1].map((s, i) => cand(chunk({ filePath: `f${i}.ts`, symbol: i === 1 ? "TargetThing" : "" }), s));
    const ranked = rankCandidates("TargetThing", input);
    expect(ranked[0].record.symbol).toBe("TargetThing");
    expect(ranked[0].score).toBeCloseTo(0.7, 10);
    for (let i = 1; i < ranked.length; i++) expect(ranked[i].score).toBeLessThanOrEqual(ranked[i - 1].score);
    for (const r of ranked) expect(r.score).toBeGreaterThanOrEqual(0);
    expect(rankCandidates("x", [])).toEqual([]);
  });
});
