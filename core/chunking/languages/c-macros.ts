// C and C++ as the grammar can read them: macros it cannot expand are blanked for the parse.
// Libraries wrap their declarations in upper-case macros (`FMT_BEGIN_NAMESPACE`, `LUA_API int
// f(…)`, `JEMALLOC_ALWAYS_INLINE void`, `…) REDISMODULE_ATTR;`); the grammar reads such a word as
// a type or a statement, and one misread line turns the rest of a header into errors, with
// methods filed under a "function FMT_BEGIN_EXPORT". Blanking keeps every offset, so chunks
// still hold the text as written.

/** An upper-case macro name: three or more characters, digits and underscores allowed. */
const MACRO = "[A-Z_][A-Z0-9_]{2,}";

/** A macro's arguments: parentheses nested one level deep, on one line (Objective-C's reader uses it too). */
export const ARGUMENTS = "\\((?:[^()\\n]|\\([^()\\n]*\\))*\\)";
/** The same over a few lines (`V8_DEPRECATE_SOON(` with its message below). */
const ARGUMENTS_OVER_LINES = "\\((?:[^()]|\\([^()]*\\)){0,600}\\)";

/**
 * Each rule matches `(kept)(blanked)`; `when` further tests the blanked text. Rules apply in
 * order, each to the text the previous ones left.
 */
interface Rule {
  pattern: RegExp;
  when?: (blanked: string, text: string, at: number) => boolean;
}

/**
 * Words by which a macro's name says it is a specifier or an attribute (`FMT_CONSTEXPR20`,
 * `JEMALLOC_ALWAYS_INLINE`, `Q_CORE_EXPORT`, `REDISMODULE_ATTR`, `GTEST_API_`): wherever such a
 * macro sits in a declaration (before a constructor's name too), it expands to a specifier or
 * to nothing.
 */
const SPECIFIER_WORDS = new Set([
  "API", "ATTR", "CDECL", "CONSTEVAL", "CONSTEXPR", "DECL", "DEPRECATE", "DEPRECATED", "EXPORT", "EXPORTS",
  "FASTCALL", "FORCEINLINE", "INLINE", "NOEXCEPT", "NODISCARD", "NOINLINE", "NORETURN", "NOTHROW", "OVERRIDE", "STDCALL",
  "UNUSED", "VISIBILITY", "WINAPI",
]);

function saysSpecifier(macro: string): boolean {
  const name = /^\w+/.exec(macro)?.[0] ?? "";
  return name.split("_").some((word) => SPECIFIER_WORDS.has(word.replace(/\d+$/, "")));
}

/**
 * Whether the line before `at` (the last that is not blank) leaves an expression open (`= {`,
 * `a,`, `x +`): a lone upper-case name on the next line is then a value (`TSD_INITIALIZER`
 * closing an initializer). A directive (`#include <features.h>`) or a comment closes nothing.
 */
function continuesExpression(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 400), at).trimEnd();
  const line = before.slice(before.lastIndexOf("\n") + 1).trim();
  if (line.startsWith("#") || line.endsWith("*/") || line.startsWith("//")) return false;
  const code = line.replace(/\/\/.*$/, "").trimEnd();
  return code.length > 0 && ",=([+-*/%|&^?:<>!".includes(code[code.length - 1]);
}

/** What a declaration may open with after its macros: a keyword of one, or a type followed by a name. */
const DECLARATION_START =
  "(?:(?:void|bool|char|short|int|long|float|double|signed|unsigned|auto|const|volatile|static|inline|extern|constexpr|consteval|virtual|explicit|friend|template|typename|struct|union|enum|class)\\b" +
  "|[A-Za-z_][\\w:]*(?:<[^<>;{}()]*>)?[ \\t\\r\\n*&]+[A-Za-z_(*&])";

/** A declarator's name and its parameters' opening: `basic_memory_buffer(`, `~ring(`, `*PR_Lock(`. */
const DECLARATOR = "\\*?~?[A-Za-z_][\\w:]*[ \\t]*\\(";

/**
 * The next line that is not blank after the one holding `at`: a lone macro line followed by a
 * declarator (`NSPR_API(void)` then `PR_Lock(PRLock *lock);`, GNU style's `BOOL` above
 * `DllMain(…)`) is that declaration's type, and one followed by a parameter list or a directive
 * (`CK_PKCS11_FUNCTION_INFO(C_Login)` then `#ifdef CK_NEED_ARG_LIST`) names what follows.
 */
function nextLine(text: string, at: number): string {
  const end = text.indexOf("\n", at);
  const rest = /\S[^\n]*/.exec(end < 0 ? "" : text.slice(end, end + 400));
  return rest ? rest[0] : "";
}

/** A line opening with a declarator; an upper-case name is another macro (`FMT_PRAGMA_CLANG(…)`), not a function. */
const DECLARATOR_LINE = new RegExp(`^(?!${MACRO}[ \\t]*\\()${DECLARATOR}`);

const RULES: Rule[] = [
  // `extern "C" {` and its `}` each inside an `#ifdef __cplusplus` of their own: the grammar
  // sees a block that never closes. What they wrap parses as plain declarations.
  { pattern: /(#ifdef[ \t\r]+__cplusplus[ \t\r]*\n)([ \t\r]*(?:extern[ \t\r]+"C"[ \t\r]*\{|\})[ \t\r]*(?:\/\/[^\n]*)?)(?=\n[ \t\r]*#endif)/g },
  // A specifier macro by its name, before a declaration, a declarator (a constructor's name)
  // or the line's end; with arguments, only before a type and a name
  // (`JEMALLOC_TSD_TYPE_ATTR(tsd_t) tsd_tls` holds the type itself).
  { pattern: new RegExp(`()\\b(${MACRO})(?=[ \\t\\r]+(?:${DECLARATION_START}|${DECLARATOR})|[ \\t\\r]*$)`, "gm"), when: saysSpecifier },
  { pattern: new RegExp(`()\\b(${MACRO}${ARGUMENTS})(?=[ \\t\\r\\n]+${DECLARATION_START})`, "gm"), when: saysSpecifier },
  // The same after a declarator, before its `;` or body: `…) REDISMODULE_ATTR;`, `…) const FMT_NOEXCEPT {`
  // (not a cast's `(char)LUAC_VERSION;`, whose name says nothing of the kind).
  { pattern: new RegExp(`(\\)[ \\t\\r]*(?:const[ \\t\\r]+)?)(${MACRO})(?=[ \\t\\r]*[;{])`, "g"), when: saysSpecifier },
  // A line that is only a macro, with or without arguments and no `;` (`FMT_END_NAMESPACE`,
  // `Q_OBJECT`, `FMT_PRAGMA_CLANG(diagnostic push)`): a declaration's frame, a pragma or nothing,
  // unless it is a value in an open expression or part of the declaration below (`nextLine`).
  {
    pattern: new RegExp(`^()([ \\t\\r]*${MACRO}(?:${ARGUMENTS_OVER_LINES})?[ \\t\\r]*)$`, "gm"),
    when: (cut, text, at) => {
      if (continuesExpression(text, at)) return false;
      const next = nextLine(text, at);
      return !DECLARATOR_LINE.test(next) && !(cut.includes("(") && /^[(#]/.test(next));
    },
  },
  // Macros opening a declaration, alone or after its specifiers: `LUA_API int`, `static
  // JEMALLOC_NORETURN void`, `FMT_EXPORT template <…>`. A macro followed by the name being
  // declared (`BOOL DllMain(`, `UINT count = 0`) is the type itself and stays.
  {
    pattern: new RegExp(
      `^([ \\t\\r]*(?:(?:static|inline|extern|constexpr|virtual|explicit|friend|template)[ \\t\\r]+)*)((?:${MACRO}[ \\t\\r]+|${MACRO}\\r?\\n)+)(?=${DECLARATION_START})`,
      "gm",
    ),
  },
  // An export macro between `class` and the name: `class FMT_API format_error : public …`.
  { pattern: new RegExp(`\\b((?:class|struct|union)[ \\t\\r]+)(${MACRO}(?:${ARGUMENTS})?)(?=[ \\t\\r]+[A-Za-z_]\\w*[ \\t\\r]*(?:[:{]|final\\b|$))`, "gm") },
  // A constraint macro closing a template's parameters: `template <typename T, FMT_ENABLE_IF(…)>`.
  { pattern: new RegExp(`()(,[ \\t\\r\\n]*${MACRO}${ARGUMENTS})(?=[ \\t\\r\\n]*>(?!=))`, "g") },
];

/**
 * The spans of preprocessor directives, a `#` line with its `\\` continuations, as sorted
 * [start, end) offsets: `#define FMT_API …` keeps its name, a macro's body its text.
 */
function directiveSpans(content: string): number[] {
  const spans: number[] = [];
  const directive = /^[ \t\r]*#(?:[^\n]*\\\r?\n)*[^\n]*/gm;
  for (let m = directive.exec(content); m; m = directive.exec(content)) spans.push(m.index, m.index + m[0].length);
  return spans;
}

/** Whether `at` lies in one of `spans` (binary search over the flat start/end list). */
function inSpans(spans: number[], at: number): boolean {
  let lo = 0;
  let hi = spans.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[2 * mid + 1] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo < spans.length / 2 && spans[2 * lo] <= at;
}

const blank = (text: string): string => text.replace(/[^\n]/g, " ");

/** `content` with the macros above blanked (same length, same line breaks). */
export function withoutMacroNoise(content: string): string {
  // Blanking keeps offsets and never touches a directive, so the spans hold for every rule.
  const directives = directiveSpans(content);
  let text = content;
  for (const rule of RULES) {
    text = text.replace(rule.pattern, (match: string, kept: string, cut: string, offset: number, whole: string) => {
      if (rule.when && !rule.when(cut, whole, offset + kept.length)) return match;
      if (inSpans(directives, offset + kept.length)) return match;
      return kept + blank(cut);
    });
  }
  return text;
}
