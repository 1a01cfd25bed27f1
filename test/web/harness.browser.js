// A few lines of test harness for the page (playwright-test's "none" runner): named checks,
// TAP-like lines the Node runner counts, and an exit code.
const results = [];

export async function check(name, fn) {
  try {
    await fn();
    results.push(true);
    console.log(`ok ${name}`);
  } catch (err) {
    results.push(false);
    console.log(`not ok ${name}: ${err?.message ?? err}`);
  }
}

export function equal(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e.slice(0, 400)}, got ${a.slice(0, 400)}`);
}

export function assert(cond, what) {
  if (!cond) throw new Error(what);
}

export function finish() {
  process.exit(results.every(Boolean) ? 0 : 1);
}

/** Imported at run time from the server, not bundled by the test runner. */
export function importWeb() {
  const url = "/dist/web/opencode-rag-web.js";
  return import(url);
}

export const ASSETS = { grammars: "/dist/grammars/", models: "/models/", ort: "/node_modules/onnxruntime-web/dist/" };
