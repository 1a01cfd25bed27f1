// transformers.js (and the onnxruntime-node it brings) is an optional install: the bundled
// model runs without it (static-table.ts), so a default install carries no inference runtime.
// Models that need it (Hugging Face ids, other ONNX folders) load it here, and its absence is
// one line saying how to install it.

/** The command that installs the runtime (the version the tests run, package.json's devDependencies). */
export const TRANSFORMERS_INSTALL = "npm install @huggingface/transformers@^4.3.2";
const MAJOR = 4;

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
  // LanceDB's optional dependency on an old transformers.js can put one where this import finds it
  const version = String(transformers.env?.version ?? "");
  if (version && Number(version.split(".")[0]) < MAJOR) {
    throw new MissingTransformersError(`it runs on transformers.js ${MAJOR}, and the one installed is ${version} (another package's): run \`${TRANSFORMERS_INSTALL}\` where opencode-rag is installed`);
  }
  return transformers;
}
