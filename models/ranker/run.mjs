#!/usr/bin/env node
// Bundles models/ranker/main.ts (TypeScript, run from sources) and runs it; see that file.
import { bundleAndImport } from "../../test/eval/bundle-and-import.mjs";

await bundleAndImport("models/ranker/main.ts", "ranker.mjs");
