// OpenCode rejects a part whose id does not start with "prt" (and sorts parts by id), so parts
// this plugin adds get ids shaped like OpenCode's own: "prt_" + 12 hex digits of
// (ms * 4096 + counter) + 14 base62 characters — ascending within the process.
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
let lastMs = 0;
let counter = 0;

export function newPartId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  }
  counter += 1;
  const hex = (BigInt(lastMs) * 4096n + BigInt(counter)).toString(16).padStart(12, "0").slice(-12);
  let rand = "";
  for (let i = 0; i < 14; i++) rand += BASE62[Math.floor(Math.random() * 62)];
  return `prt_${hex}${rand}`;
}
