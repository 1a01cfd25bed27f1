#!/usr/bin/env node
// Runs `opencode-rag eval` from source (bundled on the fly with esbuild), for working on the
// ranking stack without rebuilding the whole CLI. Same arguments as `opencode-rag eval`.
import { bundleAndImport } from "./bundle-and-import.mjs";

const { evalCommand } = await bundleAndImport("cli/commands/eval.ts", "eval-cli.mjs");
process.exitCode = await evalCommand(process.argv.slice(2));
