#!/usr/bin/env node
// Bundles test/eval/semble-dev.ts (TypeScript, run from sources) and runs it; see that file.
import { bundleAndImport } from "./bundle-and-import.mjs";

await bundleAndImport("test/eval/semble-dev.ts", "semble-dev.mjs");
