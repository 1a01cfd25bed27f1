// Installing opencode-rag into a project must work where only the npm registry is reachable.
// onnxruntime-node's postinstall downloads its CUDA provider from NuGet on Linux x64 unless told
// not to (this repository's .npmrc tells it; a project that installs the package does not read
// that file). opencode-rag runs the model on the CPU, so this script, which npm runs before any
// dependency's postinstall, drops the CUDA requirement from the installer's metadata of the
// onnxruntime-node copies beside this package. An install mode asked for explicitly
// (ONNXRUNTIME_NODE_INSTALL*, npm config onnxruntime-node-install*) still wins: the check runs
// inside onnxruntime-node's own installer. Never fails the install.
"use strict";
const fs = require("fs");
const path = require("path");

const MARK = "/* opencode-rag: CPU only unless an install mode is asked for */";
const PATCH = `
${MARK}
if (
  !["ONNXRUNTIME_NODE_INSTALL", "ONNXRUNTIME_NODE_INSTALL_CUDA", "npm_config_onnxruntime_node_install", "npm_config_onnxruntime_node_install_cuda"].some((k) => process.env[k]) &&
  !process.argv.some((a) => a.startsWith("--onnxruntime-node-install"))
) {
  for (const p of Object.keys(module.exports.requirements)) module.exports.requirements[p] = module.exports.requirements[p].filter((m) => !/^cuda/.test(m));
}
`;

/** The copies this package resolves: in its own node_modules and the ones above it, up to the project's. */
function copies(self, stop) {
  const found = [];
  for (let dir = self; ; dir = path.dirname(dir)) {
    for (const rel of [["onnxruntime-node"], ["@huggingface", "transformers", "node_modules", "onnxruntime-node"]]) {
      const candidate = path.join(dir, "node_modules", ...rel, "script", "install-metadata.js");
      if (fs.existsSync(candidate)) found.push(candidate);
    }
    const insideNodeModules = dir.split(path.sep).includes("node_modules");
    if (dir === stop || !insideNodeModules || path.dirname(dir) === dir) return found;
  }
}

try {
  const self = path.resolve(__dirname, "..");
  const prefix = process.env.npm_config_local_prefix ? path.resolve(process.env.npm_config_local_prefix) : null;
  // Installing this repository itself: its .npmrc already applies.
  if (prefix !== self) {
    for (const file of copies(self, prefix)) {
      const text = fs.readFileSync(file, "utf8");
      if (!text.includes(MARK) && text.includes("module.exports")) fs.writeFileSync(file, text + PATCH);
    }
  }
} catch (err) {
  process.stderr.write(`opencode-rag: could not mark onnxruntime-node CPU-only (${err && err.message}); its installer runs unchanged\n`);
}
