// What a file holds, read from its path by the conventions of each ecosystem: tests, generated
// code, vendored copies, examples and benchmarks, or the project's own source. Ranking demotes
// all but source unless the query asks for them; the usage report marks uses in tests. The one
// place these conventions are written. Portable: no Node built-ins.

/**
 * Test folders in any case (`tests/`, `Tests/` of Swift packages, `__tests__/`, `__snapshots__/`, `testdata/`)
 * and test projects named after what they test (`Dapper.Tests/`, `AlamofireTests/`,
 * `Foo.UnitTests/`): capitalised `Tests` after the name, so `latest/` and `contests/` stay source.
 */
const TEST_FOLDER = /(^|\/)(tests?|__tests__|__mocks__|__fixtures__|__snapshots__|specs?|fixtures?|mocks?|testdata|testing|e2e)(\/|$)/i;
const TEST_PROJECT_FOLDER = /(^|\/)[\w.-]*[a-z0-9.](Tests?|Specs?)(\.[\w.-]+)?\//;
/**
 * Test files: `foo.test.ts`, `foo_spec.rb`, `foo_test.go`, `test_foo.py`, `conftest.py`, the
 * class-per-file languages' `FooTest.java`, `FooTests.swift`, `FooSpec.scala`, `FooSuite.scala`,
 * and snapshot files (Jest's `Button.test.tsx.snap`, insta's `.snap` and `.snap.new`) wherever
 * they sit.
 */
const TEST_FILE =
  /[._-](test|spec)s?\.[\p{L}\p{N}]+$|\.snap(\.new)?$|(^|\/)test_[^/]*\.py$|(^|\/)conftest\.py$|[a-z0-9](Tests?|Specs?|Suite)\.(java|kt|kts|groovy|scala|swift|m|mm|cs|fs|vb|php)$/u;
/**
 * Generated code by its generator's naming: `generated/` folders, `.pb.go`, `.g.cs`,
 * `_pb2.py`, minified files, Kubernetes' `zz_generated.deepcopy.go`.
 */
const GENERATED_PATH =
  /(^|\/)(generated|gen|__generated__)\/|\.(pb|generated|gen|g|designer)\.[a-z]+$|_pb2(_grpc)?\.py$|\.min\.[a-z]+$|(^|\/)zz_generated[._][^/]*$/i;
/**
 * Files a tool writes first and people often keep by hand after: `.d.ts` declarations, and
 * Django's numbered migrations (`makemigrations` writes `app/migrations/0001_initial.py`; they
 * restate the models' fields, and a project keeps hundreds). Ranked as generated code, but not
 * called generated to an agent (`foreignOrigin`): editing one may be the right change.
 */
const TOOL_STARTED_PATH = /\.d\.[cm]?ts$|(^|\/)migrations\/\d{4}_[^/]*\.py$/i;
/**
 * Other projects' code kept in the tree: Go's and Ruby's `vendor/`, `third_party/` and `3rdparty/`
 * (Chromium, OpenCV), `external/` and `externals/`, `deps/` (redis's jemalloc and Lua, Node's V8,
 * libgit2's zlib, Mix's fetched packages), package managers' folders (`node_modules/`,
 * `bower_components/`, `jspm_packages/`, CocoaPods' `Pods/`, Carthage's checkouts).
 */
const VENDORED_PATH = /(^|\/)(vendor|vendored|third[_-]?party|3rd[_-]?party|externals?|deps|node_modules|bower_components|jspm_packages)\//i;
/** In their own letters: Kubernetes keeps its code for pods in `pods/`. */
const VENDORED_PATH_CASED = /(^|\/)(Pods|Carthage\/Checkouts)\//;
/**
 * Examples, demos, benchmarks, and the manual's folder (`man/`: its pages, and the sample
 * configuration a manual ships, such as xmonad's `man/xmonad.hs`).
 */
const EXAMPLE_PATH = /(^|\/)(examples?|samples?|demos?|bench|benches|benchmarks?|man)\/|[._-](bench|benchmarks?)(_test)?\.[\p{L}\p{N}]+$/iu;

export type PathClass = "test" | "generated" | "vendored" | "example" | "source";

/** True for paths that by convention hold examples, demos or benchmarks (a folder: give it with its trailing `/`). */
export function isExamplePath(filePath: string): boolean {
  return EXAMPLE_PATH.test(filePath);
}

/** True for paths that by convention hold tests or their fixtures. */
export function isTestPath(filePath: string): boolean {
  return TEST_FOLDER.test(filePath) || TEST_PROJECT_FOLDER.test(filePath) || TEST_FILE.test(filePath);
}

/** What a path alone does not tell, looked up where the files are (the engine does); none: the path decides. */
export interface PathHints {
  /** Whether an example folder is one the project publishes as importable code (core/files/published-paths.ts): then source. */
  isPublishedExample?: (filePath: string) => boolean;
  /** Whether a file's first lines say a tool generated it (core/files/generated-files.ts): then generated. */
  isMarkedGenerated?: (filePath: string) => boolean;
}

/**
 * The first class that applies, in order: vendored, generated, test, example, else source. An
 * example folder that the project itself publishes as importable code (`isPublishedExample`: a
 * package's `exports` pointing into it, core/files/package-exports.ts) is source; a source file
 * marked as generated in its first lines (`isMarkedGenerated`) is generated. The path's classes
 * come first: a marked file in a test folder stays a test.
 */
export function classifyPath(filePath: string, hints: PathHints = {}): PathClass {
  if (VENDORED_PATH.test(filePath) || VENDORED_PATH_CASED.test(filePath)) return "vendored";
  if (GENERATED_PATH.test(filePath) || TOOL_STARTED_PATH.test(filePath)) return "generated";
  if (isTestPath(filePath)) return "test";
  if (EXAMPLE_PATH.test(filePath) && !hints.isPublishedExample?.(filePath)) return "example";
  return hints.isMarkedGenerated?.(filePath) ? "generated" : "source";
}

/**
 * `generated` or `vendored` for a file that is not the project's own code to edit
 * (`SearchResult.origin`), else null: not for declarations and migrations a tool only started.
 */
export function foreignOrigin(filePath: string, hints: PathHints = {}): "generated" | "vendored" | null {
  const pathClass = classifyPath(filePath, hints);
  if (pathClass === "vendored") return pathClass;
  return pathClass === "generated" && !TOOL_STARTED_PATH.test(filePath) ? pathClass : null;
}
