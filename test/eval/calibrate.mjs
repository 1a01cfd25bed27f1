#!/usr/bin/env node
// Bundles test/eval/calibrate.ts (TypeScript) and runs it; see that file.
import { bundleAndImport } from "./bundle-and-import.mjs";

await bundleAndImport("test/eval/calibrate.ts", "calibrate.mjs");
