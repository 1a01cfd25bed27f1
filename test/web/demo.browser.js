// The demo page end to end: index a folder in the page, search from the search box, see the
// expected file first with its line range highlighted. Fully offline (assets from this server).
import { ASSETS, assert, check, finish } from "./harness.browser.js";

const expected = await (await fetch("/test/.cache/web/expected.json")).json();
const frame = document.createElement("iframe");
const q = new URLSearchParams(ASSETS).toString();
frame.src = `/dist/web/index.html?${q}`;
frame.style.width = "1200px";
frame.style.height = "900px";
document.body.append(frame);
await new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
const win = frame.contentWindow;
const doc = frame.contentDocument;

async function until(cond, what, ms = 60_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

await check("the demo loads the model", async () => {
  await until(() => win.ragDemo?.ready, "the demo to load");
  assert(/Model ready/.test(doc.getElementById("status").textContent), `status: ${doc.getElementById("status").textContent}`);
});

await check("a folder is indexed in the page", async () => {
  const files = [];
  for (const p of expected.repoFiles) files.push({ path: p, text: await (await fetch(`/test/fixtures/repo/${p}`)).text() });
  const r = await win.ragDemo.indexFiles(files);
  assert(r.chunks > 0 && r.files === files.length, `indexed ${r.files} files, ${r.chunks} chunks`);
  assert(/Indexed/.test(doc.getElementById("status").textContent), "status shows the count");
});

await check("searching the box finds the expected file", async () => {
  const input = doc.getElementById("query");
  input.value = "format a price in cents with a currency sign";
  doc.getElementById("search-form").requestSubmit();
  await until(() => doc.querySelectorAll("#results li[data-path]").length > 0, "results");
  const first = doc.querySelector("#results li[data-path]");
  assert(first.dataset.path === "src/utils/money.ts", `first hit ${first.dataset.path}`);
  assert(first.querySelector(".line.hit"), "the hit's lines are highlighted");
});

finish();
