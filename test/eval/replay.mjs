#!/usr/bin/env node
// Bundles test/eval/replay.ts (TypeScript, run from sources) and runs it; see that file.
import { bundleAndImport } from "./bundle-and-import.mjs";

await bundleAndImport("test/eval/replay.ts", "replay.mjs");
