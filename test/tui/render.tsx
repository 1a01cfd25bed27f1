/** @jsxImportSource @opentui/solid */
// Renders a component with OpenTUI's test renderer and gives tests a small keyboard vocabulary.
// Every key press is followed by rendering until the frame settles, so assertions read the
// screen a user would see after that key.
import { testRender } from "@opentui/solid";
import type { JSX } from "@opentui/solid";

export type Key = "up" | "down" | "left" | "right" | "enter" | "escape" | "backspace" | "space";

export async function render(node: () => JSX.Element, size = { width: 100, height: 30 }) {
  const setup = await testRender(node, size);
  const settle = async () => {
    await setup.renderOnce();
    await setup.renderOnce();
  };
  await settle();
  return {
    frame: () => setup.captureCharFrame(),
    async press(...keys: Key[]) {
      for (const k of keys) {
        if (k === "enter") setup.mockInput.pressEnter();
        else if (k === "escape") setup.mockInput.pressEscape();
        else if (k === "backspace") setup.mockInput.pressBackspace();
        else if (k === "space") setup.mockInput.pressKey(" ");
        else setup.mockInput.pressArrow(k);
        await settle();
      }
    },
    async type(text: string) {
      await setup.mockInput.typeText(text);
      await settle();
    },
    /** Waits (render passes, not wall time) until the frame contains `text`. */
    async waitForText(text: string) {
      return setup.waitForFrame((f) => f.includes(text), { maxPasses: 200 });
    },
    /** Waits (render passes) until `predicate` holds, e.g. a callback was called. */
    async waitUntil(predicate: () => boolean) {
      // A lone Esc byte is only known to be Esc (not the start of a sequence) after a short pause.
      for (let i = 0; i < 100 && !predicate(); i++) {
        await new Promise((r) => setTimeout(r, 20));
        await setup.renderOnce();
      }
    },
    settle,
    destroy: () => setup.renderer.destroy(),
  };
}

/** Lines of a frame with trailing blanks removed, for readable failure output. */
export function lines(frame: string): string[] {
  return frame.split("\n").map((l) => l.trimEnd());
}

/** The frame's text with line breaks and runs of spaces collapsed, for messages that wrap. */
export function flat(frame: string): string {
  return frame.replace(/\s+/g, " ");
}
