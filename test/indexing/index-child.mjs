// Runs one index pass in its own process, through the built library, so a test can kill it
// with SIGKILL at any moment. Usage: node index-child.mjs <root> <overrides-json>
import { openEngine } from "../../dist/library.js";

const [root, overrides] = process.argv.slice(2);
const engine = await openEngine({ root, overrides: JSON.parse(overrides) });
const summary = await engine.index();
await engine.close();
process.stdout.write(JSON.stringify(summary) + "\n");
