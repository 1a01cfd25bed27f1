// The docstring set maker on Java, C#, C and C++ trees: the first sentence of a declaration's doc
// comment becomes the query, the declaration the answer, and the comment is blanked in the copy.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the eval kit, without types
import { buildDocstringSet } from "./docstring-queries.mjs";

interface MadeQuery {
  query: string;
  symbol: string;
  relevant: Array<{ filePath: string; startLine: number; endLine: number }>;
}

const JAVA = `package demo;

/**
 * Reads tokens from a character stream, one {@code JsonToken} at a time.
 *
 * @author someone
 */
public final class TokenReader {
  /**
   * Skips every character up to the next line break in the input.
   * @param in the input
   */
  @Override
  public void skipToEndOfLine(Reader in) {
    while (in.read() != '\\n') {}
  }

  /** Returns the number of characters consumed since the stream was opened. */
  abstract long consumedCount();
}
`;

const CSHARP = `namespace Demo
{
    /// <summary>
    /// Caches parsed command plans keyed by their SQL text and parameter types.
    /// </summary>
    /// <typeparam name="T">The plan type.</typeparam>
    internal sealed class PlanCache<T>
    {
        /// <summary>
        /// Removes every plan older than the given age from the cache.
        /// </summary>
        /// <param name="age">The age.</param>
        [Obsolete("use Trim")]
        public int PurgeOlderThan(TimeSpan age)
        {
            return 0;
        }
    }
}
`;

const C = `#include "zset.h"

/* Create a skiplist node with the specified number of levels.
 * The SDS string 'ele' is referenced by the node after the call. */
zskiplistNode *zslCreateNode(int level, double score, sds ele) {
    zskiplistNode *zn = zmalloc(sizeof(*zn));
    return zn;
}

/* Picks a random level for the new skiplist node we are going to create. */
int
zslRandomLevel(void) {
    int level = 1;
    return level;
}

#define ZSKIPLIST_MAXLEVEL 32 /* Should be enough for 2^64 elements */

/* Free a whole skiplist, its nodes and their strings. */
void zslFree(zskiplist *zsl,
             int keepHeader);
`;

const CPP = `namespace fmt {

/// A view of a string that does not own the characters it refers to.
template <typename Char> class basic_string_view {
 public:
  constexpr basic_string_view(const Char* s, size_t count) noexcept
      : data_(s), size_(count) {}

  // The number of characters in the view, not counting any terminator.
  constexpr size_t size() const noexcept {
    return size_;
  }

 private:
  const Char* data_;
  size_t size_;
};

}  // namespace fmt
`;

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The set made from one file, its queries by symbol; the stripped copy keeps every line where it was. */
function makeSet(file: string, text: string, language: string): { bySymbol: Record<string, MadeQuery>; stripped: string } {
  dir = mkdtempSync(join(tmpdir(), "rag-docstring-set-"));
  const repo = join(dir, "repo");
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "src", file), text);
  const queries = buildDocstringSet({ repo, out: join(dir, "out"), language, repoName: "demo" }) as MadeQuery[];
  const stripped = readFileSync(join(dir, "out", "corpus", "src", file), "utf8");
  expect(stripped.split("\n").length).toBe(text.split("\n").length);
  return { bySymbol: Object.fromEntries(queries.map((q) => [q.symbol, q])), stripped };
}

/** The set's queries are exactly these, by the symbol each answers. */
function expectQueries(bySymbol: Record<string, MadeQuery>, queries: Record<string, string>): void {
  expect(Object.keys(bySymbol).sort()).toEqual(Object.keys(queries).sort());
  for (const [symbol, query] of Object.entries(queries)) expect(bySymbol[symbol].query, symbol).toBe(query);
}

describe("docstring sets from Java and C#", () => {
  it("reads Javadoc above a class and an annotated method; an abstract method has no body to find", () => {
    const { bySymbol, stripped } = makeSet("TokenReader.java", JAVA, "java");
    expectQueries(bySymbol, {
      TokenReader: "Reads tokens from a character stream, one JsonToken at a time",
      skipToEndOfLine: "Skips every character up to the next line break in the input",
    });
    // The answer starts below the comment (the annotation included) and ends at the closing brace.
    expect(bySymbol.skipToEndOfLine.relevant[0]).toEqual({ filePath: "src/TokenReader.java", startLine: 13, endLine: 16 });
    expect(bySymbol.TokenReader.relevant[0]).toMatchObject({ startLine: 8, endLine: 20 });
    expect(stripped).not.toContain("Skips every character");
    expect(stripped).toContain("Returns the number of characters consumed");
  });

  it("reads the summary of C# XML doc comments, above attributes too", () => {
    const { bySymbol, stripped } = makeSet("PlanCache.cs", CSHARP, "csharp");
    expectQueries(bySymbol, {
      PlanCache: "Caches parsed command plans keyed by their SQL text and parameter types",
      PurgeOlderThan: "Removes every plan older than the given age from the cache",
    });
    expect(bySymbol.PurgeOlderThan.relevant[0]).toEqual({ filePath: "src/PlanCache.cs", startLine: 13, endLine: 17 });
    expect(stripped).not.toContain("<summary>");
  });
});

describe("docstring sets from C and C++", () => {
  it("reads C's block comments above a definition, its return type on a line of its own too; a prototype has no body", () => {
    const { bySymbol, stripped } = makeSet("t_zset.c", C, "c");
    expectQueries(bySymbol, {
      zslCreateNode: "Create a skiplist node with the specified number of levels",
      zslRandomLevel: "Picks a random level for the new skiplist node we are going to create",
    });
    expect(bySymbol.zslRandomLevel.relevant[0]).toEqual({ filePath: "src/t_zset.c", startLine: 11, endLine: 15 });
    expect(stripped).not.toContain("Create a skiplist node");
    expect(stripped).toContain("Should be enough for 2^64 elements");
  });

  it("reads C++'s line comments above a class template and a method", () => {
    const { bySymbol } = makeSet("string_view.h", CPP, "cpp");
    expectQueries(bySymbol, {
      basic_string_view: "A view of a string that does not own the characters it refers to",
      size: "The number of characters in the view, not counting any terminator",
    });
    expect(bySymbol.basic_string_view.relevant[0]).toMatchObject({ startLine: 4, endLine: 17 });
    expect(bySymbol.size.relevant[0]).toMatchObject({ startLine: 10, endLine: 12 });
  });
});
