#!/usr/bin/env node
// Bundles test/eval/preview-shows.ts (TypeScript, run from sources) and runs it; see that file.
import { bundleAndImport } from "./bundle-and-import.mjs";

await bundleAndImport("test/eval/preview-shows.ts", "preview-shows.mjs");
