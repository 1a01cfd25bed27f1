// Node/browser parity: the same grammar files chunk the same way; the same model embeds the
// same text to the same vector (within 1e-5).
import { ASSETS, assert, check, equal, finish, importWeb } from "./harness.browser.js";

const expected = await (await fetch("/test/.cache/web/expected.json")).json();
const web = await importWeb();
web.useGrammarsFrom(ASSETS.grammars);

for (const [path, want] of Object.entries(expected.chunks)) {
  await check(`chunks of ${path} match Node`, async () => {
    const text = await (await fetch("/" + path)).text();
    const got = (await web.chunkFile(path, text, web.DEFAULT_CONFIG.chunking)).map(({ filePath, startLine, endLine, kind, symbol, context, language }) => ({ filePath, startLine, endLine, kind, symbol, context, language }));
    assert(want.length > 0, "Node produced no chunks");
    equal(got, want, path);
  });
}

await check("the bundled model embeds like Node (within 1e-5)", async () => {
  const embedder = await web.createBrowserEmbedder({ modelsUrl: ASSETS.models, modelId: expected.model, ortUrl: ASSETS.ort });
  const got = await embedder.embed(expected.texts, "query");
  equal(got.length, expected.vectors.length, "vector count");
  for (let i = 0; i < got.length; i++) {
    equal(got[i].length, expected.vectors[i].length, "dimension");
    let worst = 0;
    for (let d = 0; d < got[i].length; d++) worst = Math.max(worst, Math.abs(got[i][d] - expected.vectors[i][d]));
    assert(worst <= 1e-5, `text ${i}: largest difference ${worst}`);
  }
});

finish();
