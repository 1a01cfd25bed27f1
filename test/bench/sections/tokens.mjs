// Token discipline (F36, F28): a scripted 20-turn session through the real server plugin
// (dist/plugin.js) on a small indexed workspace with stored quirks. Structural, not timed:
// counts what the plugin adds to what a model would be sent — system-prompt changes, memory
// blocks, injected tokens — against what a naive design (memory re-sent in the system prompt
// on every turn) would cost. The "floor" column holds that naive design's number.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";

const QUIRKS = [
  ["Cart totals are in integer cents; never store prices as floats", "decision", ["cart", "money"]],
  ["formatPrice takes cents, not dollars; passing dollars shows prices 100x too small", "gotcha", ["money"]],
  ["The legacy cart module is frozen: change src/cart.ts instead", "decision", ["cart", "legacy"]],
  ["Discounts are percentages rounded to whole cents with Math.round", "preference", ["discount"]],
  ["Tests need TZ=UTC or the date helpers shift by a day", "environment-constraint", ["tests", "timezone"]],
  ["The scripts folder runs under Node 20 only; no Bun-specific APIs there", "environment-constraint", ["scripts"]],
  ["Prefer named exports in src/utils for tree shaking", "preference", ["exports"]],
  ["Generated files under generated/ are rebuilt by npm run gen; never edit them", "gotcha", ["generated"]],
];

// 20 user prompts: some touch a quirk's topic, some ask for retrieved files (the TUI's marker),
// some are unrelated chat. Several revisit the same topic, which must not re-inject a quirk.
const PROMPTS = [
  "How are cart totals computed?",
  "Why do prices show up 100 times too small?",
  "Add a method to the legacy cart to clear items",
  "Apply a 15% discount to the order total",
  "thanks, looks good",
  "Now the unit tests fail around midnight, why?",
  "Where is formatPrice used? [files]",
  "Can the scripts use Bun.file?",
  "Export a new helper from src/utils",
  "Edit the generated client to add a field",
  "How should discounts round?",
  "Explain the cart module layout [files]",
  "Write a commit message for these changes",
  "What does applyDiscount do with negative percents?",
  "Are cart totals stored as floats anywhere?",
  "Show me the money helpers [files]",
  "Rename formatPrice to formatCents everywhere",
  "What timezone do the tests assume?",
  "ok, summarise what we changed",
  "Anything else I should know before merging?",
];

export default {
  name: "tokens",
  async run({ lib, log }) {
    const repoRoot = new URL("../../..", import.meta.url).pathname;
    const plugin = await import(join(repoRoot, "dist", "plugin.js"));
    const enc = new Tiktoken(cl100k);
    const tokens = (t) => (t ? enc.encode(t).length : 0);
    const root = mkdtempSync(join(tmpdir(), "rag-bench-tokens-"));
    try {
      cpSync(join(repoRoot, "test", "fixtures", "repo"), root, { recursive: true });
      writeFileSync(join(root, "opencode-rag.json"), JSON.stringify({ autoIndex: { enabled: false }, logging: { level: "error", logFilePath: "" } }));
      const engine = await lib.openEngine({ root });
      await engine.index();
      const memory = await engine.memory();
      for (const [content, type, tags] of QUIRKS) await memory.add({ content, type, tags });
      await engine.close();

      const hooks = await plugin.server({ directory: root, worktree: root, client: {} });
      const sessionID = "ses_bench";
      const systems = [];
      let memoryBlocks = 0;
      let memoryTokens = 0;
      let contextTokens = 0;
      let injectedChars = 0;
      const injectedQuirkLines = [];
      let assistant = "";
      for (let turn = 0; turn < PROMPTS.length; turn++) {
        const sys = { system: ["You are a coding agent."] };
        await hooks["experimental.chat.system.transform"]({ sessionID, model: {} }, sys);
        systems.push(sys.system.join("\n"));
        const wantsFiles = PROMPTS[turn].includes("[files]");
        const text = PROMPTS[turn].replace(" [files]", "") + (wantsFiles ? `\n\n${plugin.INJECT_FILES_MARKER}` : "");
        const messageID = `msg_${turn}`;
        const out = { message: { id: messageID, sessionID, role: "user" }, parts: [{ id: `prt_${turn}`, sessionID, messageID, type: "text", text }] };
        await hooks["chat.message"]({ sessionID }, out);
        for (const part of out.parts.slice(1)) {
          injectedChars += part.text.length;
          if (part.text.startsWith("Remembered from earlier sessions")) {
            memoryBlocks++;
            memoryTokens += tokens(part.text);
            injectedQuirkLines.push(...part.text.split("\n").slice(1));
          } else {
            contextTokens += tokens(part.text);
          }
        }
        // The assistant's answer, as OpenCode's events carry it (feeds the next recall query).
        assistant = `Turn ${turn + 1}: done.`;
        const aid = `msg_a${turn}`;
        await hooks.event({ event: { type: "message.updated", properties: { info: { id: aid, role: "assistant", sessionID } } } });
        await hooks.event({ event: { type: "message.part.updated", properties: { part: { id: `prt_a${turn}`, messageID: aid, sessionID, type: "text", text: assistant } } } });
      }
      await hooks.dispose?.();

      const guidanceTokens = tokens(systems[0].slice("You are a coding agent.\n".length));
      const allQuirks = QUIRKS.map(([c, t, g]) => `- (${t} [${g.join(", ")}]) ${c}`).join("\n");
      // A memory-in-system-prompt design re-sends every stored quirk with every request.
      const naiveMemoryTokens = tokens(allQuirks) * PROMPTS.length;
      const duplicates = injectedQuirkLines.length - new Set(injectedQuirkLines).size;
      log(`tokens: ${memoryBlocks} memory blocks, ${injectedQuirkLines.length} quirk lines, ${duplicates} duplicates`);
      return {
        info: { turns: PROMPTS.length, "stored quirks": QUIRKS.length, "guidance tokens (cl100k)": guidanceTokens },
        rows: [
          { metric: "system prompt changes across turns", value: new Set(systems).size - 1, floor: null, target: "0" },
          { metric: "memory blocks injected", value: memoryBlocks, floor: PROMPTS.length, floorNote: "one per turn", target: "only on related turns" },
          { metric: "quirk lines injected (total)", value: injectedQuirkLines.length, floor: QUIRKS.length * PROMPTS.length, floorNote: "all, every turn", target: "≤ stored quirks" },
          { metric: "quirks injected twice in the session", value: duplicates, floor: null, target: "0" },
          { metric: "memory tokens injected (cl100k)", value: memoryTokens, floor: naiveMemoryTokens, floorNote: "all quirks in the system prompt per turn", target: "≪ floor" },
          { metric: "retrieved-context tokens injected (3 marker turns)", value: contextTokens, floor: null, target: "≤ 3 × openCode.injectTokenBudget" },
          { metric: "injected characters (total)", value: injectedChars, floor: null, target: "" },
        ],
      };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
