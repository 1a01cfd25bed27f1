// What the C and C++ grammars are given: macros they cannot expand blanked, everything else as written.
import { describe, expect, it } from "vitest";
import { withoutMacroNoise } from "../../core/chunking/languages/c-macros.js";

/** The words left on each line after blanking. */
const read = (text: string): string[] => withoutMacroNoise(text).split("\n").map((line) => line.trim().replace(/\s+/g, " "));

describe("withoutMacroNoise", () => {
  it("keeps every offset: same length, same line breaks", () => {
    const text = "FMT_BEGIN_NAMESPACE\nLUA_API int lua_gettop (lua_State *L);\nFMT_END_NAMESPACE\n";
    const out = withoutMacroNoise(text);
    expect(out.length).toBe(text.length);
    expect(out.split("\n").length).toBe(text.split("\n").length);
  });

  it("blanks frame macros, specifier macros and export macros", () => {
    expect(read("FMT_BEGIN_NAMESPACE")).toEqual([""]);
    expect(read("FMT_PRAGMA_CLANG(diagnostic push)")).toEqual([""]);
    expect(read("LUA_API int lua_gettop (lua_State *L);")).toEqual(["int lua_gettop (lua_State *L);"]);
    expect(read("JEMALLOC_ALWAYS_INLINE void\narena_choose(tsd_t *tsd) {")).toEqual(["void", "arena_choose(tsd_t *tsd) {"]);
    expect(read("static FMT_INLINE auto size() -> int;")).toEqual(["static auto size() -> int;"]);
    expect(read("  FMT_CONSTEXPR20 basic_memory_buffer(basic_memory_buffer&& other) noexcept")).toEqual(["basic_memory_buffer(basic_memory_buffer&& other) noexcept"]);
    expect(read("REDISMODULE_API void (*RedisModule_Free)(void *ptr) REDISMODULE_ATTR;")).toEqual(["void (*RedisModule_Free)(void *ptr) ;"]);
    expect(read('class FMT_SO_VISIBILITY("default") format_error : public std::runtime_error {')).toEqual(["class format_error : public std::runtime_error {"]);
    expect(read("template <typename T, FMT_ENABLE_IF(!is_signed<T>::value)>")).toEqual(["template <typename T >"]);
    expect(read('#ifdef __cplusplus\nextern "C" {\n#endif')).toEqual(["#ifdef __cplusplus", "", "#endif"]);
    expect(read("#include <features.h>\n\n__BEGIN_DECLS")).toEqual(["#include <features.h>", "", ""]);
    expect(read('  V8_DEPRECATE_SOON(\n      "Use MemoryPressureNotification().")\n  bool IdleNotificationDeadline(double s);')).toEqual([
      "",
      "",
      "bool IdleNotificationDeadline(double s);",
    ]);
  });

  it("reads Windows line endings alike", () => {
    const text = 'FMT_BEGIN_NAMESPACE\r\nLUA_API int lua_gettop (lua_State *L);\r\n#define X(a) \\\r\n  FOO_BAR(a)\r\n';
    expect(read(text.replace(/\r/g, ""))).toEqual(["", "int lua_gettop (lua_State *L);", "#define X(a) \\", "FOO_BAR(a)", ""]);
    expect(read(text)).toEqual(["", "int lua_gettop (lua_State *L);", "#define X(a) \\", "FOO_BAR(a)", ""]);
  });

  it("leaves upper-case names that are types, values or directives", () => {
    for (const line of [
      "BOOL DllMain(HINSTANCE h, DWORD reason, LPVOID reserved) {",
      "UINT count = 0;",
      "FILE *log_file;",
      "*h++ = (char)LUAC_VERSION;",
      "obj = (void *)REDIS_REPLY_NIL;",
      "#define FMT_API __attribute__((visibility(\"default\")))",
      "JEMALLOC_TSD_TYPE_ATTR(tsd_t) tsd_tls = TSD_INITIALIZER;",
      "    CK_ATTRIBUTE_PTR pTemplate, /* the object's template */",
    ]) {
      expect(read(line)).toEqual([line.trim().replace(/\s+/g, " ")]);
    }
    // A lone name closing an initializer is a value.
    expect(read("tsd_wrapper_t boot = {\n\tfalse,\n\tTSD_INITIALIZER\n};")).toEqual(["tsd_wrapper_t boot = {", "false,", "TSD_INITIALIZER", "};"]);
    // A lone macro above a declarator is that declaration's type; one naming what follows it stays too.
    expect(read("NSPR_API(PRStatus)\nPR_Lock(PRLock *lock);")).toEqual(["NSPR_API(PRStatus)", "PR_Lock(PRLock *lock);"]);
    expect(read("BOOL\nDllMain(HINSTANCE h)")).toEqual(["BOOL", "DllMain(HINSTANCE h)"]);
    expect(read("CK_PKCS11_FUNCTION_INFO(C_Login)\n#ifdef CK_NEED_ARG_LIST")).toEqual(["CK_PKCS11_FUNCTION_INFO(C_Login)", "#ifdef CK_NEED_ARG_LIST"]);
    // A macro's body is the macro's text.
    expect(read("#define EXPECT_ASSERT(stmt) \\\n  FMT_TEST_THROW_(stmt, GTEST_NONFATAL_FAILURE_)")).toEqual(["#define EXPECT_ASSERT(stmt) \\", "FMT_TEST_THROW_(stmt, GTEST_NONFATAL_FAILURE_)"]);
  });
});
