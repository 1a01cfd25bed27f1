// transformers.js (and the onnxruntime-node it brings) is an optional install: the bundled
// model runs without it (static-table.ts), so a default install carries no inference runtime.
// Models that need it (Hugging Face ids, other ONNX folders) load it here, and its absence is
// one line saying how to install it.

/** The command that installs the runtime (the version the tests run, package.json's devDependencies). */
export const TRANSFORMERS_INSTALL = "npm install @huggingface/transformers@^4.3.2";

/**
 * The versions it runs on, package.json's optional peer range `>=3.0.2 <5`: 4 is what the test
 * suite runs, 3.0.2 what LanceDB's optional dependency puts in every tree (the packed-install
 * test runs that one).
 */
export const TRANSFORMERS_RANGE = { min: [3, 0, 2], belowMajor: 5 } as const;

/** Whether a transformers.js version lies in TRANSFORMERS_RANGE (an unusual version string may try). */
export function transformersVersionSupported(version: string): boolean {
  const [major, minor, patch] = version.split(/[.+-]/).map(Number);
  if ([major, minor, patch].some(Number.isNaN)) return true;
  const [m0, m1, m2] = TRANSFORMERS_RANGE.min;
  const atLeastMin = major !== m0 ? major > m0 : minor !== m1 ? minor > m1 : patch >= m2;
  return atLeastMin && major < TRANSFORMERS_RANGE.belowMajor;
}

/** The peer range as package.json writes it. */
export const TRANSFORMERS_PEER_RANGE = `>=${TRANSFORMERS_RANGE.min.join(".")} <${TRANSFORMERS_RANGE.belowMajor}`;

/** transformers.js is not installed where opencode-rag runs. */
export class MissingTransformersError extends Error {}

type Transformers = typeof import("@huggingface/transformers");

export async function importTransformers(): Promise<Transformers> {
  let transformers: Transformers;
  try {
    transformers = await import("@huggingface/transformers");
  } catch (e) {
    const err = e as { code?: string; message?: string };
    const notFound = err.code === "ERR_MODULE_NOT_FOUND" || err.code === "MODULE_NOT_FOUND" || /Cannot find (module|package)/.test(err.message ?? "");
    if (notFound && (err.message ?? "").includes("@huggingface/transformers")) {
      throw new MissingTransformersError(`it runs on transformers.js, which is not installed: run \`${TRANSFORMERS_INSTALL}\` where opencode-rag is installed (the bundled model needs nothing)`);
    }
    throw e;
  }
  const version = String(transformers.env?.version ?? "");
  if (version && !transformersVersionSupported(version)) {
    throw new MissingTransformersError(`it runs on transformers.js ${TRANSFORMERS_PEER_RANGE}, and the one installed is ${version}: run \`${TRANSFORMERS_INSTALL}\` where opencode-rag is installed`);
  }
  return transformers;
}
