#!/usr/bin/env node
// Bundles test/eval/docstring-baseline.ts (TypeScript, run from sources) and runs it; see that file.
import { bundleAndImport } from "./bundle-and-import.mjs";

await bundleAndImport("test/eval/docstring-baseline.ts", "docstring-baseline.mjs");
